import type { CurrentUser } from '@common/api/users';
import { AgentStatusCard } from '@/features/agents/components/agent-status-card';
import { BillingTab } from '@/features/billing/components/billing-tab';
import { ClientDashboard } from '@/features/client-dashboard/components/client-dashboard';
import { useCurrentUser } from '@/lib/session';

/** The client dashboard with other features' parts composed in: the AI agent's card and the Billing tab. */
export function ClientDashboardScreen({ user }: { user: CurrentUser }) {
  return (
    <ClientDashboard user={user} renderAgent={(clientId) => <AgentStatusCard clientId={clientId} />} renderBilling={(clientId) => <BillingTab clientId={clientId} />} />
  );
}

/** /client-dashboard: a client user's own business; admins and managers choose one. */
export default function ClientDashboardRoute() {
  return <ClientDashboardScreen user={useCurrentUser()} />;
}
