import { ArrowRight, CircleCheck, CircleX, Mail, TriangleAlert, type LucideIcon } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import {
  COMPLETE_REMAINING_ITEMS,
  PRODUCTION_READY,
  READINESS_CATEGORIES,
  type ReadinessItem,
  type ReadinessStatus,
  type ReadinessView,
} from '@common/api/readiness';
import { FigureCard } from '@/components/figure-card';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';

export const STATUS_LABEL: Record<ReadinessStatus, string> = {
  complete: 'Complete',
  'needs-attention': 'Needs attention',
  critical: 'Critical',
};

const STATUS_ICON: Record<ReadinessStatus, { icon: LucideIcon; className: string }> = {
  complete: { icon: CircleCheck, className: 'text-success' },
  'needs-attention': { icon: TriangleAlert, className: 'text-warning' },
  critical: { icon: CircleX, className: 'text-destructive' },
};

/** Critical first, then needs attention; the checklist's order within each. */
export function actionItems(items: readonly ReadinessItem[]): ReadinessItem[] {
  const rank: Record<ReadinessStatus, number> = { critical: 0, 'needs-attention': 1, complete: 2 };
  return items.filter((item) => item.status !== 'complete' && item.action !== null).sort((a, b) => rank[a.status] - rank[b.status]);
}

function StatusIcon({ status }: { status: ReadinessStatus }) {
  const { icon: Icon, className } = STATUS_ICON[status];
  return (
    <span className="mt-0.5 shrink-0">
      <Icon aria-hidden className={cn('size-4', className)} />
      <span className="sr-only">{STATUS_LABEL[status]}:</span>
    </span>
  );
}

/** The overall score as a ring: the arc is the share of complete items. */
export function ScoreRing({ score, ready }: { score: number; ready: boolean }) {
  const radius = 48;
  const circumference = 2 * Math.PI * radius;
  const tone = ready ? 'text-success' : score >= 50 ? 'text-warning' : 'text-destructive';
  return (
    <div className="relative size-32 shrink-0" role="img" aria-label={`Overall score ${score}%`}>
      <svg viewBox="0 0 120 120" className="size-full -rotate-90" aria-hidden>
        <circle cx="60" cy="60" r={radius} fill="none" strokeWidth="12" className="stroke-muted" />
        <circle
          cx="60"
          cy="60"
          r={radius}
          fill="none"
          strokeWidth="12"
          strokeLinecap="round"
          stroke="currentColor"
          className={tone}
          strokeDasharray={circumference}
          strokeDashoffset={circumference * (1 - score / 100)}
        />
      </svg>
      <span aria-hidden className="absolute inset-0 grid place-content-center text-center">
        <span className="text-3xl font-semibold tabular-nums">{score}%</span>
      </span>
    </div>
  );
}

function ItemAction({ item, onSendTestEmail, sending }: { item: ReadinessItem; onSendTestEmail: () => void; sending: boolean }) {
  const { action } = item;
  if (!action) return null;
  if (action.kind === 'send-test-email') {
    return (
      <Button size="sm" variant="outline" className="w-fit" onClick={onSendTestEmail} disabled={sending}>
        <Mail aria-hidden />
        {sending ? 'Sending…' : action.label}
      </Button>
    );
  }
  if (action.kind === 'link' && action.path) {
    return (
      <Link to={action.path} className="inline-flex w-fit items-start gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline">
        <span>{action.label}</span>
        <ArrowRight aria-hidden className="mt-0.5 size-4 shrink-0" />
      </Link>
    );
  }
  return (
    <p className="text-sm">
      <span className="font-medium">To fix: </span>
      {action.label}
    </p>
  );
}

function ActionItems({ items, onSendTestEmail, sending }: { items: readonly ReadinessItem[]; onSendTestEmail: () => void; sending: boolean }) {
  const titleId = useId();
  const actions = actionItems(items);
  return (
    <Card role="region" aria-labelledby={titleId} className="gap-4">
      <CardHeader>
        <CardTitle id={titleId} className="text-base">
          Action items
        </CardTitle>
        <CardDescription>{actions.length === 0 ? 'Nothing to do: every item is complete.' : 'Critical first. Each says what was measured and what fixes it.'}</CardDescription>
      </CardHeader>
      {actions.length > 0 ? (
        <CardContent>
          <ul className="grid gap-4">
            {actions.map((item) => (
              <li key={item.key} className="flex min-w-0 gap-3">
                <StatusIcon status={item.status} />
                <div className="grid min-w-0 gap-1">
                  <p className="font-medium break-words">
                    {item.item} <span className="text-xs font-normal text-muted-foreground">· {item.category}</span>
                  </p>
                  <p className="text-sm break-words text-muted-foreground">{item.reason}</p>
                  <ItemAction item={item} onSendTestEmail={onSendTestEmail} sending={sending} />
                </div>
              </li>
            ))}
          </ul>
        </CardContent>
      ) : null}
    </Card>
  );
}

function CategoryCard({ category, items }: { category: string; items: readonly ReadinessItem[] }) {
  const titleId = useId();
  const done = items.filter((item) => item.status === 'complete').length;
  return (
    <Card role="region" aria-labelledby={titleId} className="gap-3 py-4">
      <CardHeader className="flex-row items-center justify-between gap-2 px-4">
        <CardTitle id={titleId} className="text-base">
          {category}
        </CardTitle>
        <span className="text-xs text-muted-foreground tabular-nums">
          {done} of {items.length} complete
        </span>
      </CardHeader>
      <CardContent className="px-4">
        <ul className="grid gap-4">
          {items.map((item) => (
            <li key={item.key} className="flex min-w-0 gap-3" data-status={item.status}>
              <StatusIcon status={item.status} />
              <div className="grid min-w-0 gap-1">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <p className="font-medium break-words">{item.item}</p>
                  <Badge variant={item.status === 'complete' ? 'success' : item.status === 'critical' ? 'destructive' : 'warning'}>{STATUS_LABEL[item.status]}</Badge>
                </div>
                <p className="text-sm break-words">{item.reason}</p>
                <p className="text-xs break-words text-muted-foreground">
                  {item.description} Since {formatDateTime(item.statusSince)}.
                </p>
              </div>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/**
 * Production readiness (spec part 2 "Production readiness", §4): the overall score with its ring,
 * the counts, 'Production Ready' at the threshold or the 'Complete remaining items' notice, the
 * action items and the checklist by category — everything as the server measured it.
 */
export function ReadinessReport({ view, onSendTestEmail, sendingTestEmail }: { view: ReadinessView; onSendTestEmail: () => void; sendingTestEmail: boolean }) {
  const summaryId = useId();
  const { counts } = view;
  const needed = Math.ceil((view.threshold / 100) * counts.total);
  return (
    <div className="grid min-w-0 gap-6">
      <Card role="region" aria-labelledby={summaryId} className="py-5">
        <CardContent className="flex flex-col items-center gap-5 px-5 sm:flex-row sm:items-center">
          <ScoreRing score={view.score} ready={view.ready} />
          <div className="grid min-w-0 gap-2 text-center sm:text-left">
            <h2 id={summaryId} className="text-sm text-muted-foreground">
              Overall score
            </h2>
            {view.ready ? (
              <Badge variant="success" className="mx-auto px-3 py-1 text-sm sm:mx-0">
                <CircleCheck aria-hidden />
                {PRODUCTION_READY}
              </Badge>
            ) : (
              <Alert className="text-left">
                <TriangleAlert aria-hidden />
                <AlertTitle>{COMPLETE_REMAINING_ITEMS}</AlertTitle>
                <AlertDescription>
                  {counts.complete} of {counts.total} items are complete; {PRODUCTION_READY} takes {view.threshold}% ({needed} items).
                </AlertDescription>
              </Alert>
            )}
            <p className="text-xs text-muted-foreground">
              Score: the rounded share of complete items.
              {view.previous ? ` The check before, on ${formatDateTime(view.previous.checkedAt)}: ${view.previous.score}%.` : ' This is the first check.'}
            </p>
          </div>
        </CardContent>
      </Card>

      <div className="grid gap-3 sm:grid-cols-3">
        <FigureCard title="Complete" value={String(counts.complete)} note={`of ${counts.total} items`} icon={CircleCheck} />
        <FigureCard title="Needs attention" value={String(counts.attention)} note={`of ${counts.total} items`} icon={TriangleAlert} />
        <FigureCard title="Critical" value={String(counts.critical)} note={`of ${counts.total} items`} icon={CircleX} />
      </div>

      <ActionItems items={view.items} onSendTestEmail={onSendTestEmail} sending={sendingTestEmail} />

      <section aria-label="Checklist" className="grid min-w-0 gap-4 lg:grid-cols-2">
        {READINESS_CATEGORIES.map((category) => {
          const items = view.items.filter((item) => item.category === category);
          return items.length === 0 ? null : <CategoryCard key={category} category={category} items={items} />;
        })}
      </section>
    </div>
  );
}
