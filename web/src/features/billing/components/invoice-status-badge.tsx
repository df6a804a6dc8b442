import { INVOICE_STATUS_LABELS, type InvoiceStatus } from '@common/api/billing';
import { Badge } from '@/components/ui/badge';

const VARIANT: Record<InvoiceStatus, 'outline' | 'destructive' | 'success' | 'secondary'> = {
  open: 'outline',
  overdue: 'destructive',
  paid: 'success',
  void: 'secondary',
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return <Badge variant={VARIANT[status]}>{INVOICE_STATUS_LABELS[status]}</Badge>;
}
