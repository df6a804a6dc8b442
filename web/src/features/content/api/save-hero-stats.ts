import { useMutation, useQueryClient } from '@tanstack/react-query';
import { heroStatsResponse, type HeroStat } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys } from './keys';
import { storeHeroStats } from './store-hero-stats';

export interface HeroStatRow {
  id?: string | undefined;
  number: string;
  label: string;
  isActive: boolean;
}

/** Saves the whole list in display order ('Stats Updated'); stats left out are removed. */
export function saveHeroStats(stats: readonly HeroStatRow[]): Promise<HeroStat[]> {
  return apiRequest('/api/v1/content/hero-stats', heroStatsResponse, { method: 'PUT', body: { stats } }).then((r) => r.stats);
}

export function useSaveHeroStats() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveHeroStats,
    retry: false,
    onSuccess: (stats) => storeHeroStats(queryClient, stats),
    onError: () => void queryClient.invalidateQueries({ queryKey: contentKeys.heroStats() }),
  });
}
