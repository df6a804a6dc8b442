import { useMutation, useQueryClient } from '@tanstack/react-query';
import { blogPostDetail, type BlogPostDetail, type BlogPostInput } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { blogPostKeys, blogPostPath } from './keys';

/** Replaces the post; `version` is the one the form loaded (409 when someone saved since). */
export function updateBlogPost({ id, ...input }: BlogPostInput & { id: number; version: number }): Promise<BlogPostDetail> {
  return apiRequest(blogPostPath(id), blogPostDetail, { method: 'PUT', body: input });
}

export function useUpdateBlogPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateBlogPost,
    retry: false,
    onSuccess: (post) => queryClient.setQueryData(blogPostKeys.detail(post.id), post),
    onSettled: () => queryClient.invalidateQueries({ queryKey: blogPostKeys.list() }),
  });
}
