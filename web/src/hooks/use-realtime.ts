import { useEffect, useRef, useSyncExternalStore } from 'react';
import { realtimeClient, type RealtimeEvent, type RealtimeStatus } from '@/lib/realtime';

/** Listen to one realtime topic while mounted (null: not now). The handler may change freely. */
export function useRealtimeTopic(topic: string | null, handler: (event: RealtimeEvent) => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (topic === null) return undefined;
    return realtimeClient().subscribe(topic, (event) => ref.current(event));
  }, [topic]);
}

/** Run `handler` when the connection comes back after a drop (refetch what may have been missed). */
export function useRealtimeReconnect(handler: () => void): void {
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => realtimeClient().onReconnect(() => ref.current()), []);
}

/** Keep the tab's connection open while mounted (the signed-in layout: presence in chats). */
export function useRealtimeConnection(): void {
  useEffect(() => realtimeClient().hold(), []);
}

export function useRealtimeStatus(): RealtimeStatus {
  return useSyncExternalStore(
    (listener) => realtimeClient().onStatus(listener),
    () => realtimeClient().status,
    () => 'idle' as const,
  );
}
