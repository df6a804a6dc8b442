import { useQuery } from '@tanstack/react-query';
import { findMessagesQueryOptions } from './find-messages';

/**
 * Unread customer messages, for the manager's Messages badge. A list query under the messages
 * keys, so live events and reads refresh it like every other list.
 */
export function useUnreadMessageCount(enabled: boolean) {
  return useQuery({
    ...findMessagesQueryOptions({ filter: 'unread', limit: 1 }),
    select: (data) => data.unreadCount,
    enabled,
  });
}
