import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { retainLiveSync } from '@/lib/live-messaging';

/** Keep conversations, threads and messages live while mounted (realtime topic "inbox"). */
export function useLiveInbox(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => (enabled ? retainLiveSync('inbox', queryClient) : undefined), [enabled, queryClient]);
}

/** Keep the user's internal chats live while mounted (realtime topic "chats"). */
export function useLiveChats(enabled = true): void {
  const queryClient = useQueryClient();
  useEffect(() => (enabled ? retainLiveSync('chats', queryClient) : undefined), [enabled, queryClient]);
}
