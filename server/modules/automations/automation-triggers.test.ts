/**
 * Automations triggered by public events (issue 14 §3), both engines. The events module (the outbox
 * that calls every `PublicEventSink` in the transaction that stores the events) is another module,
 * so these tests call the automations' sink as it does: hand-built `StoredPublicEvent`s, their
 * envelopes built with the catalogue's zod schemas, inside a transaction. What they show: matching
 * by type and by each filter; the client scope; inactive and paused automations not started; the
 * loop guard; no second execution for a repeated event; the run job's request carries the event as
 * `trigger` (a loopback workflow); the execution view says which event started it; a template's
 * triggers reach the automation its assignment creates; bad trigger configs are 400s with fields.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationTrigger, CreatedAutomation, ExecutionView } from '../../../common/api/automations';
import { envelopeSchemaFor, EVENTS_API_VERSION, type PublicEventType } from '../../../common/api/events';
import type { TemplateView } from '../../../common/api/workflows';
import type { PerformedBy } from '../../events/domain-events';
import type { StoredPublicEvent } from '../../events/public-events';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';

type Client = { id: string; companyName: string };

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

let seq = 0;

/** A valid stored event of a conversation (the envelope parsed by the catalogue's schema). */
function conversationEvent(
  type: Extract<PublicEventType, 'message.received' | 'conversation.escalated' | 'conversation.resolved' | 'conversation.created'>,
  client: Client | null,
  options: { platform?: 'whatsapp' | 'messenger' | 'instagram' | 'webchat' | 'api'; status?: 'active' | 'pending' | 'escalated' | 'resolved'; performedBy?: PerformedBy } = {},
): StoredPublicEvent {
  const now = new Date().toISOString();
  const clientId = client?.id ?? randomUUID();
  const conversation = {
    id: randomUUID(),
    client_id: clientId,
    client_name: client?.companyName ?? 'Nobody',
    channel_id: randomUUID(),
    platform: options.platform ?? 'whatsapp',
    status: options.status ?? (type === 'conversation.escalated' ? 'escalated' : 'active'),
    handled_by: 'ai',
    priority: 'medium',
    title: null,
    is_lead: false,
    created_at: now,
    url: `http://localhost:3000/conversations/${randomUUID()}`,
  };
  const contact = { id: randomUUID(), client_id: clientId, name: 'Ana', external_id: '+34600000000', email: null, phone: '+34600000000', created_at: now };
  const message = {
    id: randomUUID(),
    conversation_id: conversation.id,
    direction: 'inbound',
    sender_type: 'customer',
    type: 'text',
    content: 'I want to talk to a person',
    status: 'received',
    error: null,
    created_at: now,
  };
  const data =
    type === 'message.received'
      ? { message, conversation, contact }
      : type === 'conversation.escalated'
        ? { conversation, contact, reason: 'The customer asked for a person' }
        : { conversation, contact };
  const id = randomUUID();
  const envelope = envelopeSchemaFor(type).parse({ id, type, created_at: now, api_version: EVENTS_API_VERSION, client_id: client ? clientId : null, data });
  return {
    id,
    type,
    seq: String(++seq),
    clientId: client ? clientId : null,
    conversationId: conversation.id,
    performedBy: options.performedBy ?? { kind: 'customer' },
    envelope,
  };
}

describe.each(ENGINES)('automations triggered by events (%s)', (engine) => {
  let app: TestApp;
  let workflow: CallbackServer;
  let admin: TestClient;

  beforeAll(async () => {
    app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    workflow = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await workflow.close();
    await app.destroy();
  });

  async function create(body: Record<string, unknown>): Promise<string> {
    const response = await admin.post('/api/v1/automations', { name: 'On events', workflow_id: 'wf-events', workflow_url: workflow.url, status: 'active', ...body });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<CreatedAutomation>().automation.id;
  }

  /** What the events module does: the sink called inside the transaction storing the events. */
  async function deliver(...events: StoredPublicEvent[]): Promise<void> {
    await app.database.db.transaction().execute((trx) => app.services.automations.accept(trx, events));
  }

  async function executionsOf(automationId: string): Promise<ExecutionView[]> {
    const response = await admin.get(`/api/v1/automations/${automationId}/executions`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ executions: ExecutionView[] }>().executions;
  }

  const startedBy = async (automationId: string) => (await executionsOf(automationId)).map((e) => e.trigger_event_id);

  it('starts an automation by event type, and records the event on the execution', async () => {
    const client = await createTestClient(app);
    const escalations = await create({ client_id: client.id, config: { triggers: [{ event: 'conversation.escalated' }] } });
    const messages = await create({ client_id: client.id, config: { triggers: ['message.received'] } });
    const escalated = conversationEvent('conversation.escalated', client);
    const received = conversationEvent('message.received', client);
    await deliver(escalated, received);

    const [execution, ...more] = await executionsOf(escalations);
    expect(more).toEqual([]);
    expect(execution).toMatchObject({ started_how: 'event', started_by: null, trigger_event_id: escalated.id, trigger_event_type: 'conversation.escalated' });
    expect(await startedBy(messages)).toEqual([received.id]);
    const single = await admin.get(`/api/v1/automation-executions/${execution!.id}`);
    expect(single.json()).toMatchObject({ trigger_event_type: 'conversation.escalated' });
  });

  it('the run job POSTs the event as the request’s trigger', async () => {
    const client = await createTestClient(app);
    const automation = await create({ client_id: client.id, config: { triggers: [{ event: 'conversation.escalated' }], crm: 'x' } });
    const event = conversationEvent('conversation.escalated', client);
    await deliver(event);
    const [execution] = await executionsOf(automation);
    const body = await eventually(async () => {
      for (const r of workflow.received) {
        const parsed = JSON.parse(r.body.toString('utf8')) as AutomationTrigger;
        if (parsed.execution_id === execution!.id) return parsed;
      }
      return undefined;
    }, 'the trigger request');
    expect(body.trigger).toEqual({ type: 'conversation.escalated', event_id: event.id, data: event.envelope });
    expect(body.trigger!.data).toMatchObject({ type: 'conversation.escalated', data: { reason: 'The customer asked for a person' } });
    expect(body).toMatchObject({ client_id: client.id, automation_config: { crm: 'x' } });
  });

  it('applies the channel and conversation status filters', async () => {
    const client = await createTestClient(app);
    const whatsapp = await create({ client_id: client.id, config: { triggers: [{ event: 'message.received', filters: { channel: ['whatsapp', 'instagram'] } }] } });
    const pending = await create({ client_id: client.id, config: { triggers: [{ event: 'message.received', filters: { conversation_status: ['pending'] } }] } });
    const both = await create({
      client_id: client.id,
      config: { triggers: [{ event: 'message.received', filters: { channel: ['webchat'], conversation_status: ['escalated'] } }] },
    });
    const onWhatsapp = conversationEvent('message.received', client, { platform: 'whatsapp', status: 'active' });
    const onInstagramPending = conversationEvent('message.received', client, { platform: 'instagram', status: 'pending' });
    const onWebchat = conversationEvent('message.received', client, { platform: 'webchat', status: 'active' });
    const onWebchatEscalated = conversationEvent('message.received', client, { platform: 'webchat', status: 'escalated' });
    await deliver(onWhatsapp, onInstagramPending, onWebchat, onWebchatEscalated);

    expect((await startedBy(whatsapp)).sort()).toEqual([onWhatsapp.id, onInstagramPending.id].sort());
    expect(await startedBy(pending)).toEqual([onInstagramPending.id]);
    expect(await startedBy(both)).toEqual([onWebchatEscalated.id]);
  });

  it('keeps each automation to its client’s events; one without a client filters by client_id', async () => {
    const a = await createTestClient(app);
    const b = await createTestClient(app);
    const ofA = await create({ client_id: a.id, config: { triggers: ['conversation.resolved'] } });
    const ofB = await create({ client_id: b.id, config: { triggers: ['conversation.resolved'] } });
    const staffForB = await create({ client_id: null, config: { triggers: [{ event: 'conversation.resolved', filters: { client_id: b.id } }] } });
    const fromA = conversationEvent('conversation.resolved', a, { status: 'resolved' });
    const fromB = conversationEvent('conversation.resolved', b, { status: 'resolved' });
    await deliver(fromA, fromB);

    expect(await startedBy(ofA)).toEqual([fromA.id]);
    expect(await startedBy(ofB)).toEqual([fromB.id]);
    expect(await startedBy(staffForB)).toEqual([fromB.id]);
  });

  it('an automation without a client and without filters receives every client’s events', async () => {
    const a = await createTestClient(app);
    const b = await createTestClient(app);
    const everything = await create({ client_id: null, config: { triggers: ['conversation.created'] } });
    const fromA = conversationEvent('conversation.created', a);
    const fromB = conversationEvent('conversation.created', b);
    await deliver(fromA, fromB);
    expect((await startedBy(everything)).sort()).toEqual([fromA.id, fromB.id].sort());
    // Switched off, so it does not catch the other tests' events.
    expect((await admin.post(`/api/v1/automations/${everything}/status`, { status: 'inactive' })).statusCode).toBe(200);
  });

  it('does not start inactive or paused automations', async () => {
    const client = await createTestClient(app);
    const inactive = await create({ client_id: client.id, status: 'inactive', config: { triggers: ['conversation.escalated'] } });
    const paused = await create({ client_id: client.id, status: 'paused', config: { triggers: ['conversation.escalated'] } });
    const active = await create({ client_id: client.id, config: { triggers: ['conversation.escalated'] } });
    const event = conversationEvent('conversation.escalated', client);
    await deliver(event);
    expect(await executionsOf(inactive)).toEqual([]);
    expect(await executionsOf(paused)).toEqual([]);
    expect(await startedBy(active)).toEqual([event.id]);
  });

  it('never feeds an automation the events its own callbacks caused (loop guard), but others do receive them', async () => {
    const client = await createTestClient(app);
    const first = await create({ client_id: client.id, config: { triggers: ['message.received'] } });
    const second = await create({ client_id: client.id, config: { triggers: ['message.received'] } });
    const causedByFirst = conversationEvent('message.received', client, { performedBy: { kind: 'automation', automationId: first } });
    await deliver(causedByFirst);
    expect(await executionsOf(first)).toEqual([]);
    expect(await startedBy(second)).toEqual([causedByFirst.id]);
  });

  it('is not started by the end of its own runs, but may be by another automation’s', async () => {
    const client = await createTestClient(app);
    const watcher = await create({ client_id: client.id, config: { triggers: ['automation.execution.finished'] } });
    const other = await create({ client_id: client.id, config: {} });
    const finished = (automationId: string): StoredPublicEvent => {
      const now = new Date().toISOString();
      const id = randomUUID();
      const execution = {
        id: randomUUID(),
        automation_id: automationId,
        automation_name: 'x',
        client_id: client.id,
        status: 'success',
        started_at: now,
        finished_at: now,
        error_message: null,
        started_by_event: 'automation.execution.finished',
      };
      const envelope = envelopeSchemaFor('automation.execution.finished').parse({
        id,
        type: 'automation.execution.finished',
        created_at: now,
        api_version: EVENTS_API_VERSION,
        client_id: client.id,
        data: { execution },
      });
      return { id, type: 'automation.execution.finished', seq: String(++seq), clientId: client.id, conversationId: null, performedBy: { kind: 'system' }, envelope };
    };
    const own = finished(watcher);
    const others = finished(other);
    await deliver(own, others);
    expect(await startedBy(watcher)).toEqual([others.id]);
  });

  it('never starts the same automation twice for the same event', async () => {
    const client = await createTestClient(app);
    const automation = await create({ client_id: client.id, config: { triggers: ['conversation.escalated', { event: 'conversation.escalated', filters: { channel: ['whatsapp'] } }] } });
    const event = conversationEvent('conversation.escalated', client);
    await deliver(event);
    await deliver(event);
    await deliver(event, event);
    const executions = await executionsOf(automation);
    expect(executions.map((e) => e.trigger_event_id)).toEqual([event.id]);
    // One run job and one silence check, queued with it (and none for the repeats). (The public-event
    // outbox's `events.record` job for the execution's domain event is the events module's.)
    const jobs = await sql<{ name: string }>`select name from jobs where payload ->> 'executionId' = ${executions[0]!.id} and name like 'automations.%' order by name`.execute(
      app.database.db,
    );
    expect(jobs.rows.map((j) => j.name)).toEqual(['automations.check-silence', 'automations.run']);
  });

  it('starts hundreds of automations for one event in one batch, each with its jobs, and none of another client’s', async () => {
    const client = await createTestClient(app);
    const other = await createTestClient(app);
    const rows = (clientId: string, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        name: `Bulk ${i}`,
        status: 'active' as const,
        clientId,
        // No URL: their run jobs end at once ('Workflow URL not configured'), nothing leaves the machine.
        workflowUrl: null,
        config: JSON.stringify({ triggers: [{ event: 'contact.created' }] }),
        signingSecret: 'not used',
      }));
    // More than one insert chunk (500), and as many of another client's that must not start.
    await app.database.db.insertInto('automations').values(rows(client.id, 620)).execute();
    await app.database.db.insertInto('automations').values(rows(other.id, 300)).execute();
    const now = new Date().toISOString();
    const id = randomUUID();
    const contact = { id: randomUUID(), client_id: client.id, name: null, external_id: 'visitor-1', email: null, phone: null, created_at: now };
    const envelope = envelopeSchemaFor('contact.created').parse({ id, type: 'contact.created', created_at: now, api_version: EVENTS_API_VERSION, client_id: client.id, data: { contact } });
    await app.database.db.transaction().execute((trx) => app.services.automations.accept(trx, [{ id, type: 'contact.created', seq: String(++seq), clientId: client.id, conversationId: null, performedBy: { kind: 'customer' }, envelope }]));

    const counts = await sql<{ clientId: string; executions: number; runJobs: number }>`
      select a.client_id, count(e.id)::int as executions, count(j.id)::int as run_jobs
      from automations a
      left join automation_executions e on e.automation_id = a.id and e.trigger_event_id = ${id}
      left join jobs j on j.name = 'automations.run' and j.payload ->> 'executionId' = e.id::text
      where a.client_id in (${client.id}, ${other.id}) group by a.client_id`.execute(app.database.db);
    expect(Object.fromEntries(counts.rows.map((r) => [r.clientId, [r.executions, r.runJobs]]))).toEqual({ [client.id]: [620, 620], [other.id]: [0, 0] });
    await app.database.db.updateTable('automations').set({ status: 'inactive' }).where('clientId', 'in', [client.id, other.id]).execute();
  });

  it('rolls back with the transaction that stores the events', async () => {
    const client = await createTestClient(app);
    const automation = await create({ client_id: client.id, config: { triggers: ['conversation.escalated'] } });
    const event = conversationEvent('conversation.escalated', client);
    await expect(
      app.database.db.transaction().execute(async (trx) => {
        await app.services.automations.accept(trx, [event]);
        throw new Error('the event was not stored');
      }),
    ).rejects.toThrow('the event was not stored');
    expect(await executionsOf(automation)).toEqual([]);
  });

  it('refuses bad trigger configs with field messages', async () => {
    const client = await createTestClient(app);
    const post = (config: unknown, extra: Record<string, unknown> = {}) =>
      admin.post('/api/v1/automations', { name: 'Bad', workflow_id: 'wf', workflow_url: workflow.url, config, ...extra });
    const fields = async (config: unknown, extra?: Record<string, unknown>) => {
      const response = await post(config, extra);
      expect(response.statusCode, response.body).toBe(400);
      return response.json<{ error: { fields: Record<string, string> } }>().error.fields;
    };
    expect(await fields({ triggers: ['new_lead'] })).toEqual({ 'config.triggers.0.event': 'Unknown event type' });
    expect(await fields({ triggers: 'message.received' })).toEqual({ 'config.triggers': 'Triggers must be a list' });
    expect(await fields({ triggers: [{ event: 'message.received', filters: { channel: ['fax'] } }] })).toEqual({
      'config.triggers.0.filters.channel.0': 'Channel must be one of whatsapp, messenger, instagram, webchat, api',
    });
    expect(await fields({ triggers: [{ event: 'message.received', filters: { conversation_status: ['open'] } }] })).toEqual({
      'config.triggers.0.filters.conversation_status.0': 'Conversation status must be one of active, pending, escalated, resolved',
    });
    expect(await fields({ triggers: [{ event: 'message.received', filters: { client_id: 'nope' } }] })).toEqual({ 'config.triggers.0.filters.client_id': 'Client must be a valid id' });
    expect(Object.keys(await fields({ triggers: [{ event: 'message.received', filters: { language: ['es'] } }] }))).toEqual(['config.triggers.0.filters']);
    expect(await fields({ triggers: [{ event: 'contact.created', filters: { channel: ['whatsapp'] } }] })).toEqual({
      'config.triggers.0.filters.channel': 'contact.created has no conversation to filter by',
    });
    expect(await fields({ triggers: [{}] })).toEqual({ 'config.triggers.0.event': 'Unknown event type' });
    expect(await fields({ triggers: [42] })).toEqual({ 'config.triggers.0': 'A trigger must be an object with an event' });
    expect(await fields({ triggers: Array.from({ length: 21 }, () => 'message.received') })).toEqual({ 'config.triggers': 'At most 20 triggers' });
    // A client's automation only receives that client's events: a filter naming another client is refused.
    const other = await createTestClient(app);
    expect(await fields({ triggers: [{ event: 'message.received', filters: { client_id: other.id } }] }, { client_id: client.id })).toEqual({
      'config.triggers.0.filters.client_id': 'This automation only receives its own client’s events; remove this client filter or choose that client',
    });
    // On update too (also when only the client changes).
    const id = await create({ client_id: null, config: { triggers: [{ event: 'message.received', filters: { client_id: other.id } }] } });
    const moved = await admin.patch(`/api/v1/automations/${id}`, { client_id: client.id });
    expect(moved.statusCode, moved.body).toBe(400);
    const patched = await admin.patch(`/api/v1/automations/${id}`, { config: { triggers: [{ event: 'nope' }] } });
    expect(patched.json()).toMatchObject({ error: { fields: { 'config.triggers.0.event': 'Unknown event type' } } });
    // Empty filter lists are no filter; lists are deduplicated.
    const normalized = await admin.patch(`/api/v1/automations/${id}`, {
      status: 'inactive',
      config: { triggers: [{ event: 'message.received', filters: { channel: ['whatsapp', 'whatsapp'], conversation_status: [] } }] },
    });
    expect(normalized.statusCode, normalized.body).toBe(200);
    expect(normalized.json()).toMatchObject({ config: { triggers: [{ event: 'message.received', filters: { channel: ['whatsapp'] } }] } });
  });

  it('a template’s triggers become the assigned client’s automation’s, and its events run it', async () => {
    const client = await createTestClient(app);
    const created = await admin.post('/api/v1/templates', {
      name: 'Escalations to the CRM',
      type: 'n8n',
      workflowConfig: { webhookUrl: workflow.url, triggers: [{ event: 'conversation.escalated', filters: { channel: ['webchat'] } }] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const template = created.json<TemplateView>();
    expect(template.workflowConfig.triggers).toEqual([{ event: 'conversation.escalated', filters: { channel: ['webchat'] } }]);
    const refused = await admin.post('/api/v1/templates', {
      name: 'Bad',
      type: 'n8n',
      workflowConfig: { webhookUrl: workflow.url, triggers: [{ event: 'conversation.escalated', filters: { client_id: client.id } }] },
    });
    expect(refused.json()).toMatchObject({ error: { fields: { 'workflowConfig.triggers.0.filters.client_id': 'A template’s trigger cannot name a client' } } });

    const assigned = await admin.post(`/api/v1/templates/${template.id}/clients`, { clientId: client.id });
    expect(assigned.statusCode, assigned.body).toBe(201);
    const automationId = assigned.json<TemplateView>().clientAssignments[0]!.automationId!;
    const automation = (await admin.get(`/api/v1/automations/${automationId}`)).json<{ status: string; config: Record<string, unknown> }>();
    expect(automation).toMatchObject({ status: 'active', config: { triggers: [{ event: 'conversation.escalated', filters: { channel: ['webchat'] } }] } });

    const onWebchat = conversationEvent('conversation.escalated', client, { platform: 'webchat' });
    const onWhatsapp = conversationEvent('conversation.escalated', client, { platform: 'whatsapp' });
    await deliver(onWebchat, onWhatsapp);
    expect(await startedBy(automationId)).toEqual([onWebchat.id]);
  });
});
