import { AgentStatusCard } from '@/features/agents/components/agent-status-card';
import { useAuthNotice } from '@/features/auth/hooks/use-auth-notice';
import { DashboardHome } from '@/features/dashboard/components/dashboard-home';
import { InboxWidget } from '@/features/messages/components/inbox-widget';
import { useCurrentUser } from '@/lib/session';

export default function DashboardRoute() {
  const user = useCurrentUser();
  // A verification link signs the user in and lands here with ?verified=1.
  useAuthNotice('dashboard');
  // A client user sees their business's AI agent.
  const agent = user.role === 'client' && user.clientId !== null ? <AgentStatusCard clientId={user.clientId} /> : null;
  return <DashboardHome user={user} inbox={<InboxWidget />} aside={agent} />;
}
