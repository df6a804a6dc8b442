import { UsersAdmin } from '@/features/users/components/users-admin';
import { useCurrentUser } from '@/lib/session';

export default function AdminUsersRoute() {
  const user = useCurrentUser();
  return <UsersAdmin actor={{ id: user.id, role: user.role }} />;
}
