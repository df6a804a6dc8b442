import { useMutation, useQueryClient } from '@tanstack/react-query';
import { heroStatsResponse, type HeroStat } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys, heroStatPath } from './keys';
import { storeHeroStats } from './store-hero-stats';

/** Shows or hides one stat on the landing page ('Stat Shown' / 'Stat Hidden'). */
export function toggleHeroStat({ id, isActive }: { id: string; isActive: boolean }): Promise<HeroStat[]> {
  return apiRequest(heroStatPath(id), heroStatsResponse, { method: 'PATCH', body: { isActive } }).then((r) => r.stats);
}

export function useToggleHeroStat() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: toggleHeroStat,
    retry: false,
    onSuccess: (stats) => storeHeroStats(queryClient, stats),
    onError: () => void queryClient.invalidateQueries({ queryKey: contentKeys.heroStats() }),
  });
}
