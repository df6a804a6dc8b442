import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createdChannel, type CreateChannelInput } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { channelKeys, clientKeys } from './keys';

/** Answers the channel with its generated secrets, shown this once. */
export function createChannel(values: CreateChannelInput) {
  return apiRequest('/api/v1/channels', createdChannel, { method: 'POST', body: values });
}

export function useCreateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createChannel,
    retry: false,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: channelKeys.all }),
        queryClient.invalidateQueries({ queryKey: clientKeys.all }),
      ]);
    },
  });
}
