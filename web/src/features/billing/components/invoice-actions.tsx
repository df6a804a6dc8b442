import { zodResolver } from '@hookform/resolvers/zod';
import { Ban, CheckCircle2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { formatAmount, voidInvoiceInput, type InvoiceView } from '@common/api/billing';
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
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { fieldA11y, FormField } from '@/components/ui/form-field';
import { Textarea } from '@/components/ui/textarea';
import { errorMessage, isApiError } from '@/lib/api-client';
import { useMarkPaid } from '../api/record-payment';
import { useVoidInvoice } from '../api/void-invoice';
import { localToday } from '../lib/payment-form';

/** Mark paid (admins): a cash payment of the whole balance, received today. */
export function MarkPaidButton({ invoice }: { invoice: InvoiceView }) {
  const markPaid = useMarkPaid();
  const balance = formatAmount(invoice.balanceMinor, invoice.currency);
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="outline" disabled={markPaid.isPending}>
          <CheckCircle2 aria-hidden />
          Mark paid<span className="sr-only"> {invoice.number}</span>
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Mark {invoice.number} paid?</AlertDialogTitle>
          <AlertDialogDescription>
            This records a cash payment of {balance} from {invoice.clientName}, received today. To record a different amount or day, use Record payment.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction
            onClick={() =>
              markPaid.mutate(
                { invoiceId: invoice.id, paidOn: localToday() },
                {
                  onSuccess: ({ invoice: updated }) => toast.success('Invoice Paid', { description: `${updated.number} is paid (${balance} recorded).` }),
                  onError: (error) => toast.error('Error', { description: errorMessage(error, 'The invoice could not be marked paid. Please try again.') }),
                },
              )
            }
          >
            Mark paid
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

type VoidForm = z.input<typeof voidInvoiceInput>;

/** Void (admins): an invoice issued by mistake, with a reason; it keeps its number. */
export function VoidInvoiceDialog({ invoice }: { invoice: InvoiceView }) {
  const [open, setOpen] = useState(false);
  const voidInvoice = useVoidInvoice();
  const form = useForm<VoidForm, unknown, z.output<typeof voidInvoiceInput>>({ resolver: zodResolver(voidInvoiceInput), defaultValues: { reason: '' } });
  const error = form.formState.errors.reason?.message;
  const submit = form.handleSubmit((values) => {
    voidInvoice.mutate(
      { invoiceId: invoice.id, ...values },
      {
        onSuccess: () => {
          toast.success('Invoice Voided', { description: `${invoice.number} is void: it is no longer owed.` });
          setOpen(false);
          form.reset();
        },
        onError: (failure) => {
          const message = isApiError(failure) ? failure.fields?.['reason'] : undefined;
          if (message) form.setError('reason', { type: 'server', message });
          toast.error('Error', { description: errorMessage(failure, 'The invoice could not be voided. Please try again.') });
        },
      },
    );
  });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button size="sm" variant="ghost">
          <Ban aria-hidden />
          Void<span className="sr-only"> {invoice.number}</span>
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Void {invoice.number}?</DialogTitle>
          <DialogDescription>
            For an invoice issued by mistake: {invoice.clientName} no longer owes it. It keeps its number, so the numbering has no gap. An invoice with a payment cannot be voided.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={(event) => void submit(event)} className="grid gap-4" noValidate>
          <FormField id={`void-reason-${invoice.id}`} label="Reason" error={error}>
            <Textarea {...fieldA11y(`void-reason-${invoice.id}`, error)} rows={2} {...form.register('reason')} />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" variant="destructive" disabled={voidInvoice.isPending}>
              {voidInvoice.isPending ? 'Voiding…' : 'Void invoice'}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
