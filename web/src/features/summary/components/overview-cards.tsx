import { Bot, Clock, MessagesSquare, Star, UserRoundCheck, type LucideIcon } from 'lucide-react';
import type { SummaryView } from '@common/api/summary';
import { FigureCard } from '@/components/figure-card';
import { formatCount, formatDuration, formatRate, formatSatisfaction, RATINGS_NOT_COLLECTED } from '@/lib/figures';

export { RATINGS_NOT_COLLECTED };

function OverviewCard(props: { title: string; value: string; note?: string; icon: LucideIcon; small?: boolean }) {
  return <FigureCard {...props} />;
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
