import { Outbox } from '@/features/outbox/components/outbox';

export default function AdminOutboxRoute() {
  return <Outbox />;
}
