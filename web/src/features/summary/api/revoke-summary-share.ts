import { useMutation, useQueryClient } from '@tanstack/react-query';
import { summaryShare } from '@common/api/summary-shares';
import { apiRequest } from '@/lib/api-client';
import { summaryShareKeys } from './get-summary-shares';

/** DELETE /api/v1/summary/shares/:id: the link stops working at once. */
export function revokeSummaryShare(id: string) {
  return apiRequest(`/api/v1/summary/shares/${encodeURIComponent(id)}`, summaryShare, { method: 'DELETE' });
}

export function useRevokeSummaryShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSummaryShare,
    onSettled: () => queryClient.invalidateQueries({ queryKey: summaryShareKeys.all }),
  });
}
