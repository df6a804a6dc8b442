import { Coins } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { AGENT_STATS_PERIODS, type AgentStats, type AgentView } from '@common/api/agents';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { LoadError } from '@/components/ui/load-error';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useAgentStats } from '../api/get-agent-stats';
import { formatPercent } from '../lib/agent-form';
import { AUTOMATED_RESOLUTION_DEFINITION, formatCount, formatUsd, LLM_COST_NOTE, questionsHandled, withoutLlmShare } from '../lib/agent-stats';

type Period = (typeof AGENT_STATS_PERIODS)[number];
const isPeriod = (value: number): value is Period => (AGENT_STATS_PERIODS as readonly number[]).includes(value);

function Tile({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className="flex min-w-0 flex-col gap-0.5 rounded-lg bg-muted/50 p-3">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="text-lg font-semibold tabular-nums break-words">{value}</dd>
      {detail ? <dd className="text-xs break-words text-muted-foreground">{detail}</dd> : null}
    </div>
  );
}

function Figures({ stats }: { stats: AgentStats }) {
  const handled = questionsHandled(stats);
  return (
    <dl className="grid grid-cols-2 gap-2 sm:grid-cols-3 xl:grid-cols-5">
      <Tile label="Answered by the embedded engine" value={formatCount(stats.answers.embedded)} detail="offline, no cost" />
      <Tile label="Answered by the LLM" value={formatCount(stats.answers.llm)} />
      <Tile label="Greetings and away texts" value={formatCount(stats.answers.greeting + stats.answers.away)} />
      <Tile
        label="Hand-offs to a person"
        value={formatCount(stats.handoffs)}
        detail={stats.fallbacks > 0 ? `and ${formatCount(stats.fallbacks)} “please rephrase”` : undefined}
      />
      <Tile label="Handled without the LLM" value={formatPercent(withoutLlmShare(stats))} detail={`of ${formatCount(handled)} questions`} />
      <Tile
        label="LLM calls"
        value={formatCount(stats.llmCalls)}
        detail={stats.llmFailures > 0 ? `${formatCount(stats.llmFailures)} failed (embedded answer used)` : undefined}
      />
      <Tile label="LLM cost" value={formatUsd(stats.llmCostUsd)} detail={`${formatCount(stats.inputTokens)} in / ${formatCount(stats.outputTokens)} out tokens`} />
      <Tile label="Automated resolutions" value={formatCount(stats.automatedResolutions)} detail="conversations without a person" />
      <Tile label="Cost per automated resolution" value={formatUsd(stats.costPerAutomatedResolutionUsd)} />
    </dl>
  );
}

/**
 * The agents page's "answers and cost" panel: for one client and period (in the URL,
 * `?client=<id>&days=30`), the answers by engine, hand-offs, LLM cost and cost per automated
 * resolution, with what those mean.
 */
export function AgentEngineStats({ agents }: { agents: readonly AgentView[] }) {
  const [params, setParams] = useSearchParams();
  const requested = params.get('client');
  const clientId = agents.find((a) => a.clientId === requested)?.clientId ?? agents[0]?.clientId ?? null;
  const days: Period = isPeriod(Number(params.get('days'))) ? (Number(params.get('days')) as Period) : 7;
  const stats = useAgentStats(clientId, days);

  const setParam = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    next.set(key, value);
    setParams(next, { replace: true });
  };

  return (
    <Card role="region" aria-labelledby="agent-engine-stats-title" className="gap-4">
      <CardHeader>
        <CardTitle id="agent-engine-stats-title" className="flex items-center gap-2">
          <Coins aria-hidden className="size-4 text-primary" />
          Answers and cost
        </CardTitle>
        <CardDescription>Per client: which engine answered, how often a person took over, and what the LLM cost.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <FormField id="agent-stats-client" label="Client" className="min-w-0 sm:w-72">
            <Select value={clientId ?? ''} onValueChange={(value) => setParam('client', value)}>
              <SelectTrigger id="agent-stats-client" className="w-full">
                <SelectValue placeholder="Choose a client" />
              </SelectTrigger>
              <SelectContent>
                {agents.map((a) => (
                  <SelectItem key={a.clientId} value={a.clientId}>
                    {a.clientName}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
          <FormField id="agent-stats-period" label="Period" className="sm:w-44">
            <Select value={String(days)} onValueChange={(value) => setParam('days', value)}>
              <SelectTrigger id="agent-stats-period" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {AGENT_STATS_PERIODS.map((p) => (
                  <SelectItem key={p} value={String(p)}>
                    Last {p} days
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </FormField>
        </div>
        {stats.isPending ? (
          <Skeleton className="h-40" />
        ) : stats.isError ? (
          <LoadError className="p-6" message={errorMessage(stats.error, 'The figures could not be loaded.')} onRetry={() => void stats.refetch()} />
        ) : (
          <Figures stats={stats.data} />
        )}
        <div className="grid gap-1 text-xs text-muted-foreground">
          <p>{AUTOMATED_RESOLUTION_DEFINITION}</p>
          <p>{LLM_COST_NOTE}</p>
        </div>
      </CardContent>
    </Card>
  );
}
