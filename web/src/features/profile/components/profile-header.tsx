import type { CurrentUser } from '@common/api/users';
import { RoleBadge } from '@/components/role-badge';
import { Avatar, AvatarFallback, AvatarImage, initialsOf } from '@/components/ui/avatar';
import { Card, CardContent } from '@/components/ui/card';

export function ProfileHeader({ user }: { user: CurrentUser }) {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-4 sm:flex-row">
        <Avatar className="size-16">
          {user.avatarUrl ? <AvatarImage src={user.avatarUrl} alt="" /> : null}
          <AvatarFallback className="text-lg">{initialsOf(user.name || user.email)}</AvatarFallback>
        </Avatar>
        <div className="grid gap-1 text-center sm:text-left">
          <h2 className="text-xl font-semibold">{user.name || user.email}</h2>
          <p className="text-sm text-muted-foreground">{user.email}</p>
          <RoleBadge role={user.role} className="mx-auto sm:mx-0" />
        </div>
      </CardContent>
    </Card>
  );
}
