import { useMutation, useQueryClient } from '@tanstack/react-query';
import { savedSection, type ContentSectionKey, type SavedSection } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { storeSavedSection } from './store-section';
import { sectionPath } from './keys';

/** Saves a section on top of `version` (the one the editor was opened with): a newer stored version answers 409. */
export function saveSection({ section, version, data }: { section: ContentSectionKey; version: number; data: unknown }): Promise<SavedSection> {
  return apiRequest(sectionPath(section), savedSection, { method: 'PUT', body: { version, data } });
}

export function useSaveSection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveSection,
    retry: false,
    onSuccess: (saved) => storeSavedSection(queryClient, saved),
  });
}
