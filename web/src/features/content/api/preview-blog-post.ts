import { useMutation } from '@tanstack/react-query';
import { previewResponse } from '@common/api/content';
import { apiRequest } from '@/lib/api-client';

/** The Markdown body rendered and sanitised by the server, exactly as the public post page shows it. */
export function previewBlogPost(body: string): Promise<string> {
  return apiRequest('/api/v1/blog-posts/preview', previewResponse, { method: 'POST', body: { body } }).then((r) => r.html);
}

export function usePreviewBlogPost() {
  return useMutation({ mutationFn: previewBlogPost, retry: false });
}
