/**
 * The public events' outbox (issue 14 §1) through the real paths, on both engines: every type is
 * stored exactly once by the action that causes it, validates against its schema, reaches the
 * sinks in the transaction that stores it, keeps a conversation's order, and nothing is stored for
 * a change that rolled back or twice for a retried job.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PUBLIC_EVENT_TYPES, envelopeSchemaFor, type PublicEventEnvelope, type PublicEventType } from '../../../common/api/events';
import { exampleEnvelope } from '../../../common/api/event-examples';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeGraphApi, startFakeGraphApi } from '../../../test/helpers/fake-graph-api';
import { createMetaChannel, postDelivery, whatsappDelivery } from '../../../test/helpers/meta-webhooks';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import type { Db } from '../../db/database';
import type { Channel } from '../../db/schema';
import type { PublicEventSink, StoredPublicEvent } from '../../events/public-events';
import type { InboundMessageInput } from '../messaging';
import { recordEventJob } from './events.jobs';

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const text = (contact: string, externalId: string, body: string, name: string | null = 'Ana Souza'): InboundMessageInput => ({
  contact: { externalId: contact, name },
  message: { externalId, type: 'text', text: body },
});

/** A sink that remembers what it was given (and checks it was given a transaction). */
class RecordingSink implements PublicEventSink {
  readonly accepted: StoredPublicEvent[] = [];
  /** How many events each call was given. */
  readonly calls: number[] = [];
  failNext = false;
  async accept(trx: Db, events: readonly StoredPublicEvent[]): Promise<void> {
    if (!trx.isTransaction) throw new Error('a sink must be called inside the transaction that stores the events');
    this.calls.push(events.length);
    if (this.failNext) {
      this.failNext = false;
      throw new Error('the sink failed');
    }
    this.accepted.push(...events);
  }
}

describe.each(ENGINES)('public events (%s)', (engine) => {
  let app: TestApp;
  let graph: FakeGraphApi;
  let admin: TestClient;
  const sink = new RecordingSink();

  beforeAll(async () => {
    graph = await startFakeGraphApi();
    app = await createTestApp(engine, { env: { GRAPH_API_BASE_URL: graph.url, GRAPH_API_TIMEOUT_MS: '1500' }, eventSinks: [sink] });
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await app.destroy();
    await graph.close();
  });
  beforeEach(() => graph.reset());

  const db = () => app.database.db;

  async function settle(): Promise<void> {
    await app.queue.waitForIdle();
  }

  /** The stored envelopes of a conversation (or of a client), in seq order. */
  async function eventsOf(filter: { conversationId?: string; clientId?: string; type?: PublicEventType }) {
    // jsonb as text: the CamelCasePlugin would rename the envelope's snake_case keys.
    let q = db()
      .selectFrom('events')
      .select(['id', 'seq', 'type', 'conversationId', 'clientId', sql<string>`envelope::text`.as('envelope'), sql<string>`performed_by::text`.as('performedBy')])
      .orderBy('seq');
    if (filter.conversationId) q = q.where('conversationId', '=', filter.conversationId);
    if (filter.clientId) q = q.where('clientId', '=', filter.clientId);
    if (filter.type) q = q.where('type', '=', filter.type);
    const rows = await q.execute();
    return rows.map((r) => ({ ...r, envelope: JSON.parse(r.envelope) as PublicEventEnvelope, performedBy: JSON.parse(r.performedBy) as unknown }));
  }

  function expectValid(envelope: PublicEventEnvelope): void {
    const parsed = envelopeSchemaFor(envelope.type).safeParse(envelope);
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
  }

  async function channelOf(kind: 'webchat' | 'whatsapp' | 'api' = 'webchat'): Promise<Channel> {
    const client = await createTestClient(app);
    return createTestChannel(app, { clientId: client.id, kind });
  }

  it('an inbound message on the webhook path: contact.created, conversation.created and message.received, once each, valid, in order', async () => {
    const channel = await createMetaChannel(app, 'whatsapp', 'pn-events-1');
    const delivery = whatsappDelivery('pn-events-1', {
      contacts: [{ profile: { name: 'Rita' }, wa_id: '351910000123' }],
      messages: [{ from: '351910000123', id: 'wamid.events-1', timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: 'Olá, bom dia' } }],
    });
    expect((await postDelivery(app, 'whatsapp', delivery)).statusCode).toBe(200);
    // Meta redelivers: nothing new.
    expect((await postDelivery(app, 'whatsapp', delivery)).statusCode).toBe(200);
    await eventually(async () => (await eventsOf({ clientId: channel.clientId })).length >= 3, 'three events');
    await settle();

    const events = await eventsOf({ clientId: channel.clientId });
    expect(events.map((e) => e.type).sort()).toEqual(['contact.created', 'conversation.created', 'message.received']);
    for (const e of events) expectValid(e.envelope);
    const received = events.find((e) => e.type === 'message.received')!;
    const data = received.envelope.data as { message: { content: string; direction: string }; conversation: { platform: string; url: string }; contact: { phone: string | null; name: string } };
    expect(data.message).toMatchObject({ content: 'Olá, bom dia', direction: 'inbound' });
    expect(data.conversation.platform).toBe('whatsapp');
    expect(data.conversation.url).toMatch(/\/conversations\?conversation=[0-9a-f-]{36}$/u);
    expect(data.contact).toMatchObject({ name: 'Rita', phone: '+351910000123' });
    expect(received.envelope).toMatchObject({ client_id: channel.clientId, performed_by: { kind: 'customer' }, api_version: expect.any(String) });
    // A conversation is announced before its first message.
    const ordered = (await eventsOf({ conversationId: received.conversationId! })).map((e) => e.type);
    expect(ordered).toEqual(['conversation.created', 'message.received']);
    // Handed to the sinks, in the same transaction.
    expect(sink.accepted.filter((e) => e.clientId === channel.clientId).map((e) => e.id).sort()).toEqual(events.map((e) => e.id).sort());
    expect(received.performedBy).toEqual({ kind: 'customer' });
  });

  it('message.sent when a reply reaches sent, and message.failed with the platform’s reason', async () => {
    const channel = await channelOf('webchat');
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('visitor-sent', 'w-sent-1', 'hi'));
    const reply = await app.services.messaging.sendMessage(conversationId, { text: 'Hello!', senderType: 'agent', senderId: null }, { kind: 'system' });
    await settle();
    const sent = await eventsOf({ conversationId, type: 'message.sent' });
    expect(sent).toHaveLength(1);
    expectValid(sent[0]!.envelope);
    expect(sent[0]!.envelope.data).toMatchObject({ message: { id: reply.id, status: 'sent', direction: 'outbound', sender_type: 'agent' } });

    const wa = await createMetaChannel(app, 'whatsapp', 'pn-events-fail');
    graph.script('POST', '/v21.0/pn-events-fail/messages', {
      status: 400,
      body: { error: { message: '(#131047) Re-engagement message', type: 'OAuthException', code: 131047, fbtrace_id: 'A1' } },
    });
    const stored = await db().selectFrom('channels').selectAll().where('id', '=', wa.id).executeTakeFirstOrThrow();
    const inbound = await app.services.messaging.recordInbound(stored, text('351910000777', 'wamid.fail-in', 'Olá'));
    const failing = await app.services.messaging.sendMessage(inbound.conversationId, { text: 'Still there?', senderType: 'agent', senderId: null }, { kind: 'system' });
    await eventually(async () => (await eventsOf({ conversationId: inbound.conversationId, type: 'message.failed' })).length > 0, 'message.failed');
    await settle();
    const failed = await eventsOf({ conversationId: inbound.conversationId, type: 'message.failed' });
    expect(failed).toHaveLength(1);
    expectValid(failed[0]!.envelope);
    const message = await db().selectFrom('messages').select('errorMessage').where('id', '=', failing.id).executeTakeFirstOrThrow();
    expect(failed[0]!.envelope.data).toMatchObject({ message: { id: failing.id, status: 'failed', error: message.errorMessage } });
    expect(message.errorMessage).toMatch(/131047/u);
    expect(await eventsOf({ conversationId: inbound.conversationId, type: 'message.sent' })).toHaveLength(0);
  });

  it('conversation.escalated by the AI agent’s hand-off (with its reason) and by a person taking over; resolved; reopened by the customer', async () => {
    const channel = await channelOf('webchat');
    const first = await app.services.messaging.recordInbound(channel, text('visitor-esc', 'w-esc-1', 'I need help with my invoice'));
    await app.services.messaging.escalate(
      { conversationId: first.conversationId, clientId: channel.clientId, messageId: first.messageId, reason: 'the customer asked for a person' },
      { kind: 'ai' },
    );
    await settle();
    const escalated = await eventsOf({ conversationId: first.conversationId, type: 'conversation.escalated' });
    expect(escalated).toHaveLength(1);
    expectValid(escalated[0]!.envelope);
    expect(escalated[0]!.envelope).toMatchObject({
      performed_by: { kind: 'ai' },
      data: { reason: 'The AI agent handed the conversation to a person: the customer asked for a person', conversation: { status: 'escalated', handled_by: 'human' } },
    });

    // Another conversation: a person takes it over from the AI; then resolves it; the customer writes again.
    const other = await app.services.messaging.recordInbound(channel, text('visitor-take', 'w-take-1', 'hello'));
    const { client: manager, userId } = await signedInClient(app, 'manager');
    const change = async (body: Record<string, unknown>) => expect((await manager.patch(`/api/v1/conversations/${other.conversationId}`, body)).statusCode).toBe(200);
    await change({ handledBy: 'human' });
    await change({ status: 'resolved' });
    // Resolving again changes nothing: no second event.
    await change({ status: 'resolved' });
    // The survey's request is a job after the resolution: let it go out before the customer writes again.
    await settle();
    const again = await app.services.messaging.recordInbound(channel, text('visitor-take', 'w-take-2', 'one more question'));
    await settle();
    const types = (await eventsOf({ conversationId: other.conversationId })).map((e) => e.type);
    // After the resolution, the satisfaction survey's request goes out (docs/satisfaction.md).
    expect(types).toEqual([
      'conversation.created',
      'message.received',
      'conversation.escalated',
      'conversation.resolved',
      'message.sent',
      'message.received',
      'conversation.reopened',
    ]);
    const all = await eventsOf({ conversationId: other.conversationId });
    for (const e of all) expectValid(e.envelope);
    expect(all[2]!.envelope).toMatchObject({ performed_by: { kind: 'user', user_id: userId }, data: { reason: 'A person took over the conversation' } });
    expect(all[3]!.envelope.data).toMatchObject({ conversation: { status: 'resolved' } });
    expect(all[4]!.envelope.data).toMatchObject({ message: { sender_type: 'system' } });
    expect(all[6]!.envelope.data).toMatchObject({ message_id: again.messageId });
  });

  it('conversation.reopened by a person who moves a resolved conversation back, once per change, without the customer-reopen notice', async () => {
    const channel = await channelOf('webchat');
    const inbound = await app.services.messaging.recordInbound(channel, text('visitor-reopen', 'w-reopen-1', 'is my order on its way?'));
    const { client: manager, userId } = await signedInClient(app, 'manager');
    const change = async (body: Record<string, unknown>) => expect((await manager.patch(`/api/v1/conversations/${inbound.conversationId}`, body)).statusCode).toBe(200);
    await change({ handledBy: 'human' });
    await change({ status: 'resolved' });
    await change({ status: 'active' });
    // Moving it between open statuses is not a reopening.
    await change({ status: 'escalated' });
    await change({ status: 'resolved' });
    await change({ status: 'escalated' });
    await settle();
    const reopened = await eventsOf({ conversationId: inbound.conversationId, type: 'conversation.reopened' });
    expect(reopened).toHaveLength(2);
    for (const e of reopened) expectValid(e.envelope);
    expect(reopened[0]!.envelope).toMatchObject({ performed_by: { kind: 'user', user_id: userId }, data: { message_id: null, conversation: { id: inbound.conversationId } } });
    expect(reopened[1]!.envelope).toMatchObject({ performed_by: { kind: 'user', user_id: userId }, data: { message_id: null } });
    const notices = await db().selectFrom('notifications').select('id').where('kind', '=', 'conversation.reopened').where('link', 'like', `%${inbound.conversationId}%`).execute();
    expect(notices).toHaveLength(0);
  });

  it('contact.created for a widget visitor who gives a name before writing, once', async () => {
    const channel = await channelOf('webchat');
    await app.services.messaging.nameContact(channel, 'visitor-named', 'Bea');
    await settle();
    await app.services.messaging.nameContact(channel, 'visitor-named', 'Beatriz');
    await app.services.messaging.recordInbound(channel, text('visitor-named', 'w-named-1', 'hi', null));
    await settle();
    const contacts = await eventsOf({ clientId: channel.clientId, type: 'contact.created' });
    expect(contacts).toHaveLength(1);
    expectValid(contacts[0]!.envelope);
    expect(contacts[0]!.envelope.data).toMatchObject({ contact: { name: 'Bea', external_id: 'visitor-named', email: null, phone: null } });
  });

  it('lead.qualified once, by e-mail, phone or purchase intent; later messages fill in the details', async () => {
    const channel = await channelOf('webchat');
    const byEmail = await app.services.messaging.recordInbound(channel, text('lead-1', 'l-1', 'Hi, my email is a@b.co'));
    await app.services.messaging.recordInbound(channel, text('lead-1', 'l-2', 'or call me on +44 7700 900123'));
    await app.services.messaging.recordInbound(channel, text('lead-1', 'l-3', 'my other email is c@d.co'));
    const byPhone = await app.services.messaging.recordInbound(channel, text('lead-2', 'l-4', '+44 7700 900123'));
    const byIntent = await app.services.messaging.recordInbound(channel, text('lead-3', 'l-5', 'how much is the premium plan?'));
    const none = await app.services.messaging.recordInbound(channel, text('lead-4', 'l-6', "I don't want to buy anything"));
    await settle();

    const conversation = (id: string) => db().selectFrom('conversations').select(['isLead', 'leadEmail', 'leadPhone', 'leadSignals', 'leadAt']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(await conversation(byEmail.conversationId)).toMatchObject({ isLead: true, leadEmail: 'a@b.co', leadPhone: '+447700900123', leadSignals: ['email', 'phone'] });
    expect(await conversation(byPhone.conversationId)).toMatchObject({ isLead: true, leadEmail: null, leadPhone: '+447700900123', leadSignals: ['phone'] });
    expect(await conversation(byIntent.conversationId)).toMatchObject({ isLead: true, leadSignals: ['purchase_intent'] });
    expect(await conversation(none.conversationId)).toMatchObject({ isLead: false, leadSignals: [], leadAt: null });

    const leads = await eventsOf({ clientId: channel.clientId, type: 'lead.qualified' });
    expect(leads.map((e) => e.conversationId).sort()).toEqual([byEmail.conversationId, byPhone.conversationId, byIntent.conversationId].sort());
    for (const e of leads) expectValid(e.envelope);
    const of = (id: string) => leads.find((e) => e.conversationId === id)!.envelope.data;
    expect(of(byEmail.conversationId)).toMatchObject({ signals: ['email'], email: 'a@b.co', phone: null, intent_excerpt: null });
    expect(of(byPhone.conversationId)).toMatchObject({ signals: ['phone'], phone: '+447700900123' });
    expect(of(byIntent.conversationId)).toMatchObject({ signals: ['purchase_intent'], intent_excerpt: 'how much is the premium plan?', conversation: { is_lead: true } });

    // The portal's views carry the flag and the details.
    const view = await admin.get(`/api/v1/conversations/${byEmail.conversationId}`);
    expect(view.statusCode).toBe(200);
    expect(view.json()).toMatchObject({ isLead: true, leadEmail: 'a@b.co', leadPhone: '+447700900123', leadSignals: ['email', 'phone'] });
  });

  it('automation.execution.finished when an execution ends, once', async () => {
    const client = await createTestClient(app);
    const created = await admin.post('/api/v1/automations', { name: 'To the CRM', workflow_id: 'w', workflow_url: 'https://hooks.example.com/x', status: 'active', client_id: client.id });
    expect(created.statusCode, created.body).toBe(201);
    const automationId = created.json<{ automation: { id: string } }>().automation.id;
    // Refused where it connects (a loopback address): the execution ends in an error.
    await db().updateTable('automations').set({ workflowUrl: 'http://127.0.0.1:9/hook' }).where('id', '=', automationId).execute();
    const run = await admin.post(`/api/v1/automations/${automationId}/run`);
    expect(run.statusCode, run.body).toBe(201);
    const executionId = run.json<{ id: string }>().id;
    await eventually(async () => (await eventsOf({ type: 'automation.execution.finished', clientId: client.id })).length > 0, 'the finished event');
    await settle();
    const finished = await eventsOf({ type: 'automation.execution.finished', clientId: client.id });
    expect(finished).toHaveLength(1);
    expectValid(finished[0]!.envelope);
    expect(finished[0]!.envelope.data).toMatchObject({
      execution: { id: executionId, automation_id: automationId, automation_name: 'To the CRM', client_id: client.id, status: 'error', error_message: expect.stringMatching(/^Refused/u) },
    });
  });

  it('keeps the order of a conversation’s changes, a burst in one batch included', async () => {
    const channel = await channelOf('webchat');
    const inputs = Array.from({ length: 6 }, (_, i) => text('visitor-order', `o-${i}`, `message ${i}`));
    const results = await app.services.messaging.recordInboundBatch(channel, inputs);
    await settle();
    const conversationId = results[0]!.conversationId;
    const received = await eventsOf({ conversationId, type: 'message.received' });
    expect(received.map((e) => (e.envelope.data as { message: { id: string } }).message.id)).toEqual(results.map((r) => r.messageId));
    const seqs = received.map((e) => Number(e.seq));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
  });

  it('stores the events of jobs that start together in one transaction (one sink call); when that fails, one by one at once', async () => {
    const channel = await channelOf('webchat');
    const burst = (tag: string) => Array.from({ length: 5 }, (_, i) => text(`visitor-${tag}-${i}`, `${tag}-${i}`, `hello ${i}`));
    const jobsOf = (messageIds: string[]) =>
      db()
        .selectFrom('jobs')
        .select(['id', 'status', 'attempts'])
        .where('name', '=', recordEventJob.name)
        .where(sql<boolean>`payload->>'messageId' = any(${messageIds}::text[])`)
        .execute();

    // Five new visitors at once: 15 jobs (contact, conversation, message each), fewer sink calls.
    const callsBefore = sink.calls.length;
    const first = await app.services.messaging.recordInboundBatch(channel, burst('together'));
    await settle();
    const calls = sink.calls.slice(callsBefore);
    expect(calls.reduce((a, b) => a + b, 0)).toBe(15);
    expect(calls.length).toBeLessThan(15);
    expect(Math.max(...calls)).toBeGreaterThan(1);
    for (const r of first) {
      expect((await eventsOf({ conversationId: r.conversationId })).map((e) => e.type)).toEqual(['conversation.created', 'message.received']);
    }

    // The sink fails once: the batch rolls back and its jobs are stored one by one at once — not
    // left to the queue's retry (a retry would show as attempts 2, and after its backoff).
    sink.failNext = true;
    const second = await app.services.messaging.recordInboundBatch(channel, burst('fallback'));
    await settle();
    for (const r of second) expect(await eventsOf({ conversationId: r.conversationId, type: 'message.received' })).toHaveLength(1);
    const jobs = await jobsOf(second.map((r) => r.messageId));
    expect(jobs).toHaveLength(5);
    expect(jobs.map((j) => [j.status, j.attempts])).toEqual(jobs.map(() => ['completed', 1]));
  });

  it('a retried materialiser job stores nothing twice; a failing sink rolls the event back and the retry stores it once', async () => {
    const channel = await channelOf('webchat');
    const { conversationId, messageId } = await app.services.messaging.recordInbound(channel, text('visitor-retry', 'r-1', 'hello'));
    await settle();
    const job = await db()
      .selectFrom('jobs')
      .select(['id', 'payload'])
      .where('name', '=', recordEventJob.name)
      .where(sql`payload->>'messageId'`, '=', messageId)
      .executeTakeFirstOrThrow();
    const again = await app.services.publicEvents.record(recordEventJob.payload.parse(job.payload), { jobId: job.id, completion: { id: job.id, workerId: 'nobody' } });
    expect(again).toEqual([]);
    expect(await eventsOf({ conversationId, type: 'message.received' })).toHaveLength(1);

    sink.failNext = true;
    const second = await app.services.messaging.recordInbound(channel, text('visitor-retry', 'r-2', 'hello again'));
    const storedOf = async () => (await eventsOf({ conversationId, type: 'message.received' })).filter((e) => (e.envelope.data as { message: { id: string } }).message.id === second.messageId);
    // The sink's failure rolled the event back; the job's retry (after its backoff) stores it.
    await eventually(async () => (await storedOf()).length > 0, 'the retried event');
    await settle();
    const stored = await storedOf();
    expect(stored).toHaveLength(1);
    const attempts = await db().selectFrom('jobs').select('attempts').where('name', '=', recordEventJob.name).where(sql`payload->>'messageId'`, '=', second.messageId).execute();
    expect(attempts.map((j) => j.attempts)).toEqual([2]);
    expect(sink.accepted.filter((e) => e.id === stored[0]!.id)).toHaveLength(1);
  });

  it('a change that rolls back leaves no event', async () => {
    const channel = await channelOf('webchat');
    const { conversationId, messageId } = await app.services.messaging.recordInbound(channel, text('visitor-rollback', 'rb-1', 'hello'));
    await expect(
      app.services.messaging.escalate({ conversationId, clientId: channel.clientId, messageId, reason: 'x' }, { kind: 'ai' }, () => Promise.reject(new Error('notifying failed'))),
    ).rejects.toThrow('notifying failed');
    await settle();
    expect(await eventsOf({ conversationId, type: 'conversation.escalated' })).toHaveLength(0);
    expect((await db().selectFrom('conversations').select('status').where('id', '=', conversationId).executeTakeFirstOrThrow()).status).toBe('active');
  });

  it('recent() shows a client user only their client’s events, get() the same, and every type has a valid example', async () => {
    const mine = await channelOf('webchat');
    const theirs = await channelOf('webchat');
    await app.services.messaging.recordInbound(mine, text('v-mine', 'rc-1', 'mine'));
    await app.services.messaging.recordInbound(theirs, text('v-theirs', 'rc-2', 'theirs'));
    await settle();
    const forClient = await app.services.publicEvents.recent('message.received', { clientId: mine.clientId }, 50);
    expect(forClient.length).toBeGreaterThan(0);
    expect(forClient.every((e) => e.client_id === mine.clientId)).toBe(true);
    const forStaff = await app.services.publicEvents.recent('message.received', { clientId: null }, 100);
    expect(forStaff.some((e) => e.client_id === theirs.clientId)).toBe(true);
    const theirEvent = forStaff.find((e) => e.client_id === theirs.clientId)!;
    expect(await app.services.publicEvents.get(theirEvent.id, { clientId: mine.clientId })).toBeUndefined();
    expect(await app.services.publicEvents.get(theirEvent.id, { clientId: theirs.clientId })).toMatchObject({ id: theirEvent.id, type: 'message.received' });

    for (const type of PUBLIC_EVENT_TYPES) {
      const example = exampleEnvelope(type);
      expect(example.type).toBe(type);
      expectValid(example);
    }
  });

  it('publishes every event envelope in the OpenAPI document', async () => {
    const response = await app.inject({ method: 'GET', url: '/docs/json' });
    expect(response.statusCode).toBe(200);
    const schemas = (response.json<{ components?: { schemas?: Record<string, unknown> } }>().components?.schemas ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
    for (const type of PUBLIC_EVENT_TYPES) {
      const schema = Object.entries(schemas).find(([name]) => name.startsWith(`PublicEvent.${type}`))?.[1];
      expect(schema, type).toBeDefined();
      expect(Object.keys(schema!.properties ?? {})).toEqual(expect.arrayContaining(['id', 'type', 'created_at', 'data']));
    }
  });

  it('deletes events older than 30 days', async () => {
    const channel = await channelOf('webchat');
    const { conversationId } = await app.services.messaging.recordInbound(channel, text('visitor-old', 'old-1', 'hello'));
    await settle();
    await sql`update events set created_at = now() - interval '31 days' where conversation_id = ${conversationId}`.execute(db());
    const before = (await eventsOf({ conversationId })).length;
    expect(before).toBeGreaterThan(0);
    expect(await app.services.publicEvents.prune()).toBeGreaterThanOrEqual(before);
    expect(await eventsOf({ conversationId })).toHaveLength(0);
  });
});
