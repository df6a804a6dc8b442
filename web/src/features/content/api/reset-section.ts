import { useMutation, useQueryClient } from '@tanstack/react-query';
import { savedSection, type ContentSectionKey, type SavedSection } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { sectionPath } from './keys';
import { storeSavedSection } from './store-section';

/** Brings back the section's defaults (kept as a revision); 409 when someone saved since `version`. */
export function resetSection({ section, version }: { section: ContentSectionKey; version: number }): Promise<SavedSection> {
  return apiRequest(`${sectionPath(section)}/reset`, savedSection, { method: 'POST', body: { version } });
}

export function useResetSection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetSection,
    retry: false,
    onSuccess: (saved) => storeSavedSection(queryClient, saved),
  });
}
