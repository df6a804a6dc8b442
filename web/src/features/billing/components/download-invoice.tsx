import { Download } from 'lucide-react';
import type { InvoiceView } from '@common/api/billing';
import { Button } from '@/components/ui/button';
import { invoicePdfPath } from '../api/keys';

/** Download Invoice: a plain link to the PDF, which the server answers as an attachment. */
export function DownloadInvoice({ invoice }: { invoice: Pick<InvoiceView, 'id' | 'number'> }) {
  return (
    <Button asChild variant="outline" size="sm">
      <a href={invoicePdfPath(invoice.id)} download={`${invoice.number}.pdf`}>
        <Download aria-hidden />
        Download Invoice<span className="sr-only"> {invoice.number}</span>
      </a>
    </Button>
  );
}
