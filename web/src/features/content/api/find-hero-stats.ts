import { queryOptions, useQuery } from '@tanstack/react-query';
import { heroStatsResponse, type HeroStat } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys } from './keys';

/** Every hero stat, hidden ones too, in display order. */
export function findHeroStats(signal?: AbortSignal): Promise<HeroStat[]> {
  return apiRequest('/api/v1/content/hero-stats', heroStatsResponse, { signal }).then((r) => r.stats);
}

export function heroStatsQueryOptions() {
  return queryOptions({ queryKey: contentKeys.heroStats(), queryFn: ({ signal }) => findHeroStats(signal) });
}

export function useHeroStats() {
  return useQuery(heroStatsQueryOptions());
}
