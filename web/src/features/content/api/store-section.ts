import type { QueryClient } from '@tanstack/react-query';
import type { ContentSectionView, SavedSection } from '@common/api/content';
import { contentKeys } from './keys';

/**
 * Puts a saved, reset or restored section into the cached list, and refreshes its history and the
 * public view. Resetting the hero also brings back the default hero stats.
 */
export function storeSavedSection(queryClient: QueryClient, saved: SavedSection): void {
  const next = saved.section;
  queryClient.setQueryData<ContentSectionView[]>(contentKeys.sections(), (sections) =>
    sections ? sections.map((s) => (s.section === next.section ? next : s)) : sections,
  );
  void queryClient.invalidateQueries({ queryKey: contentKeys.revisions(next.section) });
  void queryClient.invalidateQueries({ queryKey: contentKeys.public() });
  if (next.section === 'hero') void queryClient.invalidateQueries({ queryKey: contentKeys.heroStats() });
}
