import { Bot, Building2, Settings2, BookOpen } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { FormField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import type { ClientView } from '@common/api/channels';
import { useClientList } from '@/lib/api/clients';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { newKnowledgeEntryOf, withoutNewKnowledgeEntry } from '@/lib/knowledge-entry-link';
import { useAgent } from '../api/get-agent';
import { AgentConfigForm } from './agent-config-form';
import { KnowledgeBase } from './knowledge-base';
import { TrainingStatusCard } from './training-status';
import { TryAgentCard } from './try-agent';

type Section = 'configuration' | 'knowledge';

/** The clients whose agent an admin can pick, by company name. */
const byCompanyName = (clients: ClientView[]) => [...clients].sort((a, b) => a.companyName.localeCompare(b.companyName));

/** One client's agent: its configuration or knowledge base, beside the training status and "Try the agent". */
function AgentWorkspace({
  clientId,
  section,
  onSection,
  newEntry,
  onNewEntryClosed,
}: {
  clientId: string;
  section: Section;
  onSection: (s: Section) => void;
  newEntry: readonly string[] | null;
  onNewEntryClosed: () => void;
}) {
  const agent = useAgent(clientId);
  if (agent.isPending) {
    return (
      <div className="grid gap-4" aria-label="Loading the agent">
        <Skeleton className="h-40" />
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (agent.isError) {
    return <LoadError className="p-6" message={errorMessage(agent.error, 'The agent could not be loaded.')} onRetry={() => void agent.refetch()} />;
  }
  const data = agent.data;
  return (
    <div className="grid grid-cols-1 items-start gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
      {data.automationPausedAt ? (
        <p className="rounded-lg border border-warning/40 bg-warning/10 p-3 text-sm xl:col-span-2" role="status" data-testid="agent-paused">
          <Badge variant="warning" className="mr-2">
            Paused
          </Badge>
          {data.clientName} paused its automation on {formatDateTime(data.automationPausedAt)}: the agent does not answer its customers (they get the away
          text and go to people) until it is resumed on the client dashboard.
        </p>
      ) : null}
      <Tabs className="min-w-0" value={section} onValueChange={(value) => onSection(value === 'knowledge' ? 'knowledge' : 'configuration')}>
        <TabsList aria-label="Agent sections">
          <TabsTrigger value="configuration">
            <Settings2 aria-hidden />
            Configuration
          </TabsTrigger>
          <TabsTrigger value="knowledge">
            <BookOpen aria-hidden />
            Knowledge base
          </TabsTrigger>
        </TabsList>
        {/* Kept mounted so unsaved changes survive a look at the knowledge base. Keyed by client: a new
            client starts a fresh form; polling the training status never resets it. */}
        <TabsContent value="configuration" forceMount className="data-[state=inactive]:hidden">
          <AgentConfigForm key={data.clientId} agent={data} />
        </TabsContent>
        <TabsContent value="knowledge">
          <KnowledgeBase key={data.clientId} clientId={data.clientId} clientName={data.clientName} canEdit newEntry={newEntry} onNewEntryClosed={onNewEntryClosed} />
        </TabsContent>
      </Tabs>
      <aside className="grid gap-6 xl:sticky xl:top-4" aria-label="Training and trying the agent">
        <TrainingStatusCard training={data.training} />
        <TryAgentCard key={data.clientId} clientId={data.clientId} />
      </aside>
    </div>
  );
}

/**
 * Admin Settings → AI Agents (spec part 1 §2.17, §3): pick a client, then configure its agent and
 * its knowledge base. The client and section live in the URL (`?tab=agents&client=<id>&section=knowledge`),
 * so /agents can link straight to one; `&newEntry=1&question=…` opens a new FAQ entry's form with
 * those questions (the AI Summary's "New FAQ entry", lib/knowledge-entry-link.ts), unsaved.
 */
export function AgentsSettings() {
  const [params, setParams] = useSearchParams();
  const clients = useClientList({ select: byCompanyName });
  const requested = params.get('client');
  const newEntry = newKnowledgeEntryOf(params);
  const section: Section = params.get('section') === 'knowledge' || newEntry !== null ? 'knowledge' : 'configuration';
  const clientId = requested && clients.data?.some((c) => c.id === requested) ? requested : null;

  const setParam = (key: string, value: string | null) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'agents');
    if (value === null) next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true });
  };

  if (clients.isPending) return <Skeleton className="h-24" />;
  if (clients.isError) {
    return <LoadError className="p-6" message={errorMessage(clients.error, 'The clients could not be loaded.')} onRetry={() => void clients.refetch()} />;
  }
  if (clients.data.length === 0) {
    return (
      <EmptyState icon={Building2} title="No clients yet">
        <p>
          Every client gets an AI agent. Add a client on{' '}
          <Link to="/admin/clients" className="text-primary hover:underline">
            All Clients
          </Link>{' '}
          first.
        </p>
      </EmptyState>
    );
  }

  return (
    <div className="grid grid-cols-1 gap-6">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end sm:justify-between">
        <FormField id="agent-client" label="Client" className="sm:w-80">
          <Select value={clientId ?? ''} onValueChange={(value) => setParam('client', value)}>
            <SelectTrigger id="agent-client" className="w-full">
              <SelectValue placeholder="Choose a client" />
            </SelectTrigger>
            <SelectContent>
              {clients.data.map((client) => (
                <SelectItem key={client.id} value={client.id}>
                  {client.companyName}
                  {client.status === 'inactive' ? ' (inactive)' : ''}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </FormField>
        <Button asChild variant="link" className="justify-self-start px-0">
          <Link to="/agents">All agents at a glance</Link>
        </Button>
      </div>
      {requested && !clientId ? <Badge variant="warning">That client no longer exists; choose another.</Badge> : null}
      {clientId ? (
        <AgentWorkspace
          clientId={clientId}
          section={section}
          onSection={(s) => setParam('section', s === 'configuration' ? null : s)}
          newEntry={newEntry}
          onNewEntryClosed={() => setParams((current) => withoutNewKnowledgeEntry(current), { replace: true })}
        />
      ) : (
        <EmptyState icon={Bot} title="Choose a client">
          <p>Each client has its own AI agent: its confidence threshold, escalation, response delay, channels, hours, texts and knowledge base.</p>
        </EmptyState>
      )}
    </div>
  );
}
