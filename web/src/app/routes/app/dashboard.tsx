import { DashboardHome } from '@/features/dashboard/components/dashboard-home';
import { useCurrentUser } from '@/lib/session';

export default function DashboardRoute() {
  const user = useCurrentUser();
  return <DashboardHome user={user} />;
}
