import { queryOptions, useQuery } from '@tanstack/react-query';
import { dashboardStats } from '@common/api/dashboard';
import { apiRequest } from '@/lib/api-client';

export const dashboardStatsKey = ['dashboard', 'stats'] as const;

/** The four stat cards' figures: the last 7 days against the 7 before (GET /api/v1/dashboard/stats). */
export function getDashboardStats(signal?: AbortSignal) {
  return apiRequest('/api/v1/dashboard/stats', dashboardStats, { signal });
}

export function useDashboardStats() {
  // Rolling 7-day windows move slowly: read again after a minute, not on every message.
  return useQuery(queryOptions({ queryKey: dashboardStatsKey, queryFn: ({ signal }) => getDashboardStats(signal), staleTime: 60_000, refetchInterval: 5 * 60_000 }));
}
