/** How a thread reads (spec part 1 §2.15): sides, who wrote, what a non-text message was. */
import type { MessageView } from '@common/api/conversations';
import type { ThreadPages } from '@/lib/live-messaging';

export type Side = 'right' | 'left' | 'center';

/** Client (customer) messages on the right, AI and agent messages on the left, system notes centred. */
export function messageSide(message: Pick<MessageView, 'senderType'>): Side {
  switch (message.senderType) {
    case 'customer':
      return 'right';
    case 'ai':
    case 'agent':
      return 'left';
    case 'system':
      return 'center';
  }
}

export function senderLabel(message: Pick<MessageView, 'senderType' | 'senderName' | 'contactName'>): string {
  switch (message.senderType) {
    case 'customer':
      return message.senderName ?? message.contactName ?? 'Customer';
    case 'ai':
      return 'AI Agent';
    case 'agent':
      return message.senderName ?? 'Agent';
    case 'system':
      return 'System';
  }
}

const TYPE_LABEL: Record<MessageView['messageType'], string> = {
  text: 'Text',
  image: 'Image',
  audio: 'Audio message',
  video: 'Video',
  document: 'Document',
  location: 'Location',
  sticker: 'Sticker',
  reaction: 'Reaction',
  unsupported: 'Unsupported message',
};

/** The label shown above a non-text message's text, or null for plain text. */
export function attachmentLabel(message: Pick<MessageView, 'messageType' | 'media'>): string | null {
  if (message.messageType === 'text') return null;
  const name = message.media?.filename;
  return name ? `${TYPE_LABEL[message.messageType]}: ${name}` : TYPE_LABEL[message.messageType];
}

/** The thread's messages in reading order (pages hold newest first, each page oldest first). */
export function threadMessages(data: Pick<ThreadPages, 'pages'> | undefined): MessageView[] {
  if (!data) return [];
  return [...data.pages].reverse().flatMap((page) => page.messages);
}

/** Outbound messages carry a delivery status; inbound ones do not show one. */
export function showsDelivery(message: Pick<MessageView, 'direction'>): boolean {
  return message.direction === 'outbound';
}
