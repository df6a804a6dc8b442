import { toast } from 'sonner';
import type { UserSummary } from '@common/api/users';
import { isRole, ROLES, roleLabel, type Role } from '@common/roles';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { useUpdateUserRole } from '../api/update-user-role';
import { roleChangeBlocked, roleChangeFailure } from '../lib/role-change';

export function RoleSelect({ user, actor }: { user: UserSummary; actor: { id: string; role: Role } }) {
  const update = useUpdateUserRole();
  const own = user.id === actor.id;

  const onChange = (value: string) => {
    if (!isRole(value) || value === user.role) return;
    const blocked = roleChangeBlocked(actor, user.id);
    if (blocked) {
      toast.error(blocked.title, { description: blocked.description });
      return;
    }
    update.mutate(
      { id: user.id, role: value },
      {
        onSuccess: (saved) =>
          toast.success('Role Updated', { description: `${saved.name || saved.email} is now ${roleLabel(saved.role)}.` }),
        onError: (error) => {
          const { title, description } = roleChangeFailure(error);
          toast.error(title, { description });
        },
      },
    );
  };

  return (
    <Select value={update.isPending ? update.variables.role : user.role} onValueChange={onChange} disabled={own || update.isPending}>
      <SelectTrigger
        className="h-8 w-32"
        aria-label={`Role for ${user.email}`}
        title={own ? 'You cannot modify your own role.' : undefined}
      >
        <SelectValue />
      </SelectTrigger>
      <SelectContent>
        {ROLES.map((role) => (
          <SelectItem key={role} value={role}>
            {roleLabel(role)}
          </SelectItem>
        ))}
      </SelectContent>
    </Select>
  );
}
