import type { Clock } from '../../lib/clock';
import { type ConversationsRepository, toConversationView, toMessageView } from '../conversations/conversations.repository';
import { scopeFor } from '../conversations/scope';
import { toWidgetMessage } from '../widget/widget.views';
import type { RealtimeLoaders } from './realtime.hub';

const ALL = { clientId: null };

/** Loads events' entities once per instance (staff scope); the hub filters per connection. */
export function createRealtimeLoaders(conversations: ConversationsRepository, clock: Clock): RealtimeLoaders {
  return {
    async conversation(id) {
      const row = await conversations.conversations(ALL).where('c.id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      return { view: toConversationView(row, clock.now()), clientId: row.clientId, channelId: row.channelId, contactExternalId: row.contactExternalId };
    },
    async message(id) {
      const row = await conversations.messages(ALL).select('ct.externalId as contactExternalId').where('m.id', '=', id).executeTakeFirst();
      if (!row) return undefined;
      const view = toMessageView(row);
      return {
        view,
        widgetView: toWidgetMessage(view),
        clientId: row.clientId,
        conversationId: row.conversationId,
        channelId: row.channelId,
        contactExternalId: row.contactExternalId,
      };
    },
    async canSeeConversation(user, conversationId) {
      return (await conversations.findConversationClient(conversationId, scopeFor(user))) !== undefined;
    },
  };
}
