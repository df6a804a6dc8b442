import { zodResolver } from '@hookform/resolvers/zod';
import { Banknote } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { amountInputText, dayLabel, formatAmount, type InvoiceView } from '@common/api/billing';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useInvoice } from '../api/get-invoice';
import { useRecordPayment } from '../api/record-payment';
import { localToday, PAYMENT_FIELD, paymentForm, toPaymentInput, type PaymentForm } from '../lib/payment-form';

function PaymentsSoFar({ invoiceId }: { invoiceId: string }) {
  const detail = useInvoice(invoiceId);
  const payments = detail.data?.payments ?? [];
  if (payments.length === 0) return null;
  return (
    <div className="grid gap-1 rounded-lg bg-muted/50 p-3 text-sm">
      <p className="font-medium">Payments recorded</p>
      <ul className="grid gap-1">
        {payments.map((payment) => (
          <li key={payment.id} className="break-words">
            {dayLabel(payment.paidOn)}: {formatAmount(payment.amountMinor, payment.currency)}
            {payment.note ? ` — ${payment.note}` : ''}
            {payment.recordedBy ? <span className="text-muted-foreground"> (by {payment.recordedBy.name})</span> : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function PaymentFormBody({ invoice, onDone }: { invoice: InvoiceView; onDone: () => void }) {
  const record = useRecordPayment();
  const form = useForm<PaymentForm, unknown, z.output<typeof paymentForm>>({
    resolver: zodResolver(paymentForm),
    defaultValues: { amount: amountInputText(invoice.balanceMinor), paidOn: localToday(), note: '' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit((values) => {
    record.mutate(
      { invoiceId: invoice.id, ...toPaymentInput(values) },
      {
        onSuccess: ({ invoice: updated }) => {
          toast.success('Payment Recorded', {
            description:
              updated.status === 'paid'
                ? `${updated.number} is paid.`
                : `${formatAmount(updated.balanceMinor, updated.currency)} of ${updated.number} is still due.`,
          });
          onDone();
        },
        onError: (error) => {
          if (isApiError(error) && error.fields) {
            for (const [field, message] of Object.entries(error.fields)) {
              const name = PAYMENT_FIELD[field];
              if (name) form.setError(name, { type: 'server', message });
            }
          }
          toast.error('Error', { description: errorMessage(error, 'The payment could not be recorded. Please try again.') });
        },
      },
    );
  });

  return (
    <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
      <PaymentsSoFar invoiceId={invoice.id} />
      <FormField id="payment-amount" label={`Amount received (${invoice.currency})`} error={errors.amount?.message} description={`Balance: ${formatAmount(invoice.balanceMinor, invoice.currency)}`}>
        <Input {...fieldA11y('payment-amount', errors.amount?.message, true)} inputMode="decimal" autoComplete="off" {...form.register('amount')} />
      </FormField>
      <FormField id="payment-date" label="Received on" error={errors.paidOn?.message}>
        <Input {...fieldA11y('payment-date', errors.paidOn?.message)} type="date" max={localToday()} {...form.register('paidOn')} />
      </FormField>
      <FormField id="payment-note" label="Note (optional)" error={errors.note?.message}>
        <Textarea {...fieldA11y('payment-note', errors.note?.message)} rows={2} placeholder="Receipt number, who paid…" {...form.register('note')} />
      </FormField>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" disabled={record.isPending}>
          {record.isPending ? 'Recording…' : 'Record payment'}
        </Button>
      </DialogFooter>
    </form>
  );
}

/** Record payment (admins): cash received for an invoice, at most its balance. */
export function RecordPaymentDialog({ invoice }: { invoice: InvoiceView }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm">
          <Banknote aria-hidden />
          Record payment<span className="sr-only"> for {invoice.number}</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Record a cash payment</DialogTitle>
          <DialogDescription>
            {invoice.number} · {invoice.clientName} · {formatAmount(invoice.amountMinor, invoice.currency)}. Paying the whole balance marks it paid.
          </DialogDescription>
        </DialogHeader>
        {open ? <PaymentFormBody invoice={invoice} onDone={() => setOpen(false)} /> : null}
      </DialogContent>
    </Dialog>
  );
}
