import type { QueryClient } from '@tanstack/react-query';
import type { HeroStat } from '@common/api/content';
import { contentKeys } from './keys';

/** Every hero-stat call answers with the whole list: it replaces the cached one. */
export function storeHeroStats(queryClient: QueryClient, stats: HeroStat[]): void {
  queryClient.setQueryData(contentKeys.heroStats(), stats);
  void queryClient.invalidateQueries({ queryKey: contentKeys.public() });
}
