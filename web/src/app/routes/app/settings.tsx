import { AgentsSettings } from '@/features/agents/components/agents-settings';
import { ApiKeysCard } from '@/features/api-keys/components/api-keys-card';
import { CustomerAutomations } from '@/features/client-dashboard/components/customer-automations';
import { N8nSettings } from '@/features/n8n/components/n8n-settings';
import { AdminSettings } from '@/features/settings/components/admin-settings';
import { PermissionDenied } from '@/features/settings/components/permission-denied';
import { useCurrentUser } from '@/lib/session';

/** Any signed-in user may open /settings; only admins see its contents (spec part 1 §6). */
export default function SettingsRoute() {
  const user = useCurrentUser();
  return user.role === 'admin' ? <AdminSettings customers={<CustomerAutomations />} agents={<AgentsSettings />} n8n={<N8nSettings />} serviceKeys={<ApiKeysCard kind="service" />} /> : <PermissionDenied requiredRole="admin" />;
}
