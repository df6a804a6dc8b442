import { ChevronDown, ChevronRight, RotateCcw, XIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { PUBLIC_EVENT_TYPES } from '@common/api/events';
import { DELIVERY_STATUSES, type DeliveryAttemptView, type DeliveryDetail, type DeliveryView, type SubscriptionView } from '@common/api/hooks';
import { Button } from '@/components/ui/button';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format';
import { useDeliveries } from '../api/find-deliveries';
import { useDelivery } from '../api/get-delivery';
import type { DeliveryFilters } from '../api/keys';
import { useRedeliver } from '../api/redeliver';
import { DELIVERY_STATUS_LABEL, DELIVERY_STATUS_TONE, deliveryToast } from '../lib/webhooks';
import { When } from './subscription-card';

/** The filters' value for "no filter" (a Select item may not have an empty value). */
const ANY = 'any';
/** Event filter choices: the catalogue and the test event. */
export const EVENT_FILTERS = [...PUBLIC_EVENT_TYPES, 'ping'] as const;

export const NO_DELIVERIES = 'No deliveries yet. Each event this subscription receives, and each test event, appears here.';
export const NO_MATCHING_DELIVERIES = 'No deliveries match these filters.';

export function DeliveryStatusBadge({ status }: { status: DeliveryView['status'] }) {
  return (
    <span
      data-slot="badge"
      data-status={status}
      className={cn('inline-flex w-fit shrink-0 items-center rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap', DELIVERY_STATUS_TONE[status])}
    >
      {DELIVERY_STATUS_LABEL[status]}
    </span>
  );
}

/** One delivery in the log: event type, status, attempts, last status, time. */
export function DeliverySummary({ delivery, now }: { delivery: DeliveryView; now?: Date | undefined }) {
  return (
    <span className="grid min-w-0 flex-1 gap-1 text-left">
      <span className="flex min-w-0 flex-wrap items-center gap-2">
        <span className="font-mono text-xs break-all">{delivery.event_type}</span>
        <DeliveryStatusBadge status={delivery.status} />
        {delivery.redelivery_of ? <span className="text-xs text-muted-foreground">Redelivery</span> : null}
      </span>
      <span className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
        <span>
          {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
        </span>
        <span>Last status: {delivery.last_status ?? (delivery.attempts === 0 ? '—' : 'no answer')}</span>
        <When iso={delivery.created_at} now={now} />
      </span>
      {delivery.last_error ? <span className="text-xs break-words text-destructive">{delivery.last_error}</span> : null}
      {delivery.status === 'retrying' && delivery.next_attempt_at ? (
        <span className="text-xs text-muted-foreground">Next attempt {formatDateTime(delivery.next_attempt_at)}</span>
      ) : null}
    </span>
  );
}

function Block({ label, children }: { label: string; children: string }) {
  return (
    <div className="grid min-w-0 gap-1">
      <p className="text-xs font-medium text-muted-foreground">{label}</p>
      <pre className="max-h-48 overflow-auto rounded-md bg-muted p-2 font-mono text-xs break-all whitespace-pre-wrap">{children}</pre>
    </div>
  );
}

/** Pretty JSON when the body is JSON, else as sent. */
function prettyBody(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

/** One attempt: when, the answer (or why there was none), how long, and what was sent. */
export function AttemptItem({ attempt, index }: { attempt: DeliveryAttemptView; index: number }) {
  const headers = Object.entries(attempt.request_headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return (
    <li data-testid="delivery-attempt" className="grid min-w-0 gap-2 rounded-lg border p-3">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
        <span className="font-medium">Attempt {index}</span>
        <span>Status: {attempt.response_status ?? 'no answer'}</span>
        <span className="tabular-nums">{attempt.duration_ms} ms</span>
        <time className="text-xs text-muted-foreground" dateTime={attempt.attempted_at}>
          {formatDateTime(attempt.attempted_at)}
        </time>
      </div>
      {attempt.error ? <p className="text-sm break-words text-destructive">{attempt.error}</p> : null}
      {attempt.response_excerpt ? <Block label="Response">{attempt.response_excerpt}</Block> : null}
      <Block label="Request headers">{headers}</Block>
      <Block label="Request body">{prettyBody(attempt.request_body)}</Block>
    </li>
  );
}

/** Every attempt of a delivery, oldest first. */
export function AttemptList({ detail }: { detail: DeliveryDetail }) {
  if (detail.attempt_log.length === 0) return <p className="text-sm text-muted-foreground">No attempt yet: Parley sends it in a moment.</p>;
  return (
    <ol className="grid min-w-0 gap-2" aria-label="Attempts">
      {detail.attempt_log.map((attempt, i) => (
        <AttemptItem key={attempt.id} attempt={attempt} index={i + 1} />
      ))}
    </ol>
  );
}

function DeliveryDetailPanel({ deliveryId }: { deliveryId: string }) {
  const detail = useDelivery(deliveryId);
  const redeliver = useRedeliver();
  const again = () =>
    redeliver.mutate(deliveryId, {
      onSuccess: (delivery) => {
        const said = deliveryToast(delivery, 'redeliver');
        if (said.kind === 'success') toast.success(said.title, { description: said.description });
        else if (said.kind === 'error') toast.error(said.title, { description: said.description });
        else toast.info(said.title, { description: said.description });
      },
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The event could not be redelivered.') }),
    });

  if (detail.isPending) return <Skeleton className="h-24" />;
  if (detail.isError) {
    return (
      <p className="text-sm text-destructive">
        {errorMessage(detail.error, 'The delivery could not be loaded.')}{' '}
        <Button variant="link" size="sm" className="h-auto p-0" onClick={() => void detail.refetch()}>
          Try Again
        </Button>
      </p>
    );
  }
  return (
    <div className="grid min-w-0 gap-3">
      <AttemptList detail={detail.data} />
      <div>
        <Button size="sm" variant="outline" onClick={again} disabled={redeliver.isPending}>
          <RotateCcw aria-hidden />
          {redeliver.isPending ? 'Redelivering...' : 'Redeliver'}
        </Button>
      </div>
    </div>
  );
}

function DeliveryList({ subscriptionId, filters }: { subscriptionId: string; filters: DeliveryFilters }) {
  const deliveries = useDeliveries(subscriptionId, filters);
  const [openId, setOpenId] = useState<string | null>(null);

  if (deliveries.isPending) {
    return (
      <div className="grid gap-2">
        <Skeleton className="h-16" />
        <Skeleton className="h-16" />
      </div>
    );
  }
  if (deliveries.isError) {
    return (
      <div className="grid justify-items-start gap-2 text-sm">
        <p className="text-destructive">{errorMessage(deliveries.error, 'The delivery log could not be loaded.')}</p>
        <Button variant="outline" size="sm" onClick={() => void deliveries.refetch()}>
          Try Again
        </Button>
      </div>
    );
  }
  const list = deliveries.data.pages.flatMap((page) => page.deliveries);
  if (list.length === 0) {
    const filtered = filters.status !== undefined || filters.event !== undefined;
    return <p className="py-6 text-center text-sm text-muted-foreground">{filtered ? NO_MATCHING_DELIVERIES : NO_DELIVERIES}</p>;
  }
  return (
    <div className="grid min-w-0 gap-3">
      <ul aria-label="Deliveries" className="grid min-w-0 gap-2">
        {list.map((delivery) => {
          const open = openId === delivery.id;
          return (
            <li key={delivery.id} data-testid="delivery" data-delivery-status={delivery.status} className="grid min-w-0 gap-2 rounded-lg border p-3">
              <button
                type="button"
                className="flex min-w-0 items-start gap-2 text-left focus-visible:outline-none"
                aria-expanded={open}
                onClick={() => setOpenId(open ? null : delivery.id)}
              >
                {open ? <ChevronDown aria-hidden className="mt-0.5 size-4 shrink-0" /> : <ChevronRight aria-hidden className="mt-0.5 size-4 shrink-0" />}
                <DeliverySummary delivery={delivery} />
              </button>
              {open ? <DeliveryDetailPanel deliveryId={delivery.id} /> : null}
            </li>
          );
        })}
      </ul>
      {deliveries.hasNextPage ? (
        <Button variant="outline" onClick={() => void deliveries.fetchNextPage()} disabled={deliveries.isFetchingNextPage}>
          {deliveries.isFetchingNextPage ? 'Loading...' : 'Load More'}
        </Button>
      ) : null}
    </div>
  );
}

/** A subscription's delivery log (newest first), filtered by status and event, with every attempt and Redeliver. */
export function DeliveryLog({ subscription, onClose }: { subscription: SubscriptionView | null; onClose: () => void }) {
  const [status, setStatus] = useState<string>(ANY);
  const [event, setEvent] = useState<string>(ANY);
  const filters: DeliveryFilters = {
    status: DELIVERY_STATUSES.find((s) => s === status),
    event: event === ANY ? undefined : event,
  };
  return (
    <Sheet open={subscription !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <SheetContent side="right" className="w-full gap-4 overflow-y-auto bg-background p-4 sm:max-w-xl">
        <div className="flex items-start justify-between gap-2">
          <div className="grid min-w-0 gap-1">
            <SheetTitle className="text-lg font-semibold">Delivery Log</SheetTitle>
            <SheetDescription className="text-sm break-words text-muted-foreground">{subscription?.name}</SheetDescription>
          </div>
          <Button variant="ghost" size="icon" onClick={onClose} aria-label="Close">
            <XIcon aria-hidden />
          </Button>
        </div>
        <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          <Select value={status} onValueChange={setStatus}>
            <SelectTrigger className="w-full" aria-label="Filter by status">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>All statuses</SelectItem>
              {DELIVERY_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {DELIVERY_STATUS_LABEL[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <Select value={event} onValueChange={setEvent}>
            <SelectTrigger className="w-full" aria-label="Filter by event">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ANY}>All events</SelectItem>
              {EVENT_FILTERS.map((type) => (
                <SelectItem key={type} value={type}>
                  {type}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        {subscription ? <DeliveryList key={`${status}|${event}`} subscriptionId={subscription.id} filters={filters} /> : null}
      </SheetContent>
    </Sheet>
  );
}
