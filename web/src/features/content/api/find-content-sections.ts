import { queryOptions, useQuery } from '@tanstack/react-query';
import { contentSectionsResponse, type ContentSectionKey, type ContentSectionView } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys } from './keys';

/** Every section's document with its version (the defaults, version 0, until first saved). */
export function findContentSections(signal?: AbortSignal): Promise<ContentSectionView[]> {
  return apiRequest('/api/v1/content', contentSectionsResponse, { signal }).then((r) => r.sections);
}

export function contentSectionsQueryOptions() {
  return queryOptions({ queryKey: contentKeys.sections(), queryFn: ({ signal }) => findContentSections(signal) });
}

export function useContentSections() {
  return useQuery(contentSectionsQueryOptions());
}

/** One section of the list (undefined while loading or when the server did not send it). */
export function useContentSection(section: ContentSectionKey) {
  return useQuery({ ...contentSectionsQueryOptions(), select: (sections) => sections.find((s) => s.section === section) });
}
