import { useMutation, useQueryClient } from '@tanstack/react-query';
import { blogPostDetail, type BlogPostDetail, type BlogPostInput } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';
import { blogPostKeys } from './keys';

export function createBlogPost(input: BlogPostInput): Promise<BlogPostDetail> {
  return apiRequest('/api/v1/blog-posts', blogPostDetail, { method: 'POST', body: input });
}

export function useCreateBlogPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createBlogPost,
    retry: false,
    onSuccess: (post) => queryClient.setQueryData(blogPostKeys.detail(post.id), post),
    onSettled: () => queryClient.invalidateQueries({ queryKey: blogPostKeys.list() }),
  });
}
