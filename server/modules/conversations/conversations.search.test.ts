/**
 * Conversation search over message text (issue 10, item 12): full-text (PostgreSQL 'english',
 * GIN index), ranked, with the matching words marked in an excerpt; the contact/label search
 * still works, tenant scope holds, hostile input is just text, and the index is what PostgreSQL
 * uses on a large history.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationListItem } from '../../../common/api/conversations';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { customerText, expectJson, signedInClientUser } from '../../../test/helpers/inbox';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ManualClock } from '../../lib/clock';

type Page = { conversations: ConversationListItem[]; nextCursor: string | null };

describe.each(ENGINES)('conversation search (%s)', (engine) => {
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

  async function business(name: string) {
    const client = await createTestClient(app, name);
    const channel = await createTestChannel(app, { clientId: client.id, kind: 'webchat' });
    const say = async (contact: string, text: string) => {
      clock.advance(60_000);
      return (await app.services.messaging.recordInbound(channel, customerText(contact, text))).conversationId;
    };
    return { client, channel, say };
  }
  const find = async (who: TestClient, query: string) => expectJson<Page>(await who.get(`/api/v1/conversations?${query}`), 200);
  const shown = (item: ConversationListItem | undefined) => item?.searchMatch?.segments.map((s) => (s.match ? `[${s.text}]` : s.text)).join('');

  it('finds a conversation by an older message’s text, stemmed, and marks the words in an excerpt', async () => {
    const { client, say } = await business('Garage One');
    const dana = await say('Dana', 'Hi, my car brakes are squealing <b>loudly</b> since Monday');
    await say('Dana', 'Also, when do you open?'); // the preview no longer holds "brakes"
    await say('Eli', 'Do you sell tyres?');
    const page = await find(admin, `clientId=${client.id}&search=brake`);
    expect(page.conversations.map((c) => c.id)).toEqual([dana]);
    expect(page.conversations[0]?.searchMatch?.messageId).toEqual(expect.any(String));
    expect(shown(page.conversations[0])).toBe('Hi, my car [brakes] are squealing <b>loudly</b> since Monday');
    // The /messages view and /conversations agree now.
    expect(expectJson<{ messages: unknown[] }>(await admin.get('/api/v1/messages?search=brakes'), 200).messages).toHaveLength(1);
  });

  it('ranks: a match on the contact first, then the better message match, then recency; the cursor pages through the ranking exactly', async () => {
    const { client, say } = await business('Garage Two');
    const once = await say('Fay', 'the brakes again');
    const twice = await say('Gus', 'brakes, brakes and brake pads');
    const named = await say('Brakes Bob', 'hello');
    const newest = await say('Hal', 'my brakes');
    const all = await find(admin, `clientId=${client.id}&search=brakes`);
    expect(all.conversations.map((c) => c.id)).toEqual([named, twice, newest, once]);
    expect(all.conversations[0]?.searchMatch).toBeNull();

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await find(admin, `clientId=${client.id}&search=brakes&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.conversations.map((c) => c.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([named, twice, newest, once]);
    // A cursor of the plain list does not page a search.
    const plain = await find(admin, `clientId=${client.id}&limit=1`);
    expect((await admin.get(`/api/v1/conversations?clientId=${client.id}&search=brakes&cursor=${plain.nextCursor}`)).statusCode).toBe(400);
  });

  it('keeps tenant scope: a client user never finds another client’s messages', async () => {
    const mine = await business('Mine Ltd');
    const theirs = await business('Theirs Ltd');
    const own = await mine.say('Ivy', 'the gearbox rattles');
    await theirs.say('Jon', 'the gearbox rattles too');
    const user = (await signedInClientUser(app, mine.client.id)).client;
    expect((await find(user, 'search=gearbox')).conversations.map((c) => c.id)).toEqual([own]);
    expect((await find(user, `search=gearbox&clientId=${theirs.client.id}`)).conversations).toEqual([]);
    expect((await find(admin, 'search=gearbox')).conversations).toHaveLength(2);
  });

  it('reads hostile input as text: no 500, no tsquery syntax', async () => {
    const { client, say } = await business('Quotes & Co');
    const id = await say('Kim', "can't find the (spare) key: it's lost!");
    for (const search of ["'&|!:*()", '"', 'key:*', '!!!', '(', 'or', '-', 'a & b | c', '\\', "'", 'the']) {
      const response = await admin.get(`/api/v1/conversations?clientId=${client.id}&search=${encodeURIComponent(search)}`);
      expect(response.statusCode, search).toBe(200);
    }
    expect((await find(admin, `clientId=${client.id}&search=${encodeURIComponent('(spare) key!')}`)).conversations.map((c) => c.id)).toEqual([id]);
    expect((await find(admin, `clientId=${client.id}&search=${encodeURIComponent('key -spare')}`)).conversations).toEqual([]);
  });

  it('uses the GIN index for the text match on a large history (EXPLAIN)', async () => {
    const { client, channel, say } = await business('Big History');
    const conversationId = await say('Lee', 'first message');
    // 20,000 messages of everyday words, a few about brakes.
    await sql`insert into messages (conversation_id, client_id, channel_id, direction, sender_type, content, message_type, status, priority, created_at)
      select ${conversationId}::uuid, ${client.id}::uuid, ${channel.id}::uuid, 'inbound', 'customer',
        case when g % 5000 = 0 then 'the brakes squeal ' || g else 'hello, where is my parcel number ' || g end,
        'text', 'received', 'low', now() - g * interval '1 second'
      from generate_series(1, 20000) g`.execute(app.database.db);
    await sql`analyze messages`.execute(app.database.db);
    const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select m.conversation_id from messages m
      where to_tsvector('english'::regconfig, m.content) @@ websearch_to_tsquery('english'::regconfig, ${'brakes'})`.execute(app.database.db);
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).toMatch(/Bitmap Index Scan on messages_content_search_idx/u);
    expect((await find(admin, `clientId=${client.id}&search=brakes`)).conversations.map((c) => c.id)).toEqual([conversationId]);
  });
});
