import { useMutation, useQueryClient } from '@tanstack/react-query';
import { savedSection, type ContentSectionKey, type SavedSection } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { sectionPath } from './keys';
import { storeSavedSection } from './store-section';

/** Makes an earlier revision's content current again (a new revision of kind 'restore'); 409 on a stale `version`. */
export function restoreRevision({ section, revisionId, version }: { section: ContentSectionKey; revisionId: string; version: number }): Promise<SavedSection> {
  return apiRequest(`${sectionPath(section)}/revisions/${encodeURIComponent(revisionId)}/restore`, savedSection, { method: 'POST', body: { version } });
}

export function useRestoreRevision() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreRevision,
    retry: false,
    onSuccess: (saved) => storeSavedSection(queryClient, saved),
  });
}
