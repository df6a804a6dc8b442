import { ConversationsPage } from '@/features/conversations/components/conversations-page';
import { useCurrentUser } from '@/lib/session';

export default function ConversationsRoute() {
  return <ConversationsPage user={useCurrentUser()} />;
}
