import { ArrowDownRight, ArrowRight, ArrowUpRight, Building2, Clock, MessagesSquare, Ticket, type LucideIcon } from 'lucide-react';
import type { DashboardStats } from '@common/api/dashboard';
import { formatResponseTime } from '@common/messaging/keyword-rules';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';
import { useDashboardStats } from '../api/get-dashboard-stats';
import { type Change, weekOverWeek } from '../lib/week-over-week';

interface Stat {
  label: string;
  value: string;
  change: Change;
  /** What the change compares, when the value itself is not what changed. */
  changePrefix?: string;
  note: string;
  icon: LucideIcon;
}

const DIRECTION_ICON = { up: ArrowUpRight, down: ArrowDownRight, flat: ArrowRight, none: null } as const;
const SENTIMENT_CLASS = { good: 'text-success', bad: 'text-destructive', neutral: 'text-muted-foreground' } as const;

function StatCard({ stat }: { stat: Stat }) {
  const Arrow = DIRECTION_ICON[stat.change.direction];
  return (
    <Card className="gap-2 py-4">
      <CardContent className="grid gap-1 px-4">
        <div className="flex items-center justify-between gap-2">
          <h3 className="text-sm text-muted-foreground">{stat.label}</h3>
          <stat.icon aria-hidden className="size-4 text-primary" />
        </div>
        <p className="text-2xl font-semibold tabular-nums">{stat.value}</p>
        <p className={cn('flex items-start gap-1 text-xs', SENTIMENT_CLASS[stat.change.sentiment])}>
          {Arrow ? <Arrow aria-hidden className="mt-px size-3.5 shrink-0" /> : null}
          <span>
            {stat.changePrefix ? `${stat.changePrefix}, ` : ''}
            {stat.change.text}
          </span>
        </p>
        <p className="text-xs text-muted-foreground">{stat.note}</p>
      </CardContent>
    </Card>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The cards of spec part 1 §2.13 from the server's two 7-day windows (definitions: docs/admin-settings.md). */
export function statsFor(data: DashboardStats): Stat[] {
  const { conversationsHandled: handled, openTickets: tickets, avgResponseTime: response } = data;
  const stats: Stat[] = [
    {
      label: 'Conversations Handled',
      value: String(handled.current),
      change: weekOverWeek(handled.current, handled.previous, 'higher'),
      note: 'Answered by the AI or a person in the last 7 days',
      icon: MessagesSquare,
    },
    {
      label: 'Open Tickets',
      value: String(tickets.now),
      change: weekOverWeek(tickets.openedCurrent, tickets.openedPrevious, 'neither'),
      changePrefix: `${tickets.openedCurrent} opened in 7 days`,
      note: 'Active, pending and escalated now',
      icon: Ticket,
    },
    {
      label: 'Avg Response Time',
      value: response.currentSeconds === null ? '—' : formatResponseTime(response.currentSeconds),
      change: weekOverWeek(response.currentSeconds, response.previousSeconds, 'lower'),
      note:
        response.currentSample === 0
          ? 'No conversation got its first reply in the last 7 days'
          : `First replies in ${plural(response.currentSample, 'conversation', 'conversations')}, last 7 days`,
      icon: Clock,
    },
  ];
  if (data.activeClients !== null) {
    stats.push({
      label: 'Active Clients',
      value: String(data.activeClients.now),
      change: weekOverWeek(data.activeClients.now, data.activeClients.previous, 'higher'),
      note: 'Active businesses, not counting the demo',
      icon: Building2,
    });
  }
  return stats;
}

/** Spec part 1 §2.13's four cards (a client user's three: their business's), each with its week-over-week change. */
export function StatCards() {
  const stats = useDashboardStats();

  if (stats.isPending) {
    return (
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Loading figures">
        {[0, 1, 2, 3].map((i) => (
          <Skeleton key={i} className="h-32" />
        ))}
      </div>
    );
  }
  if (stats.isError) {
    return <p className="rounded-lg border border-dashed p-4 text-sm text-muted-foreground">The figures could not be loaded.</p>;
  }
  const cards = statsFor(stats.data);
  return (
    <section aria-label="Figures" className={cards.length === 4 ? 'grid gap-4 sm:grid-cols-2 lg:grid-cols-4' : 'grid gap-4 sm:grid-cols-3'}>
      {cards.map((stat) => (
        <StatCard key={stat.label} stat={stat} />
      ))}
    </section>
  );
}
