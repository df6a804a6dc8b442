import type { ReactNode } from 'react';
import { coveredDaysLabel, dayLabel, formatAmount, monthLabel, type InvoiceView } from '@common/api/billing';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { InvoiceStatusBadge } from './invoice-status-badge';

function Balance({ invoice }: { invoice: InvoiceView }) {
  if (invoice.status === 'void') return <span className="text-muted-foreground">—</span>;
  return <span className="tabular-nums">{formatAmount(invoice.balanceMinor, invoice.currency)}</span>;
}

/**
 * Invoices as cards in a narrow box and as a table in a wide one (a container query: the box's
 * width, not the window's, so the sidebar counts). `actions` draws each invoice's buttons.
 */
export function InvoiceList({ invoices, showClient = false, actions }: { invoices: readonly InvoiceView[]; showClient?: boolean; actions: (invoice: InvoiceView) => ReactNode }) {
  return (
    <div className="@container min-w-0">
      <ul aria-label="Invoices" className="grid gap-3 @3xl:hidden">
        {invoices.map((invoice) => (
          <li key={invoice.id} className="grid min-w-0 gap-2 rounded-lg border p-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <span className="font-medium break-all">{invoice.number}</span>
              <InvoiceStatusBadge status={invoice.status} />
            </div>
            {showClient ? <p className="truncate text-sm font-medium">{invoice.clientName}</p> : null}
            <dl className="grid grid-cols-2 gap-x-3 gap-y-1 text-sm">
              <dt className="text-muted-foreground">Period</dt>
              <dd>{coveredDaysLabel(invoice.periodStart, invoice.periodEnd)}</dd>
              <dt className="text-muted-foreground">Amount</dt>
              <dd className="tabular-nums">{formatAmount(invoice.amountMinor, invoice.currency)}</dd>
              <dt className="text-muted-foreground">Balance</dt>
              <dd>
                <Balance invoice={invoice} />
              </dd>
              <dt className="text-muted-foreground">Due</dt>
              <dd>{dayLabel(invoice.dueOn)}</dd>
            </dl>
            <div className="flex flex-wrap gap-2">{actions(invoice)}</div>
          </li>
        ))}
      </ul>
      <div className="hidden @3xl:block">
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>Invoice</TableHead>
              {showClient ? <TableHead>Client</TableHead> : null}
              <TableHead>Period</TableHead>
              <TableHead className="text-right">Amount</TableHead>
              <TableHead className="text-right">Balance</TableHead>
              <TableHead>Due</TableHead>
              <TableHead>Status</TableHead>
              <TableHead>
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {invoices.map((invoice) => (
              <TableRow key={invoice.id}>
                <TableCell className="font-medium whitespace-nowrap">{invoice.number}</TableCell>
                {showClient ? <TableCell className="max-w-48 truncate">{invoice.clientName}</TableCell> : null}
                <TableCell className="whitespace-nowrap" title={monthLabel(invoice.period)}>
                  {coveredDaysLabel(invoice.periodStart, invoice.periodEnd)}
                </TableCell>
                <TableCell className="text-right tabular-nums">{formatAmount(invoice.amountMinor, invoice.currency)}</TableCell>
                <TableCell className="text-right">
                  <Balance invoice={invoice} />
                </TableCell>
                <TableCell className="whitespace-nowrap">{dayLabel(invoice.dueOn)}</TableCell>
                <TableCell>
                  <InvoiceStatusBadge status={invoice.status} />
                </TableCell>
                <TableCell>
                  <div className="flex justify-end gap-2">{actions(invoice)}</div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </div>
  );
}
