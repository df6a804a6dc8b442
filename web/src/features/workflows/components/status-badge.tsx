import type { WorkflowStatus } from '@common/api/workflows';
import { Badge } from '@/components/ui/badge';
import { STATUS_BADGE, STATUS_LABEL } from '../lib/status';

export function StatusBadge({ status }: { status: WorkflowStatus }) {
  return <Badge variant={STATUS_BADGE[status]}>{STATUS_LABEL[status]}</Badge>;
}
