import { ShieldCheck, Users } from 'lucide-react';
import type { UserStatus, UserSummary } from '@common/api/users';
import type { Role } from '@common/roles';
import { Avatar, AvatarFallback, initialsOf } from '@/components/ui/avatar';
import { Badge } from '@/components/ui/badge';
import { EmptyState } from '@/components/ui/empty-state';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDate, formatDateTime } from '@/lib/format';
import { RoleSelect } from './role-select';

const STATUS_BADGE: Record<UserStatus, { label: string; variant: 'success' | 'warning' | 'destructive' }> = {
  active: { label: 'Active', variant: 'success' },
  unverified: { label: 'Unverified', variant: 'warning' },
  disabled: { label: 'Disabled', variant: 'destructive' },
};

export function UsersTable({ users, actor }: { users: readonly UserSummary[]; actor: { id: string; role: Role } }) {
  if (users.length === 0) {
    return (
      <EmptyState icon={Users} title="No users found">
        <p>No account matches this search.</p>
      </EmptyState>
    );
  }
  return (
    <Table aria-label="Users">
      <TableHeader>
        <TableRow>
          <TableHead>User</TableHead>
          <TableHead>Role</TableHead>
          <TableHead>Status</TableHead>
          <TableHead>Created</TableHead>
          <TableHead>Last Login</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {users.map((user) => {
          const status = STATUS_BADGE[user.status];
          return (
            <TableRow key={user.id} data-user-email={user.email}>
              <TableCell>
                <div className="flex items-center gap-3">
                  <Avatar className="size-8">
                    <AvatarFallback>{initialsOf(user.name || user.email)}</AvatarFallback>
                  </Avatar>
                  <div className="grid min-w-40">
                    <span className="flex items-center gap-1.5 truncate font-medium">
                      {user.name || user.email}
                      {user.id === actor.id ? <span className="text-xs text-muted-foreground">(you)</span> : null}
                      {user.mfaEnabled ? <ShieldCheck aria-label="Two-factor on" className="size-3.5 text-success" /> : null}
                    </span>
                    <span className="truncate text-xs text-muted-foreground">{user.email}</span>
                  </div>
                </div>
              </TableCell>
              <TableCell>
                <RoleSelect user={user} actor={actor} />
              </TableCell>
              <TableCell>
                <Badge variant={status.variant}>{status.label}</Badge>
              </TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">{formatDate(user.createdAt)}</TableCell>
              <TableCell className="whitespace-nowrap text-muted-foreground">{formatDateTime(user.lastLogin)}</TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
