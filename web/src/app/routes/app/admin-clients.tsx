import { useSearchParams } from 'react-router';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { ClientsDirectory } from '@/features/clients/components/clients-directory';
import { ClientInvitations } from '@/features/onboarding/components/client-invitations';
import { OnboardingRequests, PendingRequestsCount } from '@/features/onboarding/components/onboarding-requests';
import { useCurrentUser } from '@/lib/session';

const TABS = ['clients', 'requests', 'invitations'] as const;
type AdminClientsTab = (typeof TABS)[number];

/**
 * /admin/clients: "All Clients" as a table for managing clients and channels; the onboarding
 * requests to review (`?tab=requests`); each client's invitations (`?tab=invitations&client=<id>`).
 */
export default function AdminClientsRoute() {
  const role = useCurrentUser().role;
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: AdminClientsTab = TABS.find((t) => t === requested) ?? 'clients';
  const select = (next: string) => setParams(next === 'clients' ? {} : { tab: next });

  return (
    <Tabs value={tab} onValueChange={select}>
      <TabsList aria-label="Client management">
        <TabsTrigger value="clients">Clients</TabsTrigger>
        <TabsTrigger value="requests">
          Requests
          <PendingRequestsCount />
        </TabsTrigger>
        <TabsTrigger value="invitations">Invitations</TabsTrigger>
      </TabsList>
      <TabsContent value="clients">
        <ClientsDirectory role={role} view="table" />
      </TabsContent>
      <TabsContent value="requests">
        <OnboardingRequests />
      </TabsContent>
      <TabsContent value="invitations">
        <ClientInvitations clientId={params.get('client')} onClientChange={(clientId) => setParams({ tab: 'invitations', client: clientId })} />
      </TabsContent>
    </Tabs>
  );
}
