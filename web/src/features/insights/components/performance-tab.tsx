import { Bot, UserRound } from 'lucide-react';
import type { AgentPerformance, InsightsView } from '@common/api/insights';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { chartColor } from '@/components/charts/chart-colors';
import { formatCount, formatDuration, formatRate, formatSatisfaction, NONE } from '@/lib/figures';
import { ChartFigure } from '@/components/charts/chart-figure';
import { BarsChart, SharesChart } from '@/components/charts/lazy-charts';

/** The chart shows the busiest agents; the table below lists every one. */
const AGENTS_IN_CHART = 8;

type Share = { key: string; label: string; count: number };

function AgentName({ agent }: { agent: AgentPerformance }) {
  return (
    <div className="grid min-w-0 gap-1">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium break-words">{agent.name}</span>
        {agent.kind === 'ai' ? (
          <Badge variant="secondary">
            <Bot aria-hidden />
            AI
          </Badge>
        ) : (
          <Badge variant="outline">
            <UserRound aria-hidden />
            Person
          </Badge>
        )}
      </div>
      {agent.kind === 'ai' && agent.clientName ? <span className="text-xs text-muted-foreground">{agent.clientName}</span> : null}
    </div>
  );
}

function TopAgents({ agents, ratingsCollected }: { agents: readonly AgentPerformance[]; ratingsCollected: boolean }) {
  const busiest = agents.filter((a) => a.conversations > 0).slice(0, AGENTS_IN_CHART);
  const chartLabel = (a: AgentPerformance) => (a.kind === 'ai' && a.clientName ? `${a.name} (${a.clientName})` : a.name);
  return (
    <Card role="region" aria-labelledby="insights-top-agents" className="min-w-0">
      <CardHeader>
        <CardTitle id="insights-top-agents">Top Performing Agents</CardTitle>
        <CardDescription>
          Conversations started in this period: for a client&apos;s AI agent, those it answered first; for a person, those assigned to them
          (or, when nobody was assigned, first answered by them).
        </CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-6">
        <ChartFigure
          title="Conversations by agent"
          description={busiest.length < agents.filter((a) => a.conversations > 0).length ? `The ${AGENTS_IN_CHART} busiest agents.` : undefined}
          rows={busiest}
          rowKey={(a) => a.id}
          rowHeader={chartLabel}
          rowHeaderLabel="Agent"
          columns={[{ header: 'Conversations', cell: (a) => formatCount(a.conversations) }]}
          empty={busiest.length === 0 ? 'No agent handled a conversation in this period.' : null}
          height={busiest.length > 4 ? 'h-80' : 'h-56'}
          chart={
            <BarsChart
              horizontal
              data={busiest.map((a) => ({ agent: chartLabel(a), conversations: a.conversations }))}
              categoryKey="agent"
              series={[{ key: 'conversations', label: 'Conversations', color: chartColor(0) }]}
            />
          }
        />
        {agents.length === 0 ? null : (
          <Table aria-label="Top performing agents">
            <TableHeader>
              <TableRow>
                <TableHead>Agent</TableHead>
                <TableHead className="text-right">Conversations</TableHead>
                <TableHead className="text-right">Resolution rate</TableHead>
                <TableHead className="text-right">Median first response</TableHead>
                <TableHead className="text-right">Satisfaction</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {agents.map((agent) => (
                <TableRow key={agent.id}>
                  <TableCell className="min-w-40">
                    <AgentName agent={agent} />
                  </TableCell>
                  <TableCell className="text-right tabular-nums">{formatCount(agent.conversations)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatRate(agent.resolutionRate)}</TableCell>
                  <TableCell className="text-right tabular-nums">{formatDuration(agent.medianFirstResponseSeconds)}</TableCell>
                  <TableCell className="text-right tabular-nums">{ratingsCollected ? formatSatisfaction(agent.satisfaction) : NONE}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function SharesFigure({ title, items, empty, unit }: { title: string; items: readonly Share[]; empty: string; unit: string }) {
  const shown = items.filter((item) => item.count > 0);
  const total = shown.reduce((sum, item) => sum + item.count, 0);
  return (
    <ChartFigure
      title={title}
      rows={shown}
      rowKey={(item) => item.key}
      rowHeader={(item) => item.label}
      rowHeaderLabel={unit}
      columns={[
        { header: 'Count', cell: (item) => formatCount(item.count) },
        { header: 'Share', cell: (item) => formatRate(total === 0 ? null : item.count / total) },
      ]}
      empty={shown.length === 0 ? empty : null}
      chart={<SharesChart data={shown.map((item, index) => ({ name: item.label, value: item.count, fill: chartColor(index) }))} />}
    />
  );
}

function ClientDistribution({ distribution }: { distribution: InsightsView['distribution'] }) {
  return (
    <Card role="region" aria-labelledby="insights-distribution" className="min-w-0">
      <CardHeader>
        <CardTitle id="insights-distribution">Client Distribution</CardTitle>
        <CardDescription>The clients by status, and this period&apos;s conversations by channel.</CardDescription>
      </CardHeader>
      <CardContent className="grid min-w-0 gap-6 md:grid-cols-2">
        <SharesFigure title="Clients by status" unit="Status" items={distribution.clientsByStatus} empty="No clients yet." />
        <SharesFigure
          title="Conversations by channel"
          unit="Channel"
          items={distribution.conversationsByChannel}
          empty="No conversations in this period."
        />
      </CardContent>
    </Card>
  );
}

/** Performance: who answered how many conversations, how well, and where the conversations came from. */
export function PerformanceTab({ view }: { view: InsightsView }) {
  return (
    <div className="grid min-w-0 gap-6">
      <TopAgents agents={view.agents} ratingsCollected={view.ratingsCollected} />
      <ClientDistribution distribution={view.distribution} />
    </div>
  );
}
