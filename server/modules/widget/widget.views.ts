import type { WidgetMessage } from '../../../common/api/widget';
import type { MessageView } from '../../../common/api/conversations';

/** What a website visitor sees of a message: no internal fields. */
export function toWidgetMessage(m: Pick<MessageView, 'id' | 'direction' | 'senderType' | 'content' | 'createdAt'>): WidgetMessage {
  return {
    id: m.id,
    from: m.direction === 'inbound' ? 'visitor' : 'business',
    senderType: m.senderType,
    text: m.content,
    createdAt: m.createdAt,
  };
}
