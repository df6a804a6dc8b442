import { ChatManagement } from '@/features/chats/components/chat-management';
import { useCurrentUser } from '@/lib/session';

export default function AdminConversationsRoute() {
  return <ChatManagement userId={useCurrentUser().id} />;
}
