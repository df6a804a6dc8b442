import { Building2, LayoutDashboard } from 'lucide-react';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import type { CurrentUser } from '@common/api/users';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { LoadError } from '@/components/ui/load-error';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useClientList } from '@/lib/api/clients';
import { useClientDashboard } from '../api/get-client-dashboard';
import { AnalyticsTab } from './analytics-tab';
import { AutomationSettingsTab } from './automation-settings-tab';
import { DashboardHeader } from './dashboard-header';
import { GoLive } from './go-live';
import { MetricCards } from './metric-cards';
import { RecentConversations } from './recent-conversations';

const TABS = ['conversations', 'analytics', 'settings', 'billing'] as const;
type Tab = (typeof TABS)[number];
const isTab = (value: string | null): value is Tab => value !== null && (TABS as readonly string[]).includes(value);

interface Slots {
  /** The Billing tab's content (the billing feature's); without it there is no Billing tab. */
  renderBilling?: ((clientId: string) => ReactNode) | undefined;
  /** The AI agent's card (the agents feature's), at the top of Automation Settings. */
  renderAgent?: ((clientId: string) => ReactNode) | undefined;
}

function DashboardBody({ clientId, role, renderBilling, renderAgent }: Slots & { clientId: string; role: CurrentUser['role'] }) {
  const dashboard = useClientDashboard(clientId);
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = isTab(requested) && (requested !== 'billing' || renderBilling) ? requested : 'conversations';

  if (dashboard.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-28" />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
          {[0, 1, 2, 3, 4].map((i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (dashboard.isError) {
    const missing = isApiError(dashboard.error) && dashboard.error.status === 404;
    return (
      <LoadError
        message={missing ? 'This client does not exist, or you cannot see it.' : errorMessage(dashboard.error, 'The dashboard could not be loaded.')}
        onRetry={missing ? undefined : () => void dashboard.refetch()}
      />
    );
  }
  const view = dashboard.data;
  return (
    <div className="grid min-w-0 gap-6">
      <DashboardHeader view={view} />
      <GoLive view={view} role={role} />
      <MetricCards view={view} />
      <Tabs
        value={tab}
        onValueChange={(value) => {
          const next = new URLSearchParams(params);
          if (value === 'conversations') next.delete('tab');
          else next.set('tab', value);
          setParams(next, { replace: true });
        }}
      >
        <TabsList>
          <TabsTrigger value="conversations">Recent Conversations</TabsTrigger>
          <TabsTrigger value="analytics">Analytics</TabsTrigger>
          <TabsTrigger value="settings">Automation Settings</TabsTrigger>
          {renderBilling ? <TabsTrigger value="billing">Billing</TabsTrigger> : null}
        </TabsList>
        <TabsContent value="conversations">
          <RecentConversations conversations={view.recentConversations} />
        </TabsContent>
        <TabsContent value="analytics" className="min-w-0">
          <AnalyticsTab view={view} />
        </TabsContent>
        <TabsContent value="settings" className="grid gap-4">
          {renderAgent ? renderAgent(view.client.id) : null}
          <AutomationSettingsTab clientId={view.client.id} settings={view.settings} paused={view.client.automationPausedAt !== null} />
        </TabsContent>
        {renderBilling ? <TabsContent value="billing">{renderBilling(view.client.id)}</TabsContent> : null}
      </Tabs>
    </div>
  );
}

/** Admins and managers choose whose dashboard they see (kept in `?client=`). */
function ClientPicker({ value, onChange }: { value: string | null; onChange: (id: string) => void }) {
  const clients = useClientList();
  return (
    <div className="grid gap-1.5 sm:max-w-sm">
      <Label htmlFor="dashboard-client">Client</Label>
      <Select value={value ?? ''} onValueChange={onChange} disabled={!clients.data}>
        <SelectTrigger id="dashboard-client" className="w-full">
          <SelectValue placeholder={clients.isPending ? 'Loading clients…' : 'Choose a client'} />
        </SelectTrigger>
        <SelectContent>
          {(clients.data ?? []).map((client) => (
            <SelectItem key={client.id} value={client.id}>
              {client.companyName}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
      {clients.isError ? <p className="text-sm text-destructive">{errorMessage(clients.error, 'The clients could not be loaded.')}</p> : null}
    </div>
  );
}

/**
 * The client dashboard (spec part 2 "Client dashboard"; docs/client-dashboard.md): a business's
 * header with Pause/Resume Automation, the last 30 days' figures, and the tabs. A client user sees
 * their own business; admins and managers pick one. Other features' parts come in through the
 * slots (composed by the route): the Billing tab and the AI agent's card.
 */
export function ClientDashboard({ user, renderBilling, renderAgent }: Slots & { user: CurrentUser }) {
  const [params, setParams] = useSearchParams();
  const staff = user.role === 'admin' || user.role === 'manager';
  const clientId = staff ? params.get('client') : user.clientId;

  if (!staff && clientId === null) {
    return (
      <EmptyState icon={Building2} title="Your account is not linked to a business yet">
        An administrator links your account to your business; its dashboard appears here then.
      </EmptyState>
    );
  }
  return (
    <div className="grid min-w-0 gap-6">
      {staff ? (
        <ClientPicker
          value={clientId}
          onChange={(id) => {
            const next = new URLSearchParams(params);
            next.set('client', id);
            next.delete('tab');
            setParams(next, { replace: true });
          }}
        />
      ) : null}
      {clientId ? (
        <DashboardBody clientId={clientId} role={user.role} renderBilling={renderBilling} renderAgent={renderAgent} />
      ) : (
        <EmptyState icon={LayoutDashboard} title="Choose a client">
          Pick a business above to see its dashboard.
        </EmptyState>
      )}
    </div>
  );
}
