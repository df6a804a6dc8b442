import type { ConversationStatus } from '@common/api/conversations';
import { Badge } from '@/components/ui/badge';
import { STATUS_LABEL } from '@/lib/messaging-format';

const VARIANT = { active: 'success', pending: 'warning', escalated: 'destructive', resolved: 'secondary' } as const;

export function StatusBadge({ status }: { status: ConversationStatus }) {
  return <Badge variant={VARIANT[status]}>{STATUS_LABEL[status]}</Badge>;
}
