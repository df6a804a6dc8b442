/**
 * `contact_form.submitted` (issue 15, issue 14 §1) end to end through the real modules as app.ts
 * wires them, on both engines: a visitor's contact form becomes one delivery at an administrators'
 * (every-client) webhook subscription, signed, with the message as stored, and the trigger of an
 * automation without a client. It belongs to no client: a client's subscription or automation
 * cannot choose it (400 with the field's message) and never receives it. A dropped (spam) or
 * rolled-back submission publishes nothing; while nothing listens, a submission queues no outbox
 * work and REST hook samples are built from the stored messages (for administrators only).
 * Only the receivers are fakes (loopback).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationTrigger, CreatedAutomation, ExecutionView } from '../../../common/api/automations';
import { exampleEnvelope } from '../../../common/api/event-examples';
import { envelopeSchemaFor, installationEventRefusal, type PublicEventEnvelope } from '../../../common/api/events';
import type { CreatedSubscription } from '../../../common/api/hooks';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer, type ReceivedCallback } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { CSRF_COOKIE, CSRF_HEADER } from '../../http/csrf';
import { checkApiSignature } from '../channels';

const TYPE = 'contact_form.submitted';
const REFUSAL = installationEventRefusal(TYPE);

async function eventually<T>(check: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const envelopeOf = (r: ReceivedCallback) => JSON.parse(r.body.toString('utf8')) as PublicEventEnvelope;
const ofType = (server: CallbackServer, type: string) => server.received.filter((r) => r.headers['x-parley-event-type'] === type);

let ipCounter = 0;
let emailCounter = 0;
function form(overrides: Record<string, unknown> = {}) {
  return {
    firstName: 'Ana',
    lastName: 'Lima',
    email: `ana-${++emailCounter}-${Math.random().toString(36).slice(2, 8)}@example.com`,
    company: 'Lima Bikes',
    message: 'Do you connect WhatsApp?\nWe have two shops.',
    ...overrides,
  };
}

describe.each(ENGINES)('contact_form.submitted (%s)', (engine) => {
  let app: TestApp;
  let subscriber: CallbackServer;
  let clientSubscriber: CallbackServer;
  let workflow: CallbackServer;
  let admin: TestClient;
  let manager: TestClient;
  let owner: TestClient;
  let business: { id: string; companyName: string };

  /** A visitor's POST (no session; the page's CSRF cookie and header), from a fresh address. */
  const send = (body: unknown) =>
    app.inject({
      method: 'POST',
      url: '/api/v1/public/contact',
      remoteAddress: `203.0.113.${++ipCounter}`,
      headers: { 'content-type': 'application/json', cookie: `${CSRF_COOKIE}=page-token`, [CSRF_HEADER]: 'page-token' },
      payload: JSON.stringify(body),
    });
  const db = () => app.database.db;
  const storedMessage = (email: string) => db().selectFrom('contactMessages').selectAll().where('email', '=', email).executeTakeFirst();
  const outboxJobs = async () =>
    Number(
      (
        await db()
          .selectFrom('jobs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('name', '=', 'events.record')
          .where(sql<boolean>`payload->>'event' = 'contact_message.created'`)
          .executeTakeFirstOrThrow()
      ).n,
    );
  const storedEvents = async () =>
    (await sql<{ envelope: string; clientId: string | null }>`select envelope::text as envelope, client_id from events where type = ${TYPE} order by seq`.execute(db())).rows.map(
      (r) => ({ clientId: r.clientId, envelope: JSON.parse(r.envelope) as PublicEventEnvelope }),
    );
  const fieldsOf = async (response: { statusCode: number; body: string; json<T>(): T }) => {
    expect(response.statusCode, response.body).toBe(400);
    return response.json<{ error: { code: string; fields: Record<string, string> } }>().error.fields;
  };

  beforeAll(async () => {
    app = await createTestApp(engine, { env: { ...ALLOW_LOOPBACK_FAKES } });
    subscriber = await startCallbackServer();
    clientSubscriber = await startCallbackServer();
    workflow = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
    ({ client: manager } = await signedInClient(app, 'manager'));
    business = await createTestClient(app, 'Harbour Bikes');
    const signedIn = await signedInClient(app, 'client');
    owner = signedIn.client;
    await db().updateTable('users').set({ clientId: business.id }).where('id', '=', signedIn.userId).execute();
  });
  afterAll(async () => {
    await subscriber.close();
    await clientSubscriber.close();
    await workflow.close();
    await app.destroy();
  });

  it('while nothing listens, a submission queues no outbox work; samples: stored messages for administrators, the example for others', async () => {
    // Runs first: no subscription and no automation exist yet in this app.
    const body = form({ lastName: 'Quiet' });
    expect((await send(body)).statusCode).toBe(201);
    await app.queue.waitForIdle();
    const message = (await storedMessage(body.email))!;
    expect(message).toBeDefined();
    expect(await outboxJobs()).toBe(0);
    expect(await storedEvents()).toEqual([]);

    const samples = (await admin.get(`/api/v1/hooks/samples/${TYPE}`)).json<PublicEventEnvelope[]>();
    expect(samples.length).toBeGreaterThan(0);
    expect(envelopeSchemaFor(TYPE).safeParse(samples[0]).success).toBe(true);
    expect(samples[0]).toMatchObject({ type: TYPE, client_id: null, performed_by: { kind: 'customer' }, data: { contact_message: { id: message.id, last_name: 'Quiet' } } });
    // The messages are the administrators' alone (docs/contact.md): managers and client users get the example.
    expect((await manager.get(`/api/v1/hooks/samples/${TYPE}`)).json()).toEqual([exampleEnvelope(TYPE)]);
    expect((await owner.get(`/api/v1/hooks/samples/${TYPE}`)).json()).toEqual([exampleEnvelope(TYPE)]);
    expect(await app.services.publicEvents.recent(TYPE, { clientId: business.id })).toEqual([]);
    expect(exampleEnvelope(TYPE).client_id).toBeNull();
    expect(envelopeSchemaFor(TYPE).safeParse(exampleEnvelope(TYPE)).success).toBe(true);
    // The schema itself holds an installation-wide event to no client.
    expect(envelopeSchemaFor(TYPE).safeParse({ ...exampleEnvelope(TYPE), client_id: business.id }).success).toBe(false);
  });

  it('a client’s subscription, REST hook, automation or template cannot choose it: 400 with the field’s message', async () => {
    const subscriptionsBefore = await db().selectFrom('webhookSubscriptions').select('id').execute();

    // An administrator scoping a subscription to a client; a client user (always their client's).
    expect(await fieldsOf(await admin.post('/api/v1/webhook-subscriptions', { name: 'Leads', url: clientSubscriber.url, client_id: business.id, events: [TYPE] }))).toEqual({
      events: REFUSAL,
    });
    expect(await fieldsOf(await owner.post('/api/v1/webhook-subscriptions', { name: 'Mine', url: clientSubscriber.url, events: ['message.received', TYPE] }))).toEqual({
      events: REFUSAL,
    });
    // A client user's REST hook (Zapier).
    expect(await fieldsOf(await owner.post('/api/v1/hooks', { target_url: clientSubscriber.url, event: TYPE }))).toEqual({ event: REFUSAL });
    expect((await db().selectFrom('webhookSubscriptions').select('id').execute()).length).toBe(subscriptionsBefore.length);

    // Changing a client's subscription to it; "all" stays allowed (every event of its client).
    const created = await owner.post('/api/v1/webhook-subscriptions', { name: 'Mine', url: clientSubscriber.url, events: ['message.received'], status: 'inactive' });
    expect(created.statusCode, created.body).toBe(201);
    const mine = created.json<CreatedSubscription>().subscription.id;
    expect(await fieldsOf(await owner.patch(`/api/v1/webhook-subscriptions/${mine}`, { events: [TYPE] }))).toEqual({ events: REFUSAL });
    expect(await fieldsOf(await admin.patch(`/api/v1/webhook-subscriptions/${mine}`, { events: ['message.received', TYPE] }))).toEqual({ events: REFUSAL });
    expect((await owner.patch(`/api/v1/webhook-subscriptions/${mine}`, { events: 'all' })).statusCode).toBe(200);
    expect((await owner.delete(`/api/v1/webhook-subscriptions/${mine}`)).statusCode).toBe(204);

    // Automations: one of a client; one without a client moved to a client; a client filter on it.
    const automation = (extra: Record<string, unknown>) => admin.post('/api/v1/automations', { name: 'Contact', workflow_id: 'wf-contact', workflow_url: workflow.url, ...extra });
    expect(await fieldsOf(await automation({ client_id: business.id, config: { triggers: ['message.received', TYPE] } }))).toEqual({ 'config.triggers.1.event': REFUSAL });
    expect(await fieldsOf(await automation({ config: { triggers: [{ event: TYPE, filters: { client_id: business.id } }] } }))).toEqual({
      'config.triggers.0.filters.client_id': `${TYPE} belongs to no client: it cannot be filtered by client`,
    });
    const staffOnly = await automation({ status: 'inactive', config: { triggers: [TYPE] } });
    expect(staffOnly.statusCode, staffOnly.body).toBe(201);
    const staffOnlyId = staffOnly.json<CreatedAutomation>().automation.id;
    expect(await fieldsOf(await admin.patch(`/api/v1/automations/${staffOnlyId}`, { client_id: business.id }))).toEqual({ 'config.triggers.0.event': REFUSAL });
    expect((await admin.delete(`/api/v1/automations/${staffOnlyId}`)).statusCode).toBe(204);

    // A template's automations are always a client's.
    const template = await admin.post('/api/v1/templates', { name: 'Contact', type: 'n8n', workflowConfig: { webhookUrl: workflow.url, triggers: [TYPE] } });
    expect(await fieldsOf(template)).toEqual({ 'workflowConfig.triggers.0.event': REFUSAL });
  });

  it('a submission: one signed delivery to the administrators’ subscription with the message as stored, the trigger of an automation without a client; nothing for a client’s', async () => {
    const created = await admin.post('/api/v1/webhook-subscriptions', { name: 'Sales inbox', url: subscriber.url, client_id: null, events: [TYPE] });
    expect(created.statusCode, created.body).toBe(201);
    const { signing_secret } = created.json<CreatedSubscription>();
    // A client's subscription to every event: its client's only.
    expect((await owner.post('/api/v1/webhook-subscriptions', { name: 'Everything', url: clientSubscriber.url, events: 'all' })).statusCode).toBe(201);
    const staff = await admin.post('/api/v1/automations', {
      name: 'Contact to the CRM',
      workflow_id: 'wf-contact',
      workflow_url: workflow.url,
      status: 'active',
      config: { triggers: [TYPE] },
    });
    expect(staff.statusCode, staff.body).toBe(201);
    const staffId = staff.json<CreatedAutomation>().automation.id;
    // A client's automation listening for it anyway (written past the validation): never started.
    const theirs = await admin.post('/api/v1/automations', {
      name: 'Not ours',
      workflow_id: 'wf-theirs',
      workflow_url: workflow.url,
      client_id: business.id,
      status: 'active',
      config: { triggers: ['message.received'] },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const theirsId = theirs.json<CreatedAutomation>().automation.id;
    await sql`update automations set config = ${JSON.stringify({ triggers: [{ event: TYPE }] })}::jsonb where id = ${theirsId}`.execute(db());

    const body = form({ lastName: 'Delivered', company: '' });
    expect((await send(body)).statusCode).toBe(201);
    const message = (await storedMessage(body.email))!;
    const delivery = await eventually(() => ofType(subscriber, TYPE)[0], 'contact_form.submitted at the subscriber');
    const run = await eventually(() => workflow.received[0], 'the workflow request');
    await app.queue.waitForIdle();

    // Exactly one delivery, the envelope valid and signed, the message as stored.
    expect(ofType(subscriber, TYPE)).toHaveLength(1);
    const envelope = envelopeOf(delivery);
    expect(envelopeSchemaFor(TYPE).safeParse(envelope).success).toBe(true);
    expect(envelope).toEqual({
      id: expect.any(String),
      type: TYPE,
      created_at: expect.any(String),
      api_version: expect.any(String),
      client_id: null,
      performed_by: { kind: 'customer' },
      data: {
        contact_message: {
          id: message.id,
          first_name: 'Ana',
          last_name: 'Delivered',
          email: body.email,
          company: null,
          message: 'Do you connect WhatsApp?\nWe have two shops.',
          submitted_at: message.createdAt.toISOString(),
        },
      },
    });
    expect(delivery.headers['x-parley-event-id']).toBe(envelope.id);
    const headers = { timestamp: delivery.headers['x-parley-timestamp'], signature: delivery.headers['x-parley-signature'] };
    expect(checkApiSignature(signing_secret, headers, delivery.body, new Date())).toBe('valid');
    // Stored once in the outbox, installation-wide.
    expect(await storedEvents()).toEqual([{ clientId: null, envelope }]);

    // The automation without a client ran with the event as its trigger; the client's did not.
    expect(workflow.received).toHaveLength(1);
    const request = JSON.parse(run.body.toString('utf8')) as AutomationTrigger & { execution_id: string };
    expect(request).toMatchObject({ client_id: null, trigger: { type: TYPE, event_id: envelope.id, data: envelope } });
    expect((await admin.get(`/api/v1/automation-executions/${request.execution_id}`)).json<ExecutionView>()).toMatchObject({
      automation_id: staffId,
      started_how: 'event',
      trigger_event_type: TYPE,
      trigger_event_id: envelope.id,
    });
    expect(await db().selectFrom('automationExecutions').select('id').where('automationId', '=', theirsId).execute()).toEqual([]);
    // Nothing at the client's subscription.
    expect(clientSubscriber.received).toEqual([]);
  });

  it('a dropped submission (honeypot, too fast) or one that rolls back publishes nothing', async () => {
    // The administrators' subscription and automation of the previous test still listen.
    const jobsBefore = await outboxJobs();
    const eventsBefore = (await storedEvents()).length;
    const deliveriesBefore = ofType(subscriber, TYPE).length;

    const honeypot = form({ lastName: 'Honeypot', website: 'https://spam.example' });
    const tooFast = form({ lastName: 'Quick', shownAt: Date.now() - 1_000 });
    expect((await send(honeypot)).statusCode).toBe(201);
    expect((await send(tooFast)).statusCode).toBe(201);
    expect(await storedMessage(honeypot.email)).toBeUndefined();
    expect(await storedMessage(tooFast.email)).toBeUndefined();

    // The transaction fails at its commit, after the event was published in it: the outbox job goes with the message.
    await sql`create function contact_event_test_refuse() returns trigger language plpgsql as $$ begin raise exception 'refused at commit'; end $$`.execute(db());
    await sql`create constraint trigger contact_event_test_refuse after insert on contact_messages deferrable initially deferred
      for each row when (new.last_name = 'Rollback') execute function contact_event_test_refuse()`.execute(db());
    try {
      const rolledBack = form({ lastName: 'Rollback' });
      expect((await send(rolledBack)).statusCode).toBe(500);
      expect(await storedMessage(rolledBack.email)).toBeUndefined();
    } finally {
      await sql`drop trigger contact_event_test_refuse on contact_messages`.execute(db());
      await sql`drop function contact_event_test_refuse()`.execute(db());
    }

    await app.queue.waitForIdle();
    expect(await outboxJobs()).toBe(jobsBefore);
    expect((await storedEvents()).length).toBe(eventsBefore);
    expect(ofType(subscriber, TYPE)).toHaveLength(deliveriesBefore);
    expect(workflow.received).toHaveLength(1);

    // And the next real one is delivered (the subscription still listens).
    const real = form({ lastName: 'After' });
    expect((await send(real)).statusCode).toBe(201);
    await eventually(() => ofType(subscriber, TYPE).find((r) => r.body.toString('utf8').includes(real.email)), 'the next submission');
    expect(await outboxJobs()).toBe(jobsBefore + 1);
  });
});
