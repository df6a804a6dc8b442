import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationView, MessageView } from '../../../common/api/conversations';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ManualClock } from '../../lib/clock';
import { MESSAGES_CSV_HEADER } from './messages-csv';

type MessagesPage = { messages: MessageView[]; unreadCount: number };

/** A minimal RFC 4180 reader for checking the export. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        cell += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  return rows;
}

describe.each(ENGINES)('messages view API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    app = await createTestApp(engine, { clock, startJobs: false });
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await app.destroy();
  });

  /** A client with a website-chat channel and a signed-in user of that client. */
  async function business(name: string) {
    const client = await createTestClient(app, name);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const user = await signedInClientUser(app, client.id);
    const write = async (contact: string, text: string) => {
      clock.advance(1000);
      return app.services.messaging.recordInbound(channel, customerText(contact, text));
    };
    return { client, channel, user: user.client, write };
  }

  const unreadOf = async (conversationId: string) =>
    (await app.database.db.selectFrom('conversations').select('unreadCount').where('id', '=', conversationId).executeTakeFirstOrThrow()).unreadCount;

  it('lists customer messages newest first (latest 50) with client and platform, by priority, unread and search', async () => {
    const { user, write, channel } = await business('Bloom Florists');
    for (let i = 1; i <= 52; i++) await write(`c${i % 4}`, `plain message ${i}`);
    const urgent = await write('Hana', 'URGENT: the order is broken');
    const help = await write('Ivo', 'I need help with my booking');
    await app.services.messaging.sendMessage(urgent.conversationId, { text: 'We are on it', senderType: 'agent', senderId: null }, { kind: 'system' });

    const page = expectJson<MessagesPage>(await user.get('/api/v1/messages'), 200);
    expect(page.messages).toHaveLength(50);
    expect(page.unreadCount).toBe(54);
    expect(page.messages[0]).toMatchObject({
      id: help.messageId,
      clientName: 'Bloom Florists',
      contactName: 'Ivo',
      platform: 'webchat',
      direction: 'inbound',
      priority: 'medium',
      read: false,
      aiSummary: expect.any(String),
    });
    // Replies live in the thread, not in the messages view.
    expect(page.messages.every((m) => m.direction === 'inbound')).toBe(true);
    expect(page.messages[1]).toMatchObject({ id: urgent.messageId, priority: 'high', responseTimeSeconds: expect.any(Number) });

    const only = async (query: string) => expectJson<MessagesPage>(await user.get(`/api/v1/messages?${query}`), 200).messages.map((m) => m.id);
    expect(await only('filter=high')).toEqual([urgent.messageId]);
    expect(await only('filter=medium')).toEqual([help.messageId]);
    expect(await only('filter=low&limit=200')).toHaveLength(52);
    expect(await only('search=booking')).toEqual([help.messageId]);
    expect(await only('search=hana')).toEqual([urgent.messageId]);
    expect(await only('search=bloom&limit=3')).toHaveLength(3);
    // An anonymous website visitor (no name) is signed with its label, not left blank.
    clock.advance(1000);
    const visitor = await app.services.messaging.recordInbound(channel, customerText('v_Qm9aXr7bbq', 'hello?', null));
    const [anonymous] = expectJson<MessagesPage>(await user.get('/api/v1/messages?limit=1'), 200).messages;
    expect(anonymous).toMatchObject({ id: visitor.messageId, contactName: null, senderName: 'Website visitor 7BBQ' });
    expect((await user.get('/api/v1/messages?filter=urgent')).statusCode).toBe(400);
    expect((await user.get('/api/v1/messages?limit=500')).statusCode).toBe(400);
  });

  it('persists "Marked as Read" and keeps the conversation unread count consistent; read-all follows the filter', async () => {
    const { user, write } = await business('Casa Mia');
    const a1 = await write('Alba', 'hello');
    const a2 = await write('Alba', 'urgent please');
    const b1 = await write('Bea', 'this is broken');
    const b2 = await write('Bea', 'a question');
    expect(await unreadOf(a1.conversationId)).toBe(2);

    expect((await user.post(`/api/v1/messages/${a1.messageId}/read`, {})).statusCode).toBe(204);
    expect((await user.post(`/api/v1/messages/${a1.messageId}/read`, {})).statusCode).toBe(204); // again: fine
    expect(await unreadOf(a1.conversationId)).toBe(1);
    let page = expectJson<MessagesPage>(await user.get('/api/v1/messages'), 200);
    expect(page.unreadCount).toBe(3);
    expect(page.messages.find((m) => m.id === a1.messageId)?.read).toBe(true);
    expect(expectJson<MessagesPage>(await user.get('/api/v1/messages?filter=unread'), 200).messages.map((m) => m.id)).toEqual([
      b2.messageId,
      b1.messageId,
      a2.messageId,
    ]);

    // "Mark All as Read" on the high-priority filter only touches those.
    expect(expectJson(await user.post('/api/v1/messages/read-all', { filter: 'high' }), 200)).toEqual({ updated: 2 });
    expect(await unreadOf(a1.conversationId)).toBe(0);
    expect(await unreadOf(b1.conversationId)).toBe(1);
    expect(expectJson(await user.post('/api/v1/messages/read-all', { search: 'question' }), 200)).toEqual({ updated: 1 });
    expect(await unreadOf(b1.conversationId)).toBe(0);
    page = expectJson<MessagesPage>(await user.get('/api/v1/messages'), 200);
    expect(page.unreadCount).toBe(0);
    expect(page.messages.every((m) => m.read)).toBe(true);
    expect(expectJson(await user.post('/api/v1/messages/read-all', {}), 200)).toEqual({ updated: 0 });

    const fresh = await write('Bea', 'one more thing');
    expect(await unreadOf(fresh.conversationId)).toBe(1);
    expect(expectJson<{ counts: { unread: number } }>(await user.get('/api/v1/conversations'), 200).counts.unread).toBe(1);
    expect((await user.post(`/api/v1/messages/${crypto.randomUUID()}/read`, {})).statusCode).toBe(404);
    expect((await user.post('/api/v1/messages/read-all', { filter: 'nope' })).statusCode).toBe(400);
  });

  it('answers a message with a response that is stored and queued for sending in its conversation', async () => {
    const { user, write } = await business('Delta Dental');
    const question = await write('Eve', 'Do you open on Saturday?');
    const reply = expectJson<MessageView>(await user.post(`/api/v1/messages/${question.messageId}/respond`, { text: 'Yes, 9 to 1.' }), 201);
    expect(reply).toMatchObject({ conversationId: question.conversationId, direction: 'outbound', senderType: 'agent', content: 'Yes, 9 to 1.', status: 'queued' });
    const conversation = expectJson<ConversationView>(await user.get(`/api/v1/conversations/${question.conversationId}`), 200);
    expect(conversation).toMatchObject({ lastMessagePreview: 'Yes, 9 to 1.', messageCount: 2 });
    expect((await user.post(`/api/v1/messages/${question.messageId}/respond`, { text: '' })).statusCode).toBe(400);
    expect((await user.post(`/api/v1/messages/${crypto.randomUUID()}/respond`, { text: 'hi' })).statusCode).toBe(404);
  });

  it('exports the messages view as CSV: an attachment, RFC 4180 quoting, formulas neutralised, same filter and scope', async () => {
    const { user, write } = await business('Echo, "Quoted" & Co');
    await write('Mallory', '=HYPERLINK("http://evil.example","Click")');
    await write('Zoë', 'Line one\nline two, with a comma — URGENT');
    await write('Sam', '@SUM(1+1)');
    const other = await business('Other Business');
    await other.write('Someone', 'not for the first business');

    const response = await user.get('/api/v1/messages/export.csv');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="messages-${clock.now().toISOString().slice(0, 10)}.csv"`);
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(response.body.slice(1));
    expect(rows[0]).toEqual([...MESSAGES_CSV_HEADER]);
    expect(rows).toHaveLength(4);
    const byContact = new Map(rows.slice(1).map((r) => [r[2], r]));
    expect(byContact.get('Mallory')?.[6]).toBe(`'=HYPERLINK("http://evil.example","Click")`);
    expect(byContact.get('Sam')?.[6]).toBe("'@SUM(1+1)");
    expect(byContact.get('Zoë')).toMatchObject({ 1: 'Echo, "Quoted" & Co', 3: 'webchat', 4: 'high', 5: 'no', 6: 'Line one\nline two, with a comma — URGENT' });
    expect(response.body).not.toContain('not for the first business');

    const high = parseCsv((await user.get('/api/v1/messages/export.csv?filter=high')).body.slice(1));
    expect(high.slice(1).map((r) => r[2])).toEqual(['Zoë']);
    // Staff export every client's messages.
    expect((await admin.get('/api/v1/messages/export.csv?search=not%20for%20the%20first')).body).toContain('not for the first business');
    expect((await user.get('/api/v1/messages/export.csv?limit=0')).statusCode).toBe(400);
  });

  it('fills Contact for every kind of contact, with the label the screens show (website visitors and Messenger ids included)', async () => {
    const client = await createTestClient(app, 'Label Co');
    const webchat = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const whatsapp = await createTestChannel(app, { clientId: client.id, kind: 'whatsapp' });
    const messenger = await createTestChannel(app, { clientId: client.id, kind: 'messenger' });
    const user = (await signedInClientUser(app, client.id)).client;
    const say = (channel: typeof webchat, contact: string, id: string) =>
      app.services.messaging.recordInbound(channel, { contact: { externalId: contact, name: null }, message: { externalId: id, type: 'text', text: `from ${contact}` } });
    await say(webchat, 'v_0123456789abcd', 'w1');
    await say(whatsapp, '447700900123', 'wa1');
    await say(messenger, 'PSID777', 'fb1');
    const rows = parseCsv((await user.get('/api/v1/messages/export.csv')).body.slice(1));
    expect(new Map(rows.slice(1).map((r) => [r[6], r[2]]))).toEqual(
      new Map([
        ['from v_0123456789abcd', 'Website visitor ABCD'],
        ['from 447700900123', "'+447700900123"],
        ['from PSID777', 'PSID777'],
      ]),
    );
  });
});
