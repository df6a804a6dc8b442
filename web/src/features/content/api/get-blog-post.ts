import { queryOptions, useQuery } from '@tanstack/react-query';
import { blogPostDetail, type BlogPostDetail } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { blogPostKeys, blogPostPath } from './keys';

/** One post with its Markdown body (what the edit form needs). */
export function getBlogPost(id: number, signal?: AbortSignal): Promise<BlogPostDetail> {
  return apiRequest(blogPostPath(id), blogPostDetail, { signal });
}

export function blogPostQueryOptions(id: number) {
  return queryOptions({
    queryKey: blogPostKeys.detail(id),
    queryFn: ({ signal }) => getBlogPost(id, signal),
    // The form edits the version it loaded: always load the newest when it opens.
    staleTime: 0,
  });
}

export function useBlogPost(id: number | null) {
  return useQuery({ ...blogPostQueryOptions(id ?? 0), enabled: id !== null });
}
