import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { blogPostKeys, blogPostPath } from './keys';

export function deleteBlogPost(id: number): Promise<void> {
  return apiSend(blogPostPath(id), { method: 'DELETE' });
}

export function useDeleteBlogPost() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteBlogPost,
    retry: false,
    onSuccess: (_done, id) => queryClient.removeQueries({ queryKey: blogPostKeys.detail(id) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: blogPostKeys.list() }),
  });
}
