import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdChannel } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { channelKeys } from './keys';

/** A new verify token for a Meta channel, shown once; the old one stops working. */
export function rotateVerifyToken(channelId: string) {
  return apiRequest(`/api/v1/channels/${encodeURIComponent(channelId)}/rotate-verify-token`, createdChannel, { method: 'POST' });
}

export function useRotateVerifyToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rotateVerifyToken,
    retry: false,
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}
