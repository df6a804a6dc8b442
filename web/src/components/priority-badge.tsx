import type { Priority } from '@common/api/conversations';
import { Badge } from '@/components/ui/badge';
import { PRIORITY_LABEL } from '@/lib/messaging-format';

const VARIANT = { high: 'destructive', medium: 'warning', low: 'secondary' } as const;

export function PriorityBadge({ priority }: { priority: Priority }) {
  return (
    <Badge variant={VARIANT[priority]}>
      {PRIORITY_LABEL[priority]}
    </Badge>
  );
}
