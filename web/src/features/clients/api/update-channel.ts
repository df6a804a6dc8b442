import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { channelView, type updateChannelInput } from '@common/api/channels';
import { apiRequest } from '@/lib/api-client';
import { channelKeys } from './keys';

export type UpdateChannelValues = z.input<typeof updateChannelInput>;

export function updateChannel({ id, ...changes }: UpdateChannelValues & { id: string }) {
  return apiRequest(`/api/v1/channels/${encodeURIComponent(id)}`, channelView, { method: 'PATCH', body: changes });
}

export function useUpdateChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateChannel,
    onSettled: () => queryClient.invalidateQueries({ queryKey: channelKeys.all }),
  });
}
