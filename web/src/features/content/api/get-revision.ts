import { queryOptions, useQuery } from '@tanstack/react-query';
import { revisionDetail, type ContentSectionKey } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys, sectionPath } from './keys';

/** One revision with the content it stored. */
export function getRevision(section: ContentSectionKey, revisionId: string, signal?: AbortSignal) {
  return apiRequest(`${sectionPath(section)}/revisions/${encodeURIComponent(revisionId)}`, revisionDetail, { signal });
}

export function revisionQueryOptions(section: ContentSectionKey, revisionId: string) {
  return queryOptions({
    queryKey: contentKeys.revision(section, revisionId),
    queryFn: ({ signal }) => getRevision(section, revisionId, signal),
    // A revision never changes.
    staleTime: Infinity,
  });
}

export function useRevision(section: ContentSectionKey, revisionId: string | null) {
  return useQuery({ ...revisionQueryOptions(section, revisionId ?? ''), enabled: revisionId !== null });
}
