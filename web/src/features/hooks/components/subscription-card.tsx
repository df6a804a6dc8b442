import { KeyRound, ListTree, Pause, Pencil, Play, Send, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { SubscriptionView } from '@common/api/hooks';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '@/components/ui/alert-dialog';
import { Button, buttonVariants } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { cn } from '@/lib/cn';
import { formatDateTime, formatRelative } from '@/lib/format';
import { useDeleteSubscription } from '../api/delete-subscription';
import { useRotateSubscriptionSecret } from '../api/rotate-subscription-secret';
import { useSendTestEvent } from '../api/send-test-event';
import { useUpdateSubscription } from '../api/update-subscription';
import { deliveryToast, eventsLabel, SUBSCRIPTION_STATUS_LABEL, toggleOf, truncateUrl } from '../lib/webhooks';

export function SubscriptionStatusBadge({ status }: { status: SubscriptionView['status'] }) {
  return (
    <span
      data-slot="badge"
      data-status={status}
      className={cn(
        'inline-flex w-fit shrink-0 items-center rounded-md border px-2 py-0.5 text-xs font-medium whitespace-nowrap',
        status === 'active' ? 'border-success/30 bg-success/15 text-success' : 'border-transparent bg-muted text-muted-foreground',
      )}
    >
      {SUBSCRIPTION_STATUS_LABEL[status]}
    </span>
  );
}

/** Relative time with the absolute one in the title and the datetime attribute; "Never" before the first call. */
export function When({ iso, now }: { iso: string | null; now?: Date | undefined }) {
  if (iso === null) return <>Never</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelative(iso, now)} <span className="text-muted-foreground">({formatDateTime(iso)})</span>
    </time>
  );
}

/** What the list shows of one subscription (spec §3 Webhook: name, url, status, lastTriggered, totalCalls). */
export function SubscriptionSummary({ subscription, showClient, now }: { subscription: SubscriptionView; showClient: boolean; now?: Date | undefined }) {
  const s = subscription;
  return (
    <div className="grid min-w-0 gap-2">
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <h3 className="min-w-0 font-semibold break-words">{s.name}</h3>
        <SubscriptionStatusBadge status={s.status} />
        {s.source === 'rest_hook' ? <span className="text-xs text-muted-foreground">REST hook</span> : null}
      </div>
      <p className="font-mono text-xs break-all text-muted-foreground" title={s.url} data-testid="subscription-url">
        {truncateUrl(s.url)}
      </p>
      {s.status === 'inactive' && s.disabled_reason ? (
        <p className="text-sm break-words text-destructive" data-testid="disabled-reason">
          Turned off by Parley: {s.disabled_reason}
        </p>
      ) : null}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-muted-foreground">Events</dt>
        <dd className="font-mono text-xs break-words">{eventsLabel(s.events)}</dd>
        {showClient ? (
          <>
            <dt className="text-muted-foreground">Client</dt>
            <dd className="break-words">{s.client_name ?? 'All clients'}</dd>
          </>
        ) : null}
        <dt className="text-muted-foreground">Last triggered</dt>
        <dd>
          <When iso={s.last_triggered} now={now} />
        </dd>
        <dt className="text-muted-foreground">Total calls</dt>
        <dd className="tabular-nums">
          {s.total_calls} <span className="text-muted-foreground">({s.success_count} succeeded, {s.failure_count} failed)</span>
        </dd>
        <dt className="text-muted-foreground">Secret</dt>
        <dd className="font-mono text-xs break-all">{s.secret_prefix}…</dd>
      </dl>
    </div>
  );
}

/** One subscription with its actions: edit, pause/resume, test event, delivery log, new secret, delete. */
export function SubscriptionCard({
  subscription,
  showClient,
  onEdit,
  onOpenLog,
  onSecret,
}: {
  subscription: SubscriptionView;
  showClient: boolean;
  onEdit: () => void;
  onOpenLog: () => void;
  onSecret: (secret: string) => void;
}) {
  const s = subscription;
  const update = useUpdateSubscription();
  const test = useSendTestEvent();
  const rotate = useRotateSubscriptionSecret();
  const remove = useDeleteSubscription();
  const toggle = toggleOf(s.status);

  const setStatus = () =>
    update.mutate(
      { id: s.id, status: toggle.next },
      {
        onSuccess: (saved) => toast.success(saved.status === 'active' ? 'Subscription resumed' : 'Subscription paused', { description: saved.name }),
        onError: (error) => toast.error('Error', { description: errorMessage(error, 'The status could not be changed.') }),
      },
    );

  const sendTest = () =>
    test.mutate(s.id, {
      onSuccess: (delivery) => {
        const said = deliveryToast(delivery, 'test');
        if (said.kind === 'success') toast.success(said.title, { description: said.description });
        else if (said.kind === 'error') toast.error(said.title, { description: said.description });
        else toast.info(said.title, { description: said.description });
      },
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The test event could not be sent.') }),
    });

  const newSecret = () =>
    rotate.mutate(s.id, {
      onSuccess: (created) => onSecret(created.signing_secret),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The signing secret could not be replaced.') }),
    });

  const confirmDelete = () =>
    remove.mutate(s.id, {
      onSuccess: () => toast.success('Subscription deleted', { description: s.name }),
      onError: (error) => toast.error('Error', { description: errorMessage(error, 'The subscription could not be deleted.') }),
    });

  return (
    <li data-testid="subscription" data-subscription-id={s.id} className="grid min-w-0 gap-3 rounded-xl border bg-card p-4">
      <SubscriptionSummary subscription={s} showClient={showClient} />
      <div className="flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={onOpenLog} aria-label={`Delivery log of ${s.name}`}>
          <ListTree aria-hidden />
          Delivery Log
        </Button>
        <Button size="sm" variant="outline" onClick={sendTest} disabled={test.isPending} aria-label={`Send test event to ${s.name}`}>
          <Send aria-hidden />
          {test.isPending ? 'Sending...' : 'Send Test Event'}
        </Button>
        <Button size="sm" variant="outline" onClick={setStatus} disabled={update.isPending} aria-label={`${toggle.label} ${s.name}`}>
          {toggle.label === 'Pause' ? <Pause aria-hidden /> : <Play aria-hidden />}
          {toggle.label}
        </Button>
        <Button size="sm" variant="outline" onClick={onEdit} aria-label={`Edit ${s.name}`}>
          <Pencil aria-hidden />
          Edit
        </Button>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button size="sm" variant="outline" disabled={rotate.isPending} aria-label={`New signing secret for ${s.name}`}>
              <KeyRound aria-hidden />
              New Secret
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Replace the signing secret?</AlertDialogTitle>
              <AlertDialogDescription>
                Deliveries to “{s.name}” are signed with a new secret from now on; an endpoint still checking the old one refuses them until you give it the new
                one.
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction onClick={newSecret}>Replace Secret</AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button size="sm" variant="ghost" disabled={remove.isPending} aria-label={`Delete ${s.name}`}>
              <Trash2 aria-hidden />
              Delete
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>Delete this subscription?</AlertDialogTitle>
              <AlertDialogDescription>“{s.name}” stops receiving events. This cannot be undone.</AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction className={buttonVariants({ variant: 'destructive' })} onClick={confirmDelete}>
                Delete
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </div>
    </li>
  );
}
