import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useRealtimeReconnect, useRealtimeTopic } from '@/hooks/use-realtime';

/** How long a burst of conversation and message events is gathered before the figures reload. */
export const LIVE_RELOAD_DELAY_MS = 1_000;
/**
 * One more reload this long after the last event: the server recomputes a conversation's service
 * levels in the background about a second after it changes (server/modules/insights,
 * BATCH_DELAY_MS), so the first reload may come just before the new figures exist.
 */
export const LIVE_SETTLE_MS = 3_500;

/**
 * Reloads the figures under `queryKeys` (insights, AI Summary) while the page is open whenever a
 * conversation or message the user may see changes (realtime topic "inbox": conversation.* and message.*; spec part 1 §4) — at most once a
 * second however busy the inbox is, and once more when it goes quiet — and after the connection
 * comes back from a drop.
 */
export function useLiveFigures(queryKeys: readonly QueryKey[]): void {
  const queryClient = useQueryClient();
  const burst = useRef<ReturnType<typeof setTimeout> | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout> | null>(null);
  const reload = () => {
    for (const queryKey of queryKeys) void queryClient.invalidateQueries({ queryKey });
  };

  useEffect(
    () => () => {
      if (burst.current !== null) clearTimeout(burst.current);
      if (settle.current !== null) clearTimeout(settle.current);
    },
    [],
  );

  useRealtimeTopic('inbox', (event) => {
    if (!event.event.startsWith('conversation.') && !event.event.startsWith('message.')) return;
    burst.current ??= setTimeout(() => {
      burst.current = null;
      reload();
    }, LIVE_RELOAD_DELAY_MS);
    if (settle.current !== null) clearTimeout(settle.current);
    settle.current = setTimeout(() => {
      settle.current = null;
      reload();
    }, LIVE_SETTLE_MS);
  });
  useRealtimeReconnect(reload);
}
