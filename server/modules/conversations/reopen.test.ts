/**
 * The reopen rule (issue 10, item 10): a resolved conversation the customer writes to again is
 * active, counts as unread, and follows the client's agent — back to the AI, which answers, when
 * the agent is on; otherwise still with people, who are notified.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signedInClient, type TestApp } from '../../../test/helpers/app';
import { createAgentClient } from '../../../test/helpers/agents';
import { ENGINES } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { Channel } from '../../db/schema';
import type { AnyDomainEvent } from '../../events/domain-events';

function text(externalId: string, body: string, contact: string) {
  return { contact: { externalId: contact, name: 'Dana' }, message: { externalId, type: 'text' as const, text: body } };
}

describe.each(ENGINES)('reopening a resolved conversation (%s)', (engine) => {
  let app: TestApp;
  const events: AnyDomainEvent[] = [];
  beforeAll(async () => {
    app = await createTestApp(engine);
    await app.services.events.listen((e) => events.push(e));
  });
  afterAll(async () => {
    await app.destroy();
  });

  const db = () => app.database.db;
  const conversation = (id: string) => db().selectFrom('conversations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const thread = (id: string) => db().selectFrom('messages').selectAll().where('conversationId', '=', id).orderBy('createdAt').orderBy('id').execute();

  /** A conversation a person handled and resolved, its messages read. */
  async function resolvedByAPerson(channel: Channel, contact: string) {
    const { conversationId } = await app.services.messaging.recordInbound(channel, text(`${contact}-1`, 'I need to speak to a person please', contact));
    await app.queue.waitForIdle();
    await db().updateTable('conversations').set({ status: 'resolved', handledBy: 'human', unreadCount: 0 }).where('id', '=', conversationId).execute();
    await db().updateTable('messages').set({ readAt: new Date() }).where('conversationId', '=', conversationId).execute();
    return conversationId;
  }

  it('agent on: back to the AI, which answers the new message; unread +1; conversation.reopened published', async () => {
    const { channel } = await createAgentClient(app);
    const conversationId = await resolvedByAPerson(channel, 'visitor-reopen-ai');
    const before = (await thread(conversationId)).length;

    const { messageId } = await app.services.messaging.recordInbound(channel, text('visitor-reopen-ai-2', 'is shipping free or do you charge for delivery?', 'visitor-reopen-ai'));
    await app.queue.waitForIdle();

    const after = await thread(conversationId);
    expect(after).toHaveLength(before + 2);
    expect(after.at(-1)).toMatchObject({ senderType: 'ai', content: 'Shipping is free over 50 euros, otherwise 4.90.' });
    expect(await conversation(conversationId)).toMatchObject({ status: 'active', handledBy: 'ai', unreadCount: 1 });
    await expect
      .poll(() => events.filter((e) => e.name === 'conversation.reopened' && e.payload.conversationId === conversationId).map((e) => e.payload))
      .toEqual([{ conversationId, clientId: channel.clientId, messageId, handledBy: 'ai' }]);
  });

  it('agent off: stays with people, who are notified (staff and the client’s users); unread +1; the AI stays quiet', async () => {
    const client = await createTestClient(app);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const admin = await signedInClient(app, 'admin');
    const clientUser = await app.services.users.createUser({ email: `c-${client.id}@example.com`, password: 'Corr3ct!Horse#Battery', name: 'Client user', role: 'client', clientId: client.id });
    const otherClient = await createTestClient(app);
    const outsider = await app.services.users.createUser({ email: `c-${otherClient.id}@example.com`, password: 'Corr3ct!Horse#Battery', name: 'Other client', role: 'client', clientId: otherClient.id });
    const conversationId = await resolvedByAPerson(channel, 'visitor-reopen-people');

    await app.services.messaging.recordInbound(channel, text('visitor-reopen-people-2', 'Hello again, the parcel is still missing', 'visitor-reopen-people'));
    await app.queue.waitForIdle();

    expect(await conversation(conversationId)).toMatchObject({ status: 'active', handledBy: 'human', unreadCount: 1 });
    expect((await thread(conversationId)).map((m) => m.senderType)).toEqual(['customer', 'customer']);
    for (const userId of [admin.userId, clientUser.id]) {
      const { notifications } = await app.services.notifications.findNotifications(userId, { limit: 10 });
      expect(notifications.filter((n) => n.kind === 'conversation.reopened')).toEqual([
        expect.objectContaining({
          title: `Reopened: Dana (${client.companyName})`,
          body: '“Hello again, the parcel is still missing”',
          link: `/conversations?conversation=${conversationId}`,
          read: false,
        }),
      ]);
    }
    const { notifications: outsiders } = await app.services.notifications.findNotifications(outsider.id, { limit: 10 });
    expect(outsiders.filter((n) => n.kind === 'conversation.reopened')).toEqual([]);
  });

  it('agent on but off for this channel counts as off; a message to an active conversation reopens nothing', async () => {
    const { client, channel } = await createAgentClient(app);
    await app.services.agents.updateAgent(client.id, { disabledChannelIds: [channel.id] });
    const conversationId = await resolvedByAPerson(channel, 'visitor-reopen-off-here');
    await app.services.messaging.recordInbound(channel, text('visitor-reopen-off-here-2', 'is shipping free?', 'visitor-reopen-off-here'));
    await app.services.messaging.recordInbound(channel, text('visitor-reopen-off-here-3', 'hello?', 'visitor-reopen-off-here'));
    await app.queue.waitForIdle();
    expect(await conversation(conversationId)).toMatchObject({ status: 'active', handledBy: 'human', unreadCount: 2 });
    await expect.poll(() => events.filter((e) => e.name === 'conversation.reopened' && e.payload.conversationId === conversationId).length).toBe(1);
  });
});
