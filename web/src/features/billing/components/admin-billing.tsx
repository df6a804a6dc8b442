import { ReceiptText, RefreshCw } from 'lucide-react';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { INVOICE_DUE_DAYS, INVOICE_STATUS_LABELS, INVOICE_STATUSES, monthLabel, type InvoiceStatus } from '@common/api/billing';
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
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { EmptyState } from '@/components/ui/empty-state';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { useClientList } from '@/lib/api/clients';
import { useInvoices } from '../api/find-invoices';
import { useGenerateInvoices } from '../api/generate-invoices';
import { ClientPlan } from './client-plan';
import { DownloadInvoice } from './download-invoice';
import { MarkPaidButton, VoidInvoiceDialog } from './invoice-actions';
import { InvoiceList } from './invoice-list';
import { RecordPaymentDialog } from './record-payment-dialog';

const ALL = 'all';
const isStatus = (value: string | null): value is InvoiceStatus => value !== null && (INVOICE_STATUSES as readonly string[]).includes(value);
const currentMonth = () => new Date().toISOString().slice(0, 7);

function GenerateInvoicesButton() {
  const generate = useGenerateInvoices();
  const month = monthLabel(currentMonth());
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button disabled={generate.isPending}>
          <RefreshCw aria-hidden className={generate.isPending ? 'animate-spin' : undefined} />
          {generate.isPending ? 'Generating…' : "Generate this month's invoices now"}
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Generate the invoices of {month} now?</AlertDialogTitle>
          <AlertDialogDescription>
            Every active client with a subscription that has no invoice for {month} gets one, issued today and due in {INVOICE_DUE_DAYS} days. Clients already invoiced this month are left as they are; the
            daily run at 00:05 UTC does the same.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() =>
              generate.mutate(undefined, {
                onSuccess: (run) =>
                  toast.success('Invoices Generated', {
                    description:
                      run.created === 0
                        ? `Every active subscription already has its ${monthLabel(run.period)} invoice.`
                        : `${run.created} new invoice${run.created === 1 ? '' : 's'} for ${monthLabel(run.period)} (${run.invoiced} in all).`,
                  }),
                onError: (error) => toast.error('Error', { description: errorMessage(error, 'The invoices could not be generated. Please try again.') }),
              })
            }
          >
            Generate
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/**
 * /admin/billing (admins; docs/billing.md): every invoice, filtered by status and client, with
 * Record payment, Mark paid, Void and Download Invoice; the chosen client's plan (start or
 * change); "Generate this month's invoices now".
 */
export function AdminBilling() {
  const [params, setParams] = useSearchParams();
  const requestedStatus = params.get('status');
  const status = isStatus(requestedStatus) ? requestedStatus : undefined;
  const clientId = params.get('client') ?? undefined;
  const clients = useClientList();
  const client = useMemo(() => clients.data?.find((c) => c.id === clientId), [clients.data, clientId]);
  const invoices = useInvoices({ status, clientId });
  const rows = invoices.data?.pages.flatMap((page) => page.invoices) ?? [];

  const setFilter = (key: 'status' | 'client', value: string) => {
    const next = new URLSearchParams(params);
    if (value === ALL) next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true });
  };

  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-prose text-sm text-muted-foreground">
          Clients pay in cash: record each payment here. Invoices are issued on the 1st of each month and fall overdue {INVOICE_DUE_DAYS} days later; their clients are then past due until paid.
        </p>
        <GenerateInvoicesButton />
      </div>

      <div className="grid gap-3 sm:grid-cols-2 sm:max-w-2xl">
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="billing-status">Status</Label>
          <Select value={status ?? ALL} onValueChange={(value) => setFilter('status', value)}>
            <SelectTrigger id="billing-status" className="w-full">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All statuses</SelectItem>
              {INVOICE_STATUSES.map((s) => (
                <SelectItem key={s} value={s}>
                  {INVOICE_STATUS_LABELS[s]}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
        <div className="grid min-w-0 gap-1.5">
          <Label htmlFor="billing-client">Client</Label>
          <Select value={clientId ?? ALL} onValueChange={(value) => setFilter('client', value)} disabled={!clients.data}>
            <SelectTrigger id="billing-client" className="w-full">
              <SelectValue placeholder={clients.isPending ? 'Loading clients…' : 'All clients'} />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>All clients</SelectItem>
              {(clients.data ?? []).map((c) => (
                <SelectItem key={c.id} value={c.id}>
                  {c.companyName}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          {clients.isError ? <p className="text-sm text-destructive">{errorMessage(clients.error, 'The clients could not be loaded.')}</p> : null}
        </div>
      </div>

      {clientId && client ? <ClientPlan key={clientId} clientId={clientId} clientName={client.companyName} /> : null}
      {!clientId ? <p className="text-sm text-muted-foreground">Choose a client to start or change its plan.</p> : null}

      <Card>
        <CardHeader>
          <CardTitle>Invoices</CardTitle>
          <CardDescription>Newest first{status ? `, ${INVOICE_STATUS_LABELS[status].toLowerCase()} only` : ''}{client ? `, of ${client.companyName}` : ''}.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {invoices.isPending ? (
            <div className="grid gap-2" aria-busy="true">
              <Skeleton className="h-16" />
              <Skeleton className="h-16" />
            </div>
          ) : invoices.isError ? (
            <div className="grid justify-items-start gap-2 text-sm">
              <p className="text-destructive">{errorMessage(invoices.error, 'The invoices could not be loaded.')}</p>
              <Button variant="outline" size="sm" onClick={() => void invoices.refetch()}>
                Try Again
              </Button>
            </div>
          ) : rows.length === 0 ? (
            <EmptyState icon={ReceiptText} title="No invoices">
              {status || clientId ? 'No invoice matches these filters.' : 'Invoices appear here once clients have a plan.'}
            </EmptyState>
          ) : (
            <>
              <InvoiceList
                invoices={rows}
                showClient
                actions={(invoice) => (
                  <>
                    <DownloadInvoice invoice={invoice} />
                    {invoice.status === 'open' || invoice.status === 'overdue' ? (
                      <>
                        <RecordPaymentDialog invoice={invoice} />
                        <MarkPaidButton invoice={invoice} />
                        {invoice.paidMinor === 0 ? <VoidInvoiceDialog invoice={invoice} /> : null}
                      </>
                    ) : null}
                  </>
                )}
              />
              {invoices.hasNextPage ? (
                <Button variant="outline" className="justify-self-center" onClick={() => void invoices.fetchNextPage()} disabled={invoices.isFetchingNextPage}>
                  {invoices.isFetchingNextPage ? 'Loading…' : 'Load more'}
                </Button>
              ) : null}
            </>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
