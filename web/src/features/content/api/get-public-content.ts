import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicContent, type PublicContent } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { contentKeys } from './keys';

/** What the public pages show now (the Features editor says each integration's current status). */
export function getPublicContent(signal?: AbortSignal): Promise<PublicContent> {
  return apiRequest('/api/v1/public/content', publicContent, { signal });
}

export function publicContentQueryOptions() {
  return queryOptions({ queryKey: contentKeys.public(), queryFn: ({ signal }) => getPublicContent(signal) });
}

export function usePublicContent() {
  return useQuery(publicContentQueryOptions());
}
