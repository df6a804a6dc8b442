import { useAuthNotice } from '@/features/auth/hooks/use-auth-notice';
import { DashboardHome } from '@/features/dashboard/components/dashboard-home';
import { InboxWidget } from '@/features/messages/components/inbox-widget';
import { useCurrentUser } from '@/lib/session';
import { ClientDashboardScreen } from './client-dashboard';

export default function DashboardRoute() {
  const user = useCurrentUser();
  // A verification link signs the user in and lands here with ?verified=1.
  useAuthNotice('dashboard');
  // A client user's home is their business's dashboard (issue 17 §2); staff keep the team's.
  if (user.role === 'client' && user.clientId !== null) return <ClientDashboardScreen user={user} />;
  return <DashboardHome user={user} inbox={<InboxWidget />} />;
}
