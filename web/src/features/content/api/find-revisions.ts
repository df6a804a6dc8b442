import { queryOptions, useQuery } from '@tanstack/react-query';
import { revisionsResponse, type ContentSectionKey } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys, sectionPath } from './keys';

/** The section's revisions, newest first. */
export function findRevisions(section: ContentSectionKey, signal?: AbortSignal) {
  return apiRequest(`${sectionPath(section)}/revisions`, revisionsResponse, { signal }).then((r) => r.revisions);
}

export function revisionsQueryOptions(section: ContentSectionKey) {
  return queryOptions({ queryKey: contentKeys.revisions(section), queryFn: ({ signal }) => findRevisions(section, signal) });
}

export function useRevisions(section: ContentSectionKey, enabled = true) {
  return useQuery({ ...revisionsQueryOptions(section), enabled });
}
