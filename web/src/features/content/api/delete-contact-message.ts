import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiSend } from '@/lib/api-client';
import { contactMessageKeys, contactMessagePath } from './keys';

export function deleteContactMessage(id: string): Promise<void> {
  return apiSend(contactMessagePath(id), { method: 'DELETE' });
}

export function useDeleteContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteContactMessage,
    retry: false,
    // The open message's query is left to expire: removing it now would refetch it (a 404) before the selection clears.
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactMessageKeys.list() }),
  });
}
