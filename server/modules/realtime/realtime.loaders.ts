import { toWidgetMessage } from '../../../common/api/widget';
import type { ConversationsService } from '../conversations';
import type { RealtimeLoaders } from './realtime.hub';

/** Loads events' entities once per instance (staff scope); the hub filters per connection. */
export function createRealtimeLoaders(
  conversations: Pick<ConversationsService, 'findConversationForEvent' | 'findMessageForEvent' | 'canSeeConversation'>,
): RealtimeLoaders {
  return {
    conversation: (id) => conversations.findConversationForEvent(id),
    async message(id) {
      const found = await conversations.findMessageForEvent(id);
      return found ? { ...found, widgetView: toWidgetMessage(found.view) } : undefined;
    },
    canSeeConversation: (user, conversationId) => conversations.canSeeConversation(user, conversationId),
  };
}
