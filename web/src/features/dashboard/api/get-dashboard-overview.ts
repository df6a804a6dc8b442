import { queryOptions, useQuery } from '@tanstack/react-query';
import { findClients } from '@/lib/api/clients';
import { findConversationsResponse, type ConversationView } from '@common/api/conversations';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys } from '@/lib/messaging-keys';

/** How many recent conversations the average response time is taken over. */
export const RESPONSE_TIME_SAMPLE = 200;
export const ACTIVE_LIST_SIZE = 5;

export interface DashboardOverview {
  counts: { all: number; open: number; active: number; human: number };
  /** Mean first response time in seconds over `responseSample` answered conversations; null if none. */
  avgResponseSeconds: number | null;
  responseSample: number;
  /** Active clients; null when the user cannot see the client list (client users). */
  activeClients: number | null;
  totalClients: number | null;
  active: ConversationView[];
}

export function averageResponseSeconds(conversations: readonly Pick<ConversationView, 'responseTimeSeconds'>[]): {
  seconds: number | null;
  sample: number;
} {
  const times = conversations.map((c) => c.responseTimeSeconds).filter((t): t is number => t !== null && Number.isFinite(t));
  if (times.length === 0) return { seconds: null, sample: 0 };
  return { seconds: times.reduce((a, b) => a + b, 0) / times.length, sample: times.length };
}

export async function getDashboardOverview(withClients: boolean, signal?: AbortSignal): Promise<DashboardOverview> {
  const [recent, active, clients] = await Promise.all([
    apiRequest('/api/v1/conversations', findConversationsResponse, { query: { tab: 'all', limit: RESPONSE_TIME_SAMPLE }, signal }),
    apiRequest('/api/v1/conversations', findConversationsResponse, { query: { tab: 'active', limit: ACTIVE_LIST_SIZE }, signal }),
    withClients ? findClients(signal) : Promise.resolve(null),
  ]);
  const { counts } = recent;
  const average = averageResponseSeconds(recent.conversations);
  return {
    counts: { all: counts.all, open: counts.active + counts.pending + counts.escalated, active: counts.active, human: counts.human },
    avgResponseSeconds: average.seconds,
    responseSample: average.sample,
    activeClients: clients ? clients.filter((c) => c.status === 'active').length : null,
    totalClients: clients ? clients.length : null,
    active: active.conversations,
  };
}

export function useDashboardOverview(withClients: boolean) {
  return useQuery(
    queryOptions({
      // Under the conversations key: live events refresh it (lib/live-messaging.ts).
      queryKey: [...conversationKeys.overview(), { withClients }],
      queryFn: ({ signal }) => getDashboardOverview(withClients, signal),
      staleTime: 0,
    }),
  );
}
