import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { contactMessage, type contactMessagesResponse } from '@common/api/contact';
import { useRealtimeReconnect, useRealtimeTopic } from '@/hooks/use-realtime';
import { contactMessageKeys } from './keys';

type ContactMessages = z.infer<typeof contactMessagesResponse>;

/**
 * Keeps the contact messages live while the Messages editor is open: a new message arrives on the
 * realtime topic "contact-messages" (`contact_message.created`, admins only) and goes on top of the
 * list at once; the list is then refetched for the server's order and unread count, as it is after a
 * reconnection. The list also refreshes every 5 seconds (the spec's interval), so it stays live
 * even without the WebSocket.
 */
export function useLiveContactMessages(): void {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: contactMessageKeys.list() });
  useRealtimeTopic('contact-messages', (event) => {
    if (event.event !== 'contact_message.created') return;
    const parsed = contactMessage.safeParse(event.data);
    if (parsed.success) {
      const message = parsed.data;
      queryClient.setQueryData<ContactMessages>(contactMessageKeys.list(), (list) =>
        !list || list.messages.some((m) => m.id === message.id)
          ? list
          : { messages: [message, ...list.messages], unreadCount: list.unreadCount + (message.read ? 0 : 1) },
      );
    }
    refresh();
  });
  useRealtimeReconnect(refresh);
}
