import { Bot, Clock, MessagesSquare, Star, UserRoundCheck, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import type { SummaryView } from '@common/api/summary';
import { Card, CardContent } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatCount, formatDuration, formatRate, formatSatisfaction } from '@/lib/figures';

export const RATINGS_NOT_COLLECTED = 'Customer ratings are not collected yet';

function OverviewCard({ title, value, note, icon: Icon, small = false }: { title: string; value: string; note?: string; icon: LucideIcon; small?: boolean }) {
  const titleId = useId();
  return (
    <Card role="region" aria-labelledby={titleId} className="gap-2 py-4">
      <CardContent className="grid gap-1 px-4">
        <div className="flex items-center justify-between gap-2">
          <h2 id={titleId} className="text-sm font-normal text-muted-foreground">
            {title}
          </h2>
          <Icon aria-hidden className="size-4 shrink-0 text-primary" />
        </div>
        <p data-testid="metric-value" className={cn('font-semibold tabular-nums', small ? 'text-sm' : 'text-2xl')}>
          {value}
        </p>
        {note ? <p className="text-xs text-muted-foreground">{note}</p> : null}
      </CardContent>
    </Card>
  );
}

/**
 * The period's overview (spec part 2 "AI Summary page"): the response time is a mean, as the API
 * computes it; satisfaction says it is missing while nothing collects customer ratings.
 */
export function OverviewCards({ view }: { view: SummaryView }) {
  const { overview } = view;
  return (
    <section aria-label="Overview" className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-5">
      <OverviewCard title="Total Conversations" value={formatCount(overview.totalConversations)} icon={MessagesSquare} />
      <OverviewCard
        title="Avg Response Time"
        value={formatDuration(overview.averageResponseTime)}
        note="Mean time to the first reply, AI or person"
        icon={Clock}
      />
      <OverviewCard title="AI Confidence" value={formatRate(overview.aiConfidence)} note="Mean confidence of the AI's replies" icon={Bot} />
      <OverviewCard
        title="Escalation Rate"
        value={formatRate(overview.escalationRate)}
        note="Conversations handed to a person"
        icon={UserRoundCheck}
      />
      {view.ratingsCollected ? (
        <OverviewCard title="Customer Satisfaction" value={formatSatisfaction(overview.customerSatisfaction)} icon={Star} />
      ) : (
        <OverviewCard title="Customer Satisfaction" value={RATINGS_NOT_COLLECTED} icon={Star} small />
      )}
    </section>
  );
}
