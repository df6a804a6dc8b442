import { queryOptions, useQuery } from '@tanstack/react-query';
import { blogPostsResponse, type BlogPostSummary } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { blogPostKeys } from './keys';

/** Every post, drafts too, newest first. */
export function findBlogPosts(signal?: AbortSignal): Promise<BlogPostSummary[]> {
  return apiRequest('/api/v1/blog-posts', blogPostsResponse, { signal }).then((r) => r.posts);
}

export function blogPostsQueryOptions() {
  return queryOptions({ queryKey: blogPostKeys.list(), queryFn: ({ signal }) => findBlogPosts(signal) });
}

export function useBlogPosts() {
  return useQuery(blogPostsQueryOptions());
}
