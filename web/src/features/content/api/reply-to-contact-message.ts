import { useMutation, useQueryClient } from '@tanstack/react-query';
import { contactMessageDetail, type ContactMessageDetail } from '@common/api/contact';
import { apiRequest } from '@/lib/api-client';
import { contactMessageKeys, contactMessagePath } from './keys';

/** Parley e-mails the reply to the sender (SMTP or the outbox) and records it on the message. */
export function replyToContactMessage({ id, body }: { id: string; body: string }): Promise<ContactMessageDetail> {
  return apiRequest(`${contactMessagePath(id)}/reply`, contactMessageDetail, { method: 'POST', body: { body } });
}

export function useReplyToContactMessage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: replyToContactMessage,
    retry: false,
    onSuccess: (message) => queryClient.setQueryData(contactMessageKeys.detail(message.id), message),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactMessageKeys.list() }),
  });
}
