import { Users } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import type { ClientView } from '@common/api/channels';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { errorMessage } from '@/lib/api-client';
import { useClientList } from '@/lib/api/clients';
import { formatDateTime } from '@/lib/format';
import { useSetAutomationPaused } from '../api/set-automation-paused';

function CustomerRow({ client }: { client: ClientView }) {
  const mutation = useSetAutomationPaused();
  const enabled = client.automationPausedAt === null;
  const switchId = `automation-${client.id}`;
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 rounded-xl border bg-card p-4">
      <div className="grid min-w-0 gap-1">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <span className="truncate font-medium">{client.companyName}</span>
          <Badge variant="outline">Client</Badge>
          <Badge variant={client.status === 'active' ? 'success' : 'secondary'}>{client.status === 'active' ? 'Active' : 'Inactive'}</Badge>
        </div>
        <p className="truncate text-sm text-muted-foreground">{client.email ?? 'No contact e-mail'}</p>
        {enabled ? null : (
          <p className="text-xs text-muted-foreground">
            Paused {client.automationPausedBy ? `by ${client.automationPausedBy} ` : ''}on {formatDateTime(client.automationPausedAt)}
          </p>
        )}
      </div>
      <div className="flex items-center gap-3">
        <Button asChild variant="ghost" size="sm">
          <Link to={`/client-dashboard?client=${encodeURIComponent(client.id)}`} aria-label={`Open the dashboard of ${client.companyName}`}>
            Dashboard
          </Link>
        </Button>
        <span aria-hidden className="text-sm">
          {enabled ? 'Automation on' : 'Automation paused'}
        </span>
        <Switch
          id={switchId}
          checked={enabled}
          disabled={mutation.isPending}
          aria-label={`Automation of ${client.companyName}`}
          onCheckedChange={(checked) =>
            mutation.mutate(
              { clientId: client.id, paused: !checked },
              {
                onSuccess: () =>
                  toast.success('Customer Automation Updated', {
                    description: checked ? `${client.companyName}: the AI agent answers again.` : `${client.companyName}: automation paused.`,
                  }),
                onError: (error) => toast.error('Error', { description: errorMessage(error, 'The automation could not be changed. Please try again.') }),
              },
            )
          }
        />
      </div>
    </li>
  );
}

/**
 * Admin Settings → Customer Management (spec part 1 §2.17, §3 "customer automation record"): each
 * client with its contact e-mail, role, status and the enable switch, which pauses or resumes that
 * client's automation as its dashboard does.
 */
export function CustomerAutomations() {
  const clients = useClientList();
  if (clients.isPending) {
    return (
      <div className="grid gap-3" aria-busy="true">
        <Skeleton className="h-20" />
        <Skeleton className="h-20" />
      </div>
    );
  }
  if (clients.isError) {
    return <LoadError message={errorMessage(clients.error, 'The clients could not be loaded.')} onRetry={() => void clients.refetch()} />;
  }
  if (clients.data.length === 0) {
    return (
      <EmptyState icon={Users} title="No clients yet">
        Clients appear here once an administrator adds them on All Clients.
      </EmptyState>
    );
  }
  return (
    <section aria-labelledby="customer-automations-heading" className="grid gap-3">
      <div className="grid gap-1">
        <h2 id="customer-automations-heading" className="text-base font-semibold">
          Customer automation
        </h2>
        <p className="text-sm text-muted-foreground">
          Switch a client’s automation off to pause its AI agent and its event-triggered automations; customers then get the away message and go to your
          team.
        </p>
      </div>
      <ul aria-label="Customer automation records" className="grid gap-3">
        {clients.data.map((client) => (
          <CustomerRow key={client.id} client={client} />
        ))}
      </ul>
    </section>
  );
}
