import { AlertTriangle, Banknote, CalendarClock, CreditCard, ReceiptText } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ADMIN_BILLING_PAGE, dayLabel, INVOICE_DUE_DAYS, PAYMENT_METHOD, type SubscriptionSummary } from '@common/api/billing';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { LoadError } from '@/components/ui/load-error';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDate } from '@/lib/format';
import { useCurrentUser } from '@/lib/session';
import { useClientBilling } from '../api/get-client-billing';
import { DownloadInvoice } from './download-invoice';
import { InvoiceList } from './invoice-list';

function Fact({ icon: Icon, label, children }: { icon: typeof Banknote; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 items-start gap-3 rounded-lg border p-3">
      <Icon aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
      <div className="grid min-w-0 gap-0.5">
        <dt className="text-sm text-muted-foreground">{label}</dt>
        <dd className="font-medium break-words">{children}</dd>
      </div>
    </div>
  );
}

function NextPayment({ subscription }: { subscription: SubscriptionSummary }) {
  if (subscription.nextPaymentDate === null) return <>None: the business is deactivated and not invoiced</>;
  const date = dayLabel(subscription.nextPaymentDate);
  return subscription.pastDue ? (
    <span className="text-destructive">Overdue since {date}</span>
  ) : (
    <>{date}</>
  );
}

/**
 * The client dashboard's Billing tab (spec part 2 "Client dashboard"; docs/billing.md): the
 * current plan and its price, the next payment date, the payment method, and the invoices with
 * Download Invoice. Administrators manage plans and payments on /admin/billing.
 */
export function BillingTab({ clientId }: { clientId: string }) {
  const admin = useCurrentUser().role === 'admin';
  const billing = useClientBilling(clientId);
  const manage = `${ADMIN_BILLING_PAGE}?client=${encodeURIComponent(clientId)}`;

  if (billing.isPending) {
    return (
      <div className="grid gap-4" aria-busy="true">
        <Skeleton className="h-40" />
        <Skeleton className="h-48" />
      </div>
    );
  }
  if (billing.isError) {
    return <LoadError message={errorMessage(billing.error, 'The billing details could not be loaded.')} onRetry={() => void billing.refetch()} />;
  }

  const { subscription, invoices } = billing.data;
  return (
    <div className="grid min-w-0 gap-4">
      {subscription ? (
        <Card>
          <CardHeader className="flex flex-row flex-wrap items-start justify-between gap-2">
            <div className="grid gap-1.5">
              <CardTitle>Current plan</CardTitle>
              <CardDescription>Invoiced on the 1st of each month.</CardDescription>
            </div>
            {subscription.pastDue ? (
              <Badge variant="destructive">
                <AlertTriangle aria-hidden />
                Past Due
              </Badge>
            ) : null}
          </CardHeader>
          <CardContent className="grid gap-4">
            <dl className="grid gap-3 sm:grid-cols-2">
              <Fact icon={ReceiptText} label="Plan">
                {subscription.offerName} · {subscription.priceText}
              </Fact>
              <Fact icon={CalendarClock} label="Next payment">
                <NextPayment subscription={subscription} />
              </Fact>
              <Fact icon={Banknote} label="Payment method">
                {subscription.paymentMethod}
              </Fact>
              <Fact icon={CreditCard} label="Active since">
                {formatDate(subscription.activeSince)}
              </Fact>
            </dl>
            {subscription.pastDue ? (
              <p className="text-sm text-destructive" role="status">
                An invoice is overdue. Please pay it in cash to your Parley administrator; the subscription is no longer past due once the payment is recorded.
              </p>
            ) : null}
            {admin ? (
              <div>
                <Button asChild variant="outline" size="sm">
                  <Link to={manage}>Manage billing</Link>
                </Button>
              </div>
            ) : null}
          </CardContent>
        </Card>
      ) : (
        <EmptyState icon={ReceiptText} title="No subscription">
          <p>This business has no subscription, so Parley does not invoice it. Payment method: {PAYMENT_METHOD}.</p>
          {admin ? (
            <Button asChild size="sm" className="mt-3">
              <Link to={manage}>Start a plan</Link>
            </Button>
          ) : null}
        </EmptyState>
      )}

      <Card>
        <CardHeader>
          <CardTitle>Invoices</CardTitle>
          <CardDescription>Each month&apos;s invoice, due {INVOICE_DUE_DAYS} days after it is issued.</CardDescription>
        </CardHeader>
        <CardContent>
          {invoices.length === 0 ? (
            <p className="text-sm text-muted-foreground">No invoices yet.</p>
          ) : (
            <InvoiceList invoices={invoices} actions={(invoice) => <DownloadInvoice invoice={invoice} />} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
