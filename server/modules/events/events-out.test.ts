/**
 * Events out, end to end through the real modules as app.ts wires them (issue 14 §1–§3), on both
 * engines: a customer's message becomes a `message.received` delivery at a subscriber's endpoint,
 * signed; a person taking a conversation over starts the automation listening for
 * `conversation.escalated`, whose workflow gets the event as its trigger; when the workflow reports
 * success, `automation.execution.finished` says which event started the run and reaches the
 * subscriber too. While nothing listens (no active subscription, no active event-triggered
 * automation), changes queue no outbox work. Only the receivers are fakes (loopback).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleEnvelope } from '../../../common/api/event-examples';
import { envelopeSchemaFor, type PublicEventEnvelope } from '../../../common/api/events';
import type { CreatedAutomation, ExecutionView } from '../../../common/api/automations';
import type { CreatedSubscription } from '../../../common/api/hooks';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer, type ReceivedCallback } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { createTestChannel, createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { checkApiSignature } from '../channels';

async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const envelopeOf = (r: ReceivedCallback) => JSON.parse(r.body.toString('utf8')) as PublicEventEnvelope & { trigger?: unknown };

describe.each(ENGINES)('events out, end to end (%s)', (engine) => {
  let app: TestApp;
  let subscriber: CallbackServer;
  let workflow: CallbackServer;
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { env: { ...ALLOW_LOOPBACK_FAKES } });
    subscriber = await startCallbackServer();
    workflow = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await subscriber.close();
    await workflow.close();
    await app.destroy();
  });

  it('while nothing listens, a change queues no outbox work and stores no event; samples are built from live data; a subscription or an event-triggered automation opens it', async () => {
    // Runs first: no subscription and no automation exist yet in this app.
    const business = await createTestClient(app, 'Quiet Shop');
    const channel = await createTestChannel(app, { clientId: business.id, kind: 'webchat' });
    const db = app.database.db;
    const outboxJobs = async () => Number((await db.selectFrom('jobs').select((eb) => eb.fn.countAll().as('n')).where('name', '=', 'events.record').executeTakeFirstOrThrow()).n);
    const storedFor = async (messageId: string) =>
      (await db.selectFrom('events').select('type').where('type', '=', 'message.received').where(sql<boolean>`envelope->'data'->'message'->>'id' = ${messageId}`).execute()).length;
    const say = (n: number) =>
      app.services.messaging.recordInbound(channel, { contact: { externalId: 'v-quiet', name: 'Quinn' }, message: { externalId: `q-${n}`, type: 'text', text: `Question ${n}` } });

    const first = await say(1);
    await app.queue.waitForIdle();
    expect(await outboxJobs()).toBe(0);
    expect(await storedFor(first.messageId)).toBe(0);
    expect(await db.selectFrom('events').select('id').where('clientId', '=', business.id).execute()).toEqual([]);

    // REST hook samples still show this business's real data, built from the live tables.
    const { client: owner, userId: ownerId } = await signedInClient(app, 'client');
    await db.updateTable('users').set({ clientId: business.id }).where('id', '=', ownerId).execute();
    const samples = (await owner.get('/api/v1/hooks/samples/message.received')).json<PublicEventEnvelope[]>();
    expect(samples).toHaveLength(1);
    expect(envelopeSchemaFor('message.received').safeParse(samples[0]).success).toBe(true);
    expect(samples[0]).toMatchObject({ type: 'message.received', client_id: business.id, data: { message: { id: first.messageId, content: 'Question 1' }, contact: { name: 'Quinn' } } });
    const contacts = (await owner.get('/api/v1/hooks/samples/contact.created')).json<PublicEventEnvelope[]>();
    expect(contacts[0]).toMatchObject({ type: 'contact.created', client_id: business.id, data: { contact: { name: 'Quinn' } } });
    // Another business's user sees none of it: the documented example.
    const stranger = await createTestClient(app, 'Stranger Co');
    const { client: strangerUser, userId: strangerId } = await signedInClient(app, 'client');
    await db.updateTable('users').set({ clientId: stranger.id }).where('id', '=', strangerId).execute();
    const theirs = (await strangerUser.get('/api/v1/hooks/samples/message.received')).json<PublicEventEnvelope[]>();
    expect(theirs).toEqual([exampleEnvelope('message.received')]);

    // An active subscription (of any business): the next change is stored and delivered.
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Quiet CRM', url: subscriber.url, client_id: business.id, events: ['message.received'] });
    expect(created.statusCode, created.body).toBe(201);
    const subscriptionId = created.json<CreatedSubscription>().subscription.id;
    const second = await say(2);
    await eventually(() => subscriber.received.find((r) => envelopeOf(r).data && JSON.stringify(envelopeOf(r).data).includes(second.messageId)), 'the second message at the subscriber');
    expect(await storedFor(second.messageId)).toBe(1);
    expect(await storedFor(first.messageId)).toBe(0);

    // Inactive again: closed.
    expect((await admin.patch(`/api/v1/webhook-subscriptions/${subscriptionId}`, { status: 'inactive' })).statusCode).toBe(200);
    const third = await say(3);
    await app.queue.waitForIdle();
    expect(await storedFor(third.messageId)).toBe(0);

    // An active automation with an event trigger opens it too; one without event triggers does not.
    const manual = await admin.post('/api/v1/automations', { name: 'By hand', workflow_id: 'wf-hand', workflow_url: workflow.url, client_id: business.id, status: 'active', config: {} });
    expect(manual.statusCode, manual.body).toBe(201);
    const fourth = await say(4);
    await app.queue.waitForIdle();
    expect(await storedFor(fourth.messageId)).toBe(0);
    const listening = await admin.post('/api/v1/automations', {
      name: 'Lead follow-up',
      workflow_id: 'wf-lead',
      workflow_url: workflow.url,
      client_id: business.id,
      status: 'active',
      config: { triggers: [{ event: 'lead.qualified' }] },
    });
    expect(listening.statusCode, listening.body).toBe(201);
    const fifth = await say(5);
    await app.queue.waitForIdle();
    expect(await storedFor(fifth.messageId)).toBe(1);
    for (const id of [manual.json<CreatedAutomation>().automation.id, listening.json<CreatedAutomation>().automation.id]) {
      expect((await admin.delete(`/api/v1/automations/${id}`)).statusCode).toBeLessThan(300);
    }
    expect((await admin.delete(`/api/v1/webhook-subscriptions/${subscriptionId}`)).statusCode).toBeLessThan(300);
    subscriber.received.length = 0;
  });

  it('a message reaches a subscription; an escalation starts an automation; its end reaches the subscription, naming the event', async () => {
    const business = await createTestClient(app, 'Harbour Bikes');
    const other = await createTestClient(app, 'Elsewhere Ltd');
    const created = await admin.post('/api/v1/webhook-subscriptions', {
      name: 'CRM',
      url: subscriber.url,
      client_id: business.id,
      events: ['message.received', 'automation.execution.finished'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const { signing_secret } = created.json<CreatedSubscription>();
    const automation = await admin.post('/api/v1/automations', {
      name: 'Escalation follow-up',
      workflow_id: 'wf-escalation',
      workflow_url: workflow.url,
      client_id: business.id,
      status: 'active',
      config: { triggers: [{ event: 'conversation.escalated', filters: { channel: ['webchat'] } }] },
    });
    expect(automation.statusCode, automation.body).toBe(201);
    const automationId = automation.json<CreatedAutomation>().automation.id;

    // Another business's customer: nothing of it reaches this subscription or automation.
    const elsewhere = await app.services.messaging.recordInbound(await createTestChannel(app, { clientId: other.id, kind: 'webchat' }), {
      contact: { externalId: 'v-elsewhere', name: 'Other' },
      message: { externalId: 'e-1', type: 'text', text: 'SECRET-ELSEWHERE' },
    });
    const channel = await createTestChannel(app, { clientId: business.id, kind: 'webchat' });
    const inbound = await app.services.messaging.recordInbound(channel, {
      contact: { externalId: 'v-ana', name: 'Ana' },
      message: { externalId: 'w-1', type: 'text', text: 'Is my bike ready?' },
    });

    const delivery = await eventually(() => subscriber.received.find((r) => envelopeOf(r).type === 'message.received'), 'message.received at the subscriber');
    const body = envelopeOf(delivery);
    expect(body).toMatchObject({
      type: 'message.received',
      client_id: business.id,
      data: { message: { id: inbound.messageId, content: 'Is my bike ready?', direction: 'inbound' }, conversation: { id: inbound.conversationId, platform: 'webchat' } },
    });
    expect(delivery.headers['x-parley-event-id']).toBe(body.id);
    expect(delivery.headers['x-parley-event-type']).toBe('message.received');
    const headers = { timestamp: delivery.headers['x-parley-timestamp'], signature: delivery.headers['x-parley-signature'] };
    expect(checkApiSignature(signing_secret, headers, delivery.body, new Date())).toBe('valid');

    // A person takes the conversation over: conversation.escalated starts the automation.
    const { client: manager } = await signedInClient(app, 'manager');
    expect((await manager.patch(`/api/v1/conversations/${inbound.conversationId}`, { handledBy: 'human' })).statusCode).toBe(200);
    const run = await eventually(() => workflow.received[0], 'the workflow request');
    const request = JSON.parse(run.body.toString('utf8')) as {
      execution_id: string;
      trigger: { type: string; event_id: string; data: PublicEventEnvelope };
      callback: { status_url: string; token: string };
    };
    expect(request.trigger).toMatchObject({ type: 'conversation.escalated', data: { type: 'conversation.escalated', data: { conversation: { id: inbound.conversationId } } } });
    const execution = await admin.get(`/api/v1/automation-executions/${request.execution_id}`);
    expect(execution.json<ExecutionView>()).toMatchObject({ automation_id: automationId, started_how: 'event', trigger_event_type: 'conversation.escalated' });

    // The workflow reports success (its own callback, with the run's token).
    const report = await app.server.inject({
      method: 'PATCH',
      url: new URL(request.callback.status_url).pathname,
      headers: { authorization: `Bearer ${request.callback.token}`, 'content-type': 'application/json' },
      payload: { status: 'success' },
    });
    expect(report.statusCode, report.body).toBe(200);
    const finished = await eventually(
      () => subscriber.received.map(envelopeOf).find((e) => e.type === 'automation.execution.finished'),
      'automation.execution.finished at the subscriber',
    );
    expect(finished.data).toMatchObject({
      execution: { id: request.execution_id, automation_id: automationId, status: 'success', started_by_event: 'conversation.escalated' },
    });

    // Exactly one of each, and nothing of the other business.
    await app.queue.waitForIdle();
    expect(subscriber.received.map((r) => envelopeOf(r).type).sort()).toEqual(['automation.execution.finished', 'message.received']);
    expect(workflow.received).toHaveLength(1);
    expect(subscriber.received.some((r) => r.body.toString('utf8').includes('SECRET-ELSEWHERE'))).toBe(false);
    expect(elsewhere.conversationId).not.toBe(inbound.conversationId);
  });
});
