/**
 * Contact enrichment (issue 10, item 11): a new Messenger or Instagram contact — the webhook names
 * it only by its PSID / IGSID — gets its name and picture from the Graph API's user profile
 * endpoint, by a job inserted with the contact; transient failures are retried, permission errors
 * end it quietly (the label stays).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { startFakeGraphApi, type FakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { Channel } from '../../db/schema';
import type { AnyDomainEvent } from '../../events/domain-events';

const PIC = 'https://platform-lookaside.fbsbx.com/platform/profilepic/?psid=1&ext=1&hash=x';

describe.each(ENGINES)('contact profiles from the Graph API (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  const events: AnyDomainEvent[] = [];
  beforeAll(async () => {
    graph = await startFakeGraphApi();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url } });
    await app.services.events.listen((e) => events.push(e));
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
  });
  beforeEach(() => graph.reset());

  const contactOf = (channel: Channel, externalId: string) =>
    app.database.db.selectFrom('contacts').selectAll().where('channelId', '=', channel.id).where('externalId', '=', externalId).executeTakeFirstOrThrow();
  const say = (channel: Channel, contact: string, id: string, name: string | null = null) =>
    app.services.messaging.recordInbound(channel, { contact: { externalId: contact, name }, message: { externalId: id, type: 'text', text: 'hello' } });
  async function channelOf(kind: 'messenger' | 'instagram' | 'whatsapp') {
    const client = await createTestClient(app);
    return createTestChannel(app, { clientId: client.id, kind });
  }

  it('Messenger: first_name, last_name and profile_pic of the PSID with the Page token; the lists are told', async () => {
    const channel = await channelOf('messenger');
    graph.script('GET', '/v21.0/PSID777', { status: 200, body: { first_name: 'Ada', last_name: 'Lovelace', profile_pic: PIC, id: 'PSID777' } });
    const { conversationId } = await say(channel, 'PSID777', 'mid.p1');
    await app.queue.waitForIdle();

    const [request] = graph.requestsTo('GET', '/v21.0/PSID777');
    expect(request?.query.get('fields')).toBe('first_name,last_name,profile_pic');
    expect(request?.headers.authorization).toBe('Bearer test-access-token');
    expect(await contactOf(channel, 'PSID777')).toMatchObject({ name: 'Ada Lovelace', avatarUrl: PIC });
    const admin = { clientId: null };
    const view = await app.services.conversationsRepository.findConversationView(conversationId, admin, new Date());
    expect(view?.contact).toMatchObject({ name: 'Ada Lovelace', avatarUrl: PIC });
    await expect.poll(() => events.some((e) => e.name === 'conversation.updated' && e.payload.conversationId === conversationId && e.performedBy.kind === 'system')).toBe(true);

    // Once per contact: the next message fetches nothing.
    await say(channel, 'PSID777', 'mid.p2');
    await app.queue.waitForIdle();
    expect(graph.requestsTo('GET', '/v21.0/PSID777')).toHaveLength(1);
  });

  it('Instagram: name (else @username) and profile_pic of the IGSID', async () => {
    const channel = await channelOf('instagram');
    graph.script('GET', '/v21.0/IGSID888', { status: 200, body: { name: 'Grace Hopper', username: 'grace', profile_pic: PIC } });
    graph.script('GET', '/v21.0/IGSID889', { status: 200, body: { name: '', username: 'nameless' } });
    await say(channel, 'IGSID888', 'mid.i1');
    await say(channel, 'IGSID889', 'mid.i2');
    await app.queue.waitForIdle();
    expect(graph.requestsTo('GET', '/v21.0/IGSID888')[0]?.query.get('fields')).toBe('name,username,profile_pic');
    expect(await contactOf(channel, 'IGSID888')).toMatchObject({ name: 'Grace Hopper', avatarUrl: PIC });
    expect(await contactOf(channel, 'IGSID889')).toMatchObject({ name: '@nameless', avatarUrl: null });
  });

  it('retries a throttled or failing profile call, then stores it', async () => {
    const channel = await channelOf('messenger');
    graph.script(
      'GET',
      '/v21.0/PSID-RETRY',
      { status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down', code: 4 } } },
      { status: 200, body: { first_name: 'Lin' } },
    );
    await say(channel, 'PSID-RETRY', 'mid.r1');
    await expect.poll(async () => (await contactOf(channel, 'PSID-RETRY')).name, { timeout: 15_000 }).toBe('Lin');
    expect(graph.requestsTo('GET', '/v21.0/PSID-RETRY')).toHaveLength(2);
  });

  it('gives up quietly on a permission error: one call, the job completed, the contact keeps its label', async () => {
    const channel = await channelOf('instagram');
    graph.script('GET', '/v21.0/IGSID-NOPE', { status: 400, body: { error: { message: 'User consent is required to access user profile', code: 230 } } });
    await say(channel, 'IGSID-NOPE', 'mid.n1');
    await app.queue.waitForIdle();
    expect(graph.requestsTo('GET', '/v21.0/IGSID-NOPE')).toHaveLength(1);
    expect(await contactOf(channel, 'IGSID-NOPE')).toMatchObject({ name: null, avatarUrl: null });
    const jobs = await app.database.db.selectFrom('jobs').select(['status', 'lastError']).where('name', '=', 'channels.fetch-contact-profile').where('payload', '@>', JSON.stringify({ contactId: (await contactOf(channel, 'IGSID-NOPE')).id })).execute();
    expect(jobs).toEqual([{ status: 'completed', lastError: null }]);
  });

  it('an echo that creates the contact (a reply typed in Meta’s app) fetches its profile too', async () => {
    const channel = await channelOf('messenger');
    graph.script('GET', '/v21.0/PSID-ECHO', { status: 200, body: { first_name: 'Echo', last_name: 'Person' } });
    await app.services.messaging.recordEcho(channel, { contact: { externalId: 'PSID-ECHO', name: null }, message: { externalId: 'mid.echo', type: 'text', text: 'we typed this' } });
    await app.queue.waitForIdle();
    expect(await contactOf(channel, 'PSID-ECHO')).toMatchObject({ name: 'Echo Person' });
  });

  it('no call where the webhook names the contact (WhatsApp) or for a name the platform already gave', async () => {
    const wa = await channelOf('whatsapp');
    await say(wa, '447700900123', 'wamid.w1', 'Wendy');
    const fb = await channelOf('messenger');
    await say(fb, 'PSID-NAMED', 'mid.named', 'Named Already');
    await app.queue.waitForIdle();
    expect(graph.requests.filter((r) => r.method === 'GET')).toEqual([]);
    expect(await contactOf(wa, '447700900123')).toMatchObject({ name: 'Wendy' });
  });
});
