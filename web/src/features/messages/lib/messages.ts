import type { MessageView } from '@common/api/conversations';
import type { MessagesFilter } from '@/lib/messaging-keys';
import { contactLabel } from '@/lib/messaging-format';

export const FILTER_LABEL: Record<MessagesFilter['filter'], string> = {
  all: 'All messages',
  unread: 'Unread',
  high: 'High priority',
  medium: 'Medium priority',
  low: 'Low priority',
};

/** Who wrote a customer message: the contact's name, else the client business. */
export function messageSenderName(message: Pick<MessageView, 'contactName' | 'senderName' | 'clientName'>): string {
  const name = message.senderName?.trim() || message.contactName?.trim();
  return name ? contactLabel({ name, externalId: '' }) : message.clientName;
}

/** The inbox widget (spec part 1 §2.12) shows at most 5 messages, each cut at 150 characters. */
export const INBOX_LIMIT = 5;
export const INBOX_PREVIEW_CHARS = 150;
