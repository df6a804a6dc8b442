import { useMutation, useQueryClient } from '@tanstack/react-query';
import { heroStatsResponse, type HeroStat } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys, heroStatPath } from './keys';
import { storeHeroStats } from './store-hero-stats';

/** Moves one stat to `newPosition` (0-based, in the full list) — reorder_hero_stats(stat_id, new_position). */
export function reorderHeroStat({ id, newPosition }: { id: string; newPosition: number }): Promise<HeroStat[]> {
  return apiRequest(`${heroStatPath(id)}/reorder`, heroStatsResponse, { method: 'POST', body: { newPosition } }).then((r) => r.stats);
}

export function useReorderHeroStat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderHeroStat,
    retry: false,
    onSuccess: (stats) => storeHeroStats(queryClient, stats),
    onError: () => void queryClient.invalidateQueries({ queryKey: contentKeys.heroStats() }),
  });
}
