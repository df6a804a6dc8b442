import { Bot, CircleGauge, MessageSquareReply, Settings2, UserRoundCheck, type LucideIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { AgentView } from '@common/api/agents';
import type { Role } from '@common/roles';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { SearchInput } from '@/components/ui/search-input';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useAgents } from '../api/find-agents';
import { engineLabel, formatPercent, llmModeShortLabel, thresholdLabel } from '../lib/agent-form';
import { describeBusinessHours } from '@/lib/business-hours';
import { AgentEngineStats } from './agent-engine-stats';
import { TrainingBadge } from './training-status';

function Figure({ label, value, icon: Icon }: { label: string; value: string; icon: LucideIcon }) {
  return (
    <Card className="gap-2 py-4">
      <CardContent className="flex items-center justify-between gap-3 px-4">
        <dl className="flex flex-col-reverse">
          <dt className="text-sm text-muted-foreground">{label}</dt>
          <dd className="text-2xl font-semibold tabular-nums">{value}</dd>
        </dl>
        <Icon aria-hidden className="size-5 text-primary" />
      </CardContent>
    </Card>
  );
}

/** Replies-weighted average confidence over all agents, or null when nothing was answered. */
function overallConfidence(agents: readonly AgentView[]): number | null {
  let weight = 0;
  let sum = 0;
  for (const a of agents) {
    if (a.stats.averageConfidence === null || a.stats.replies === 0) continue;
    weight += a.stats.replies;
    sum += a.stats.averageConfidence * a.stats.replies;
  }
  return weight === 0 ? null : sum / weight;
}

/**
 * /agents (managers and admins): every client's agent, how it is set up and how its last 7 days
 * went, and per client and period its answers by engine and LLM cost.
 */
export function AgentsList({ role }: { role: Role }) {
  const agents = useAgents();
  const [search, setSearch] = useState('');
  const isAdmin = role === 'admin';

  if (agents.isPending) {
    return (
      <div className="grid gap-4">
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-24" />
          ))}
        </div>
        <Skeleton className="h-64" />
      </div>
    );
  }
  if (agents.isError) {
    return <LoadError className="p-6" message={errorMessage(agents.error, 'The agents could not be loaded.')} onRetry={() => void agents.refetch()} />;
  }
  const all = agents.data;
  if (all.length === 0) {
    return (
      <EmptyState icon={Bot} title="No AI agents yet">
        <p>Every client gets an AI agent; they appear here once clients are added.</p>
      </EmptyState>
    );
  }
  const q = search.trim().toLowerCase();
  const shown = q === '' ? all : all.filter((a) => a.clientName.toLowerCase().includes(q) || a.name.toLowerCase().includes(q));
  const replies = all.reduce((n, a) => n + a.stats.replies, 0);
  const escalations = all.reduce((n, a) => n + a.stats.escalations, 0);

  return (
    <div className="grid gap-6">
      <section aria-label="Last 7 days" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure label="Agents on" value={`${all.filter((a) => a.enabled).length} of ${all.length}`} icon={Bot} />
        <Figure label="Replies, last 7 days" value={String(replies)} icon={MessageSquareReply} />
        <Figure label="Escalations, last 7 days" value={String(escalations)} icon={UserRoundCheck} />
        <Figure label="Average confidence" value={formatPercent(overallConfidence(all))} icon={CircleGauge} />
      </section>

      <AgentEngineStats agents={all} />

      <SearchInput
        wrapperClassName="sm:w-72"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        placeholder="Search by client or agent..."
        aria-label="Search agents"
      />

      <Card className="py-2">
        <CardContent className="px-2">
          {shown.length === 0 ? (
            <p className="p-6 text-center text-sm text-muted-foreground">No agent matches “{search.trim()}”.</p>
          ) : (
            <Table aria-label="AI agents">
              <TableHeader>
                <TableRow>
                  <TableHead>Client</TableHead>
                  <TableHead>Agent</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Engine</TableHead>
                  <TableHead>Threshold</TableHead>
                  <TableHead>Knowledge</TableHead>
                  <TableHead className="text-right">Replies (7 days)</TableHead>
                  <TableHead className="text-right">Escalations (7 days)</TableHead>
                  <TableHead className="text-right">Avg. confidence</TableHead>
                  {isAdmin ? (
                    <TableHead>
                      <span className="sr-only">Actions</span>
                    </TableHead>
                  ) : null}
                </TableRow>
              </TableHeader>
              <TableBody>
                {shown.map((agent) => (
                  <TableRow key={agent.clientId}>
                    <TableCell className="font-medium">{agent.clientName}</TableCell>
                    <TableCell>
                      <div>{agent.name}</div>
                      <div className="text-xs text-muted-foreground">{describeBusinessHours(agent.businessHours)}</div>
                    </TableCell>
                    <TableCell>
                      <span className="flex flex-wrap gap-1">
                        <Badge variant={agent.enabled ? 'success' : 'secondary'}>{agent.enabled ? 'On' : 'Off'}</Badge>
                        {agent.automationPausedAt ? (
                          <Badge variant="warning" title="The client paused its automation: the agent does not answer">
                            Paused
                          </Badge>
                        ) : null}
                      </span>
                    </TableCell>
                    <TableCell className="text-sm">
                      {engineLabel(agent.engine)}
                      {agent.llmModel ? <div className="text-xs text-muted-foreground">{agent.llmModel}</div> : null}
                      {agent.engine === 'embedded' ? null : <div className="text-xs text-muted-foreground">{llmModeShortLabel(agent.llmMode)}</div>}
                    </TableCell>
                    <TableCell className="text-sm">{thresholdLabel(agent.confidenceThreshold)}</TableCell>
                    <TableCell>
                      <TrainingBadge training={agent.training} />
                      {agent.training.liveAt ? (
                        <div className="text-xs text-muted-foreground" title={formatDateTime(agent.training.liveAt)}>
                          v{agent.training.liveVersion} live {formatRelative(agent.training.liveAt)}
                        </div>
                      ) : null}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{agent.stats.replies}</TableCell>
                    <TableCell className="text-right tabular-nums">{agent.stats.escalations}</TableCell>
                    <TableCell className="text-right tabular-nums">{formatPercent(agent.stats.averageConfidence)}</TableCell>
                    {isAdmin ? (
                      <TableCell className="text-right">
                        <Button asChild variant="outline" size="sm">
                          <Link
                            to={`/settings?tab=agents&client=${encodeURIComponent(agent.clientId)}`}
                            aria-label={`Configure the agent of ${agent.clientName}`}
                          >
                            <Settings2 aria-hidden />
                            Configure
                          </Link>
                        </Button>
                      </TableCell>
                    ) : null}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
