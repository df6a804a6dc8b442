import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERSATION_MESSAGES, type ContactView, type ConversationView, type MessageView } from '../../../common/api/conversations';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ManualClock } from '../../lib/clock';

type Page = { conversations: ConversationView[]; counts: Record<string, number>; nextCursor: string | null };
type Thread = { messages: MessageView[]; hasMore: boolean };

describe.each(ENGINES)('conversations API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let adminId: string;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    // No job workers: replies stay queued and nothing leaves the machine.
    app = await createTestApp(engine, { clock, startJobs: false });
    ({ client: admin, userId: adminId } = await signedInClient(app, 'admin', { name: 'Ada Admin' }));
  });
  afterAll(async () => {
    await app.destroy();
  });

  async function inbound(channel: Awaited<ReturnType<typeof createTestChannel>>, contact: string, text: string) {
    clock.advance(60_000);
    return app.services.messaging.recordInbound(channel, customerText(contact, text));
  }

  it('lists conversations by last activity with tab counts from real data, search and cursor pages', async () => {
    const client = await createTestClient(app, 'Acme Retail');
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const wa = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const ids: string[] = [];
    for (const [channel, contact, text] of [
      [web, 'Maria Lopez', 'Where is my parcel?'],
      [wa, 'John Smith', 'Hello there'],
      [web, 'Li Wei', 'Can I change my booking?'],
      [wa, 'Olga Petrova', 'The app is broken'],
      [web, 'Sam Jones', 'Thanks, all good'],
    ] as const) {
      ids.push((await inbound(channel, contact, text)).conversationId);
    }
    // A later message moves Maria's conversation to the top.
    await inbound(web, 'Maria Lopez', 'Any news about the parcel?');
    const patch = (id: string, body: unknown) => admin.patch(`/api/v1/conversations/${id}`, body);
    expectJson(await patch(ids[1]!, { status: 'pending' }), 200);
    expectJson(await patch(ids[2]!, { status: 'escalated', handledBy: 'human' }), 200);
    expectJson(await patch(ids[3]!, { status: 'resolved' }), 200);

    const base = `/api/v1/conversations?clientId=${client.id}`;
    const first = expectJson<Page>(await admin.get(`${base}&limit=2`), 200);
    expect(first.counts).toEqual({ all: 5, active: 2, pending: 1, escalated: 1, resolved: 1, human: 1, unread: 5 });
    expect(first.conversations.map((c) => c.id)).toEqual([ids[0], ids[4]]);
    expect(first.conversations[0]).toMatchObject({
      clientName: 'Acme Retail',
      platform: 'webchat',
      contact: { name: 'Maria Lopez' },
      lastMessagePreview: 'Any news about the parcel?',
      unreadCount: 2,
      messageCount: 2,
      canSendFreeText: true,
      windowClosesAt: null,
    });
    const second = expectJson<Page>(await admin.get(`${base}&limit=2&cursor=${first.nextCursor}`), 200);
    const third = expectJson<Page>(await admin.get(`${base}&limit=2&cursor=${second.nextCursor}`), 200);
    expect([...second.conversations, ...third.conversations].map((c) => c.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(third.nextCursor).toBeNull();

    const tab = async (name: string) => expectJson<Page>(await admin.get(`${base}&tab=${name}`), 200).conversations.map((c) => c.id);
    expect(await tab('pending')).toEqual([ids[1]]);
    expect(await tab('escalated')).toEqual([ids[2]]);
    expect(await tab('resolved')).toEqual([ids[3]]);
    expect(await tab('active')).toEqual([ids[0], ids[4]]);

    const search = async (text: string) => expectJson<Page>(await admin.get(`${base}&search=${encodeURIComponent(text)}`), 200);
    expect((await search('olga')).conversations.map((c) => c.id)).toEqual([ids[3]]);
    expect((await search('booking')).conversations.map((c) => c.id)).toEqual([ids[2]]);
    expect((await search('acme')).conversations).toHaveLength(5);
    expect((await search('%')).conversations).toHaveLength(0);
    // Counts describe the client's conversations, not the search result.
    expect((await search('olga')).counts.all).toBe(5);
    // Without a client filter an admin sees this client among all.
    const everyone = expectJson<Page>(await admin.get('/api/v1/conversations?search=Acme%20Retail'), 200);
    expect(everyone.conversations.map((c) => c.id).sort()).toEqual([...ids].sort());

    expect((await admin.get(`${base}&cursor=not-a-cursor`)).statusCode).toBe(400);
    expect((await admin.get(`${base}&tab=archived`)).statusCode).toBe(400);
  });

  it('finds contacts without a name by the label the screens show (website visitor, phone number)', async () => {
    const client = await createTestClient(app, 'Label Co');
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const wa = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    clock.advance(60_000);
    const visitor = await app.services.messaging.recordInbound(web, customerText('v_Qm9aXr7bbq', 'hello from the site', null));
    clock.advance(60_000);
    const phone = await app.services.messaging.recordInbound(wa, customerText('447700900123', 'hello from whatsapp', null));

    const conversations = async (text: string) =>
      expectJson<Page>(await admin.get(`/api/v1/conversations?clientId=${client.id}&search=${encodeURIComponent(text)}`), 200).conversations.map((c) => c.id);
    expect(await conversations('website visitor 7bbq')).toEqual([visitor.conversationId]);
    expect(await conversations('+4477009')).toEqual([phone.conversationId]);
    expect(await conversations('website visitor')).toEqual([visitor.conversationId]);

    const contacts = async (text: string) =>
      expectJson<{ contacts: ContactView[] }>(await admin.get(`/api/v1/contacts?clientId=${client.id}&search=${encodeURIComponent(text)}`), 200).contacts.map((c) => c.externalId);
    expect(await contacts('Website Visitor 7BBQ')).toEqual(['v_Qm9aXr7bbq']);
    expect(await contacts('+447700900123')).toEqual(['447700900123']);

    const messages = expectJson<{ messages: MessageView[] }>(await admin.get(`/api/v1/messages?search=${encodeURIComponent('Website visitor 7BBQ')}`), 200).messages;
    expect(messages.map((m) => [m.id, m.senderName])).toEqual([[visitor.messageId, 'Website visitor 7BBQ']]);
  });

  it('gets one conversation, and an unknown id is 404', async () => {
    const client = await createTestClient(app);
    const wa = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const { conversationId } = await inbound(wa, 'Priya', 'hi');
    const view = expectJson<ConversationView>(await admin.get(`/api/v1/conversations/${conversationId}`), 200);
    expect(view).toMatchObject({ id: conversationId, platform: 'whatsapp', status: 'active', handledBy: 'ai', canSendFreeText: true });
    expect(Date.parse(view.windowClosesAt!) - clock.now().getTime()).toBeGreaterThan(23 * 3600_000);
    expect((await admin.get(`/api/v1/conversations/${crypto.randomUUID()}`)).statusCode).toBe(404);
  });

  it('changes status, hands off to a human and back, assigns someone who can see the conversation', async () => {
    const client = await createTestClient(app);
    const other = await createTestClient(app);
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const { conversationId } = await inbound(web, 'Noor', 'hello');
    const url = `/api/v1/conversations/${conversationId}`;
    const manager = await signedInClient(app, 'manager', { name: 'Mia Manager' });
    const owner = await signedInClientUser(app, client.id, 'Olive Owner');
    const stranger = await signedInClientUser(app, other.id);

    expect(expectJson<ConversationView>(await admin.patch(url, { handledBy: 'human' }), 200)).toMatchObject({ handledBy: 'human' });
    expect(expectJson<ConversationView>(await admin.patch(url, { handledBy: 'ai', status: 'escalated', priority: 'high', title: 'Refund' }), 200)).toMatchObject({
      handledBy: 'ai',
      status: 'escalated',
      priority: 'high',
      title: 'Refund',
    });
    expect(expectJson<ConversationView>(await admin.patch(url, { assignedAgentId: manager.userId }), 200)).toMatchObject({
      assignedAgentId: manager.userId,
      assignedAgentName: 'Mia Manager',
    });
    // The business's own people may take their conversations too, and change them.
    expect(expectJson<ConversationView>(await owner.client.patch(url, { assignedAgentId: owner.userId, status: 'resolved' }), 200)).toMatchObject({
      assignedAgentName: 'Olive Owner',
      status: 'resolved',
    });
    const refused = await admin.patch(url, { assignedAgentId: stranger.userId });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.fields.assignedAgentId).toMatch(/can see this conversation/u);
    expect((await admin.patch(url, { assignedAgentId: crypto.randomUUID() })).statusCode).toBe(400);
    expect(expectJson<ConversationView>(await admin.patch(url, { assignedAgentId: null }), 200).assignedAgentId).toBeNull();
    expect((await admin.patch(url, {})).statusCode).toBe(400);
    expect((await admin.patch(url, { status: 'closed' })).statusCode).toBe(400);
    expect((await admin.patch(`/api/v1/conversations/${crypto.randomUUID()}`, { status: 'active' })).statusCode).toBe(404);
  });

  it('reads a thread oldest first and pages back with `before`; reading clears the unread count', async () => {
    const client = await createTestClient(app);
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    let conversationId = '';
    for (let i = 1; i <= 5; i++) ({ conversationId } = await inbound(web, 'Ravi', `message ${i}`));
    const url = `/api/v1/conversations/${conversationId}/messages`;
    const latest = expectJson<Thread>(await admin.get(`${url}?limit=2`), 200);
    expect(latest.messages.map((m) => m.content)).toEqual(['message 4', 'message 5']);
    expect(latest.hasMore).toBe(true);
    const older = expectJson<Thread>(await admin.get(`${url}?limit=2&before=${latest.messages[0]!.id}`), 200);
    expect(older.messages.map((m) => m.content)).toEqual(['message 2', 'message 3']);
    const oldest = expectJson<Thread>(await admin.get(`${url}?limit=2&before=${older.messages[0]!.id}`), 200);
    expect(oldest).toMatchObject({ messages: [{ content: 'message 1', direction: 'inbound', senderType: 'customer', senderName: 'Ravi', read: false }], hasMore: false });
    expect((await admin.get(`${url}?before=${crypto.randomUUID()}`)).statusCode).toBe(404);

    expect((await admin.post(`/api/v1/conversations/${conversationId}/read`, {})).statusCode).toBe(204);
    expect(expectJson<ConversationView>(await admin.get(`/api/v1/conversations/${conversationId}`), 200).unreadCount).toBe(0);
    expect(expectJson<Thread>(await admin.get(url), 200).messages.every((m) => m.read)).toBe(true);
    // A new message counts again.
    await inbound(web, 'Ravi', 'one more');
    expect(expectJson<ConversationView>(await admin.get(`/api/v1/conversations/${conversationId}`), 200).unreadCount).toBe(1);
  });

  it('sends a reply through the channel, and refuses free text once the 24-hour window has closed', async () => {
    const client = await createTestClient(app);
    const wa = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const { conversationId } = await inbound(wa, 'Tom', 'Is the shop open?');
    const url = `/api/v1/conversations/${conversationId}/messages`;

    const sent = expectJson<MessageView>(await admin.post(url, { text: '  Yes, until 6 pm.  ' }), 201);
    expect(sent).toMatchObject({ content: 'Yes, until 6 pm.', direction: 'outbound', senderType: 'agent', senderId: adminId, senderName: 'Ada Admin', status: 'queued' });
    const job = await app.database.db.selectFrom('jobs').select('payload').where('name', '=', 'channels.send-message').execute();
    expect(job.map((j) => (j.payload as { messageId: string }).messageId)).toContain(sent.id);
    // A person's reply takes the conversation over from the AI.
    expect(expectJson<ConversationView>(await admin.get(`/api/v1/conversations/${conversationId}`), 200)).toMatchObject({
      handledBy: 'human',
      lastMessagePreview: 'Yes, until 6 pm.',
    });

    expect((await admin.post(url, { text: '   ' })).json().error.fields).toBeDefined();
    expect((await admin.post(url, { text: 'x'.repeat(4097) })).statusCode).toBe(400);

    clock.advance(24 * 3600_000 + 1000);
    expect(expectJson<ConversationView>(await admin.get(`/api/v1/conversations/${conversationId}`), 200).canSendFreeText).toBe(false);
    const closed = await admin.post(url, { text: 'Are you still there?' });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().error).toMatchObject({ code: 'CONFLICT', message: CONVERSATION_MESSAGES.windowClosed, details: { reason: 'window_closed' } });
    expect((await admin.post(`/api/v1/conversations/${crypto.randomUUID()}/messages`, { text: 'hi' })).statusCode).toBe(404);
  });

  it('retries a failed outbound message, and only a failed one', async () => {
    const client = await createTestClient(app);
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const { conversationId } = await inbound(web, 'Kim', 'hi');
    clock.advance(1000);
    const sent = expectJson<MessageView>(await admin.post(`/api/v1/conversations/${conversationId}/messages`, { text: 'hello' }), 201);
    const retry = (messageId: string) => admin.post(`/api/v1/conversations/${conversationId}/messages/${messageId}/retry`, {});
    expect((await retry(sent.id)).statusCode).toBe(409);
    await app.database.db.updateTable('messages').set({ status: 'failed', errorCode: '131026', errorMessage: 'Undeliverable' }).where('id', '=', sent.id).execute();
    const failed = expectJson<Thread>(await admin.get(`/api/v1/conversations/${conversationId}/messages`), 200).messages.at(-1);
    expect(failed).toMatchObject({ status: 'failed', errorMessage: 'Undeliverable' });
    expect(expectJson<MessageView>(await retry(sent.id), 200)).toMatchObject({ id: sent.id, status: 'queued', errorCode: null });
    expect((await retry(crypto.randomUUID())).statusCode).toBe(404);
  });

  it('starts a conversation with a website-chat contact, and explains why not on WhatsApp', async () => {
    const client = await createTestClient(app, 'Start Co');
    const web = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const wa = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const contact = (channelId: string, externalId: string, name: string) =>
      app.database.db.insertInto('contacts').values({ clientId: client.id, channelId, externalId, name }).returningAll().executeTakeFirstOrThrow();
    const visitor = await contact(web.id, 'v_visitor-0001', 'Web Visitor');
    const waContact = await contact(wa.id, '15551234567', 'WA Person');

    const { contacts } = expectJson<{ contacts: ContactView[] }>(await admin.get(`/api/v1/contacts?clientId=${client.id}`), 200);
    expect(contacts.map((c) => [c.name, c.canStart, c.conversationId]).sort()).toEqual([
      ['WA Person', false, null],
      ['Web Visitor', true, null],
    ]);
    expect(expectJson<{ contacts: ContactView[] }>(await admin.get(`/api/v1/contacts?clientId=${client.id}&search=visitor`), 200).contacts).toHaveLength(1);

    const started = expectJson<ConversationView>(await admin.post('/api/v1/conversations', { contactId: visitor.id, text: 'Hi! Can we help?' }), 201);
    expect(started).toMatchObject({ clientName: 'Start Co', contact: { id: visitor.id }, messageCount: 1, lastMessagePreview: 'Hi! Can we help?', unreadCount: 0 });
    const thread = expectJson<Thread>(await admin.get(`/api/v1/conversations/${started.id}/messages`), 200);
    expect(thread.messages).toMatchObject([{ direction: 'outbound', senderType: 'agent', content: 'Hi! Can we help?' }]);
    // Starting again with the same contact writes into the same conversation.
    expect(expectJson<ConversationView>(await admin.post('/api/v1/conversations', { contactId: visitor.id, text: 'Still there?' }), 201).id).toBe(started.id);

    const refused = await admin.post('/api/v1/conversations', { contactId: waContact.id, text: 'Hello' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toMatchObject({ message: CONVERSATION_MESSAGES.businessCannotStart, details: { reason: 'business_cannot_start' } });
    expect(await app.database.db.selectFrom('conversations').select('id').where('contactId', '=', waContact.id).execute()).toHaveLength(0);

    const missing = await admin.post('/api/v1/conversations', { text: 'Hello' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error.fields.contactId).toBe('Please select a contact');
    expect((await admin.post('/api/v1/conversations', { contactId: crypto.randomUUID(), text: 'Hello' })).statusCode).toBe(404);

    await app.database.db.updateTable('channels').set({ status: 'disabled' }).where('id', '=', web.id).execute();
    const disabled = await admin.post('/api/v1/conversations', { contactId: visitor.id, text: 'Hello?' });
    expect(disabled.statusCode).toBe(409);
    expect(disabled.json().error.details.reason).toBe('channel_disabled');
  });
});
