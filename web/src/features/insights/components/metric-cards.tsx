import { ArrowDown, ArrowRight, ArrowUp, Bot, Clock, MessagesSquare, Star, type LucideIcon } from 'lucide-react';
import type { InsightsView } from '@common/api/insights';
import { FigureCard } from '@/components/figure-card';
import { cn } from '@/lib/cn';
import {
  changeTone,
  figureChange,
  formatCount,
  formatDuration,
  formatRate,
  formatSatisfaction,
  NONE,
  RATINGS_NOT_COLLECTED,
  type BetterWhen,
  type FigureChange,
} from '@/lib/figures';

export { RATINGS_NOT_COLLECTED };

const TONE_CLASS = { good: 'text-success', bad: 'text-destructive', neutral: 'text-muted-foreground' } as const;
const DIRECTION_WORD = { up: 'Up', down: 'Down', flat: 'No change' } as const;
const DIRECTION_ICON = { up: ArrowUp, down: ArrowDown, flat: ArrowRight } as const;

function Change({ change, better }: { change: FigureChange; better: BetterWhen }) {
  if (change.kind === 'none') {
    return (
      <p className="text-xs text-muted-foreground">
        <span aria-hidden>{NONE}</span>
        <span className="sr-only">Nothing to compare with the previous period</span>
      </p>
    );
  }
  if (change.kind === 'new') {
    return <p className="text-xs text-muted-foreground">new, none in the previous period</p>;
  }
  const Icon = DIRECTION_ICON[change.direction];
  return (
    <p className={cn('flex items-center gap-1 text-xs', TONE_CLASS[changeTone(change.direction, better)])}>
      <Icon aria-hidden className="size-3.5" />
      <span className="sr-only">{DIRECTION_WORD[change.direction]}</span>
      {change.direction === 'flat' ? null : <span className="tabular-nums">{change.text}</span>}
      <span className="text-muted-foreground">vs. previous period</span>
    </p>
  );
}

function MetricCard({
  title,
  value,
  note,
  change,
  better,
  icon: Icon,
}: {
  title: string;
  value: string;
  note?: string | undefined;
  change: FigureChange | null;
  better: BetterWhen;
  icon: LucideIcon;
}) {
  return (
    <FigureCard title={title} value={value} note={note} icon={Icon} small={!change}>
      {change ? <Change change={change} better={better} /> : null}
    </FigureCard>
  );
}

/**
 * The four figures of the period (spec part 1 §2.16), each against the period before. Response times
 * are medians (a few very slow answers do not hide how most customers were served); satisfaction is
 * said to be missing while nothing collects customer ratings, never guessed.
 */
export function MetricCards({ view }: { view: InsightsView }) {
  const { metrics, medians } = view;
  const businessNote =
    medians.firstResponseBusinessSeconds !== null && medians.firstResponseBusinessSeconds !== medians.firstResponseSeconds
      ? `${formatDuration(medians.firstResponseBusinessSeconds)} within business hours`
      : undefined;
  return (
    <section aria-label="Key figures" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
      <MetricCard
        title="Total Conversations"
        value={formatCount(metrics.conversations.value)}
        change={figureChange(metrics.conversations, 'percent')}
        better="neither"
        icon={MessagesSquare}
      />
      <MetricCard
        title="Median First Response"
        value={formatDuration(metrics.medianFirstResponseSeconds.value)}
        note={businessNote}
        change={figureChange(metrics.medianFirstResponseSeconds, 'percent')}
        better="lower"
        icon={Clock}
      />
      <MetricCard
        title="Automated Resolution"
        value={formatRate(metrics.automatedResolutionRate.value)}
        note="Resolved with the AI's answers alone"
        change={figureChange(metrics.automatedResolutionRate, 'points')}
        better="higher"
        icon={Bot}
      />
      {view.ratingsCollected ? (
        <MetricCard
          title="Customer Satisfaction"
          value={formatSatisfaction(metrics.satisfaction.value)}
          note={view.totals.ratings === 0 ? 'No ratings in this period' : `Mean of ${view.totals.ratings} rating${view.totals.ratings === 1 ? '' : 's'} (1–5)`}
          change={figureChange(metrics.satisfaction, 'percent')}
          better="higher"
          icon={Star}
        />
      ) : (
        <MetricCard title="Customer Satisfaction" value={RATINGS_NOT_COLLECTED} change={null} better="higher" icon={Star} />
      )}
    </section>
  );
}
