import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { conversationKeys, messageKeys, type MessagesFilter } from '@/lib/messaging-keys';

const readAllResponse = z.object({ updated: z.number().int() });

/** Marks every message matching the filter and search as read; answers how many changed. */
export function markAllRead(filter: MessagesFilter) {
  return apiRequest('/api/v1/messages/read-all', readAllResponse, {
    method: 'POST',
    body: { filter: filter.filter, ...(filter.search ? { search: filter.search } : {}) },
  }).then((r) => r.updated);
}

export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markAllRead,
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: messageKeys.all }),
        queryClient.invalidateQueries({ queryKey: conversationKeys.all }),
      ]);
    },
  });
}
