import { Clock, MessagesSquare, Reply, Sparkles, Target } from 'lucide-react';
import type { ClientDashboardView } from '@common/api/client-dashboard';
import { FigureCard } from '@/components/figure-card';
import { formatCount, formatDuration, formatRate } from '@/lib/figures';
import { periodText } from '../lib/dashboard';

/** The five figures of the last 30 days (definitions in docs/client-dashboard.md). */
export function MetricCards({ view }: { view: ClientDashboardView }) {
  const m = view.metrics;
  return (
    <section aria-labelledby="client-metrics-heading" className="grid gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="client-metrics-heading" className="text-base font-semibold">
          Results
        </h2>
        <p className="text-sm text-muted-foreground">{periodText(view.period)}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
        <FigureCard title="Total Messages" value={formatCount(m.totalMessages)} icon={MessagesSquare} note="From customers, the AI agent and your team" />
        <FigureCard
          title="Response Rate"
          value={formatRate(m.responseRate)}
          icon={Reply}
          note={m.conversations === 0 ? 'No conversations started' : `${formatCount(m.answeredConversations)} of ${formatCount(m.conversations)} conversations answered`}
        />
        <FigureCard
          title="Avg Response Time"
          value={formatDuration(m.avgResponseSeconds)}
          icon={Clock}
          note={m.avgResponseSeconds === null ? 'No conversation answered yet' : 'First reply to a new conversation'}
        />
        <FigureCard title="Leads Generated" value={formatCount(m.leadsGenerated)} icon={Sparkles} note="Conversations that became leads" />
        <FigureCard
          title="Conversion Rate"
          value={formatRate(m.conversionRate)}
          icon={Target}
          note={m.leadsGenerated === 0 ? 'No leads yet' : `${formatCount(m.convertedLeads)} of ${formatCount(m.leadsGenerated)} leads marked converted`}
        />
      </div>
    </section>
  );
}
