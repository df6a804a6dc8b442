import { Bot } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useAgent } from '../api/get-agent';
import { formatPercent } from '../lib/agent-form';
import { isTrainingActive, progressPercent } from '../lib/training';

/** The client's dashboard: its AI agent at a glance (name, on/off, live version, last 7 days). */
export function AgentStatusCard({ clientId }: { clientId: string }) {
  const agent = useAgent(clientId);
  return (
    <Card role="region" aria-labelledby="agent-status-title">
      <CardHeader>
        <CardTitle id="agent-status-title" className="flex items-center justify-between gap-2">
          <span className="flex items-center gap-2">
            <Bot aria-hidden className="size-4 text-primary" />
            AI agent
          </span>
          {agent.data ? (
            agent.data.automationPausedAt ? (
              <Badge variant="warning">Paused</Badge>
            ) : (
              <Badge variant={agent.data.enabled ? 'success' : 'secondary'}>{agent.data.enabled ? 'On' : 'Off'}</Badge>
            )
          ) : null}
        </CardTitle>
        <CardDescription>{agent.data ? agent.data.name : 'Answers your customers around the clock.'}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3 text-sm">
        {agent.isPending ? (
          <Skeleton className="h-16" />
        ) : agent.isError ? (
          <p className="text-muted-foreground">The agent’s status could not be loaded.</p>
        ) : (
          <>
            {agent.data.automationPausedAt ? (
              <p className="text-warning">Automation paused since {formatDateTime(agent.data.automationPausedAt)}: the agent does not answer until it is resumed.</p>
            ) : null}
            <p>
              {isTrainingActive(agent.data.training) ? (
                `Learning your latest changes (${progressPercent(agent.data.training)}%)…`
              ) : agent.data.training.liveAt ? (
                <>
                  Knowledge version {agent.data.training.liveVersion} live since{' '}
                  <time dateTime={agent.data.training.liveAt}>{formatDateTime(agent.data.training.liveAt)}</time>
                  <span className="text-muted-foreground"> ({formatRelative(agent.data.training.liveAt)})</span>
                </>
              ) : (
                <span className="text-muted-foreground">No knowledge base live yet: our team is setting it up.</span>
              )}
            </p>
            <dl className="grid grid-cols-3 gap-2 text-center">
              {(
                [
                  ['Replies', String(agent.data.stats.replies)],
                  ['Hand-offs', String(agent.data.stats.escalations)],
                  ['Confidence', formatPercent(agent.data.stats.averageConfidence)],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="flex flex-col-reverse rounded-lg bg-muted/50 p-2">
                  <dt className="text-xs text-muted-foreground">{label}</dt>
                  <dd className="text-lg font-semibold tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
            <p className="text-xs text-muted-foreground">Last 7 days.</p>
          </>
        )}
      </CardContent>
    </Card>
  );
}
