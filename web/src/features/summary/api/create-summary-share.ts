import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type CreateSummaryShareInput, createdSummaryShare } from '@common/api/summary-shares';
import { apiRequest } from '@/lib/api-client';
import { summaryShareKeys } from './get-summary-shares';

/** POST /api/v1/summary/shares: the answer holds the link itself, this once. */
export function createSummaryShare(input: CreateSummaryShareInput) {
  return apiRequest('/api/v1/summary/shares', createdSummaryShare, { method: 'POST', body: input });
}

export function useCreateSummaryShare() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSummaryShare,
    onSettled: () => queryClient.invalidateQueries({ queryKey: summaryShareKeys.all }),
  });
}
