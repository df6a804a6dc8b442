import { Download, Mail } from 'lucide-react';
import { NEWSLETTER_STATUSES } from '@common/api/contact';
import { Badge } from '@/components/ui/badge';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format';
import { useNewsletterSubscribers } from '../api/find-newsletter-subscribers';
import { NEWSLETTER_CSV_PATH } from '../api/keys';

type Status = (typeof NEWSLETTER_STATUSES)[number];

export const NEWSLETTER_STATUS_LABELS: Record<Status, string> = {
  pending: 'Pending confirmation',
  subscribed: 'Subscribed',
  unsubscribed: 'Unsubscribed',
};

function StatusBadge({ status }: { status: Status }) {
  const variant = status === 'subscribed' ? 'success' : status === 'pending' ? 'warning' : 'secondary';
  return <Badge variant={variant}>{NEWSLETTER_STATUS_LABELS[status]}</Badge>;
}

/** The newsletter's subscribers (double opt-in) with a count per status, and the CSV export. */
export function NewsletterSubscribers() {
  const subscribers = useNewsletterSubscribers();
  return (
    <section aria-labelledby="newsletter-title" className="min-w-0">
      <Card className="gap-4">
        <CardHeader>
          <div className="flex flex-wrap items-center justify-between gap-2">
            <h2 id="newsletter-title" className="text-lg leading-none font-semibold">
              Newsletter subscribers
            </h2>
            <a href={NEWSLETTER_CSV_PATH} download className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              <Download aria-hidden />
              Export CSV
            </a>
          </div>
          <CardDescription>People who subscribed in the Blog page&apos;s newsletter box. An address counts as subscribed once its owner confirmed it by e-mail.</CardDescription>
        </CardHeader>
        <CardContent className="grid min-w-0 gap-4">
          {subscribers.isPending ? (
            <Skeleton className="h-40" />
          ) : subscribers.isError ? (
            <LoadError message={errorMessage(subscribers.error, 'The subscribers could not be loaded.')} onRetry={() => void subscribers.refetch()} />
          ) : (
            <>
              <dl className="grid grid-cols-1 gap-2 sm:grid-cols-3" aria-label="Subscriber counts">
                {NEWSLETTER_STATUSES.map((status) => (
                  <div key={status} className="rounded-lg border p-3">
                    <dt className="text-xs text-muted-foreground">{NEWSLETTER_STATUS_LABELS[status]}</dt>
                    <dd className="text-2xl font-semibold" data-testid={`newsletter-${status}`}>
                      {subscribers.data.counts[status]}
                    </dd>
                  </div>
                ))}
              </dl>
              {subscribers.data.subscribers.length === 0 ? (
                <EmptyState icon={Mail} title="No subscribers yet" />
              ) : (
                <ul aria-label="Newsletter subscribers" className="grid min-w-0 gap-2">
                  {subscribers.data.subscribers.map((subscriber) => (
                    <li key={subscriber.id} className="flex min-w-0 flex-wrap items-center justify-between gap-2 rounded-lg border p-3">
                      <div className="grid min-w-0 gap-0.5">
                        <span className="text-sm break-all">{subscriber.email}</span>
                        <span className="text-xs text-muted-foreground">
                          Signed up {formatDateTime(subscriber.createdAt)}
                          {subscriber.confirmedAt ? ` · confirmed ${formatDateTime(subscriber.confirmedAt)}` : ''}
                          {subscriber.unsubscribedAt ? ` · unsubscribed ${formatDateTime(subscriber.unsubscribedAt)}` : ''}
                        </span>
                      </div>
                      <StatusBadge status={subscriber.status} />
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </CardContent>
      </Card>
    </section>
  );
}
