/**
 * Automations over HTTP (issue 13 §3–§4, §7): roles and tenant isolation, Run (the signed trigger
 * received by a loopback workflow), the callbacks (token, forward-only statuses, duration, size
 * caps, fuzzed bodies never 500), the silence timeout and the reconciliation job, SSRF refusals,
 * and the live events on the WebSocket.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationView, CreatedAutomation, ExecutionView } from '../../../common/api/automations';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer, type ReceivedCallback } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { createTestClient } from '../../../test/helpers/messaging';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';
import { connectRealtime, cookieHeader } from '../../../test/helpers/realtime';
import type { ExecutionReconciler } from './automations.service';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 8_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function verifies(received: ReceivedCallback, secret: string): boolean {
  const timestamp = received.headers['x-parley-timestamp'];
  const expected = createHmac('sha256', secret).update(Buffer.concat([Buffer.from(`${String(timestamp)}.`), received.body])).digest('hex');
  return received.headers['x-parley-signature'] === `sha256=${expected}`;
}

interface Trigger {
  execution_id: string;
  automation_config: Record<string, unknown>;
  client_id: string | null;
  timestamp: string;
  callback: { messages_url: string; status_url: string; token: string };
}

describe.each(ENGINES)('automations (%s)', (engine) => {
  let app: TestApp;
  let workflow: CallbackServer;
  let admin: TestClient;
  let adminId: string;
  let manager: TestClient;
  let mineUser: TestClient;
  let theirsUser: TestClient;
  let mine: { id: string };
  let theirs: { id: string };

  beforeAll(async () => {
    app = await createTestApp(engine, { env: ALLOW_LOOPBACK_FAKES });
    workflow = await startCallbackServer();
    ({ client: admin, userId: adminId } = await signedInClient(app, 'admin'));
    ({ client: manager } = await signedInClient(app, 'manager'));
    mine = await createTestClient(app, 'Mine');
    theirs = await createTestClient(app, 'Theirs');
    const m = await signedInClient(app, 'client');
    const t = await signedInClient(app, 'client');
    await app.database.db.updateTable('users').set({ clientId: mine.id }).where('id', '=', m.userId).execute();
    await app.database.db.updateTable('users').set({ clientId: theirs.id }).where('id', '=', t.userId).execute();
    mineUser = m.client;
    theirsUser = t.client;
  });
  afterAll(async () => {
    await workflow.close();
    await app.destroy();
  });

  async function create(body: Record<string, unknown> = {}): Promise<CreatedAutomation> {
    const response = await admin.post('/api/v1/automations', {
      name: 'Lead follow-up',
      workflow_id: 'wf-1',
      workflow_url: workflow.url,
      client_id: mine.id,
      status: 'active',
      ...body,
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json();
  }

  const execution = async (id: string) => (await admin.get(`/api/v1/automation-executions/${id}`)).json<ExecutionView>();

  /** Runs an automation and waits for the workflow to receive the trigger; its parsed body. */
  async function runAndReceive(automationId: string, user: TestClient = admin): Promise<{ execution: ExecutionView; trigger: Trigger; received: ReceivedCallback }> {
    const before = workflow.received.length;
    const response = await user.post(`/api/v1/automations/${automationId}/run`);
    expect(response.statusCode, response.body).toBe(201);
    const started = response.json<ExecutionView>();
    const received = await eventually(
      async () => workflow.received.slice(before).find((r) => (JSON.parse(r.body.toString('utf8')) as Trigger).execution_id === started.id),
      'the trigger request',
    );
    return { execution: started, trigger: JSON.parse(received.body.toString('utf8')) as Trigger, received };
  }

  const callback = (method: 'POST' | 'PATCH', url: string, token: string | null, body: unknown) =>
    app.inject({
      method,
      url: url.replace('http://localhost:3000', ''),
      headers: { 'content-type': 'application/json', ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });

  describe('managing automations', () => {
    it('creates with the spec defaults, shows the signing secret once, and requires name, workflow_id and workflow_url', async () => {
      const response = await admin.post('/api/v1/automations', { name: 'Bare', workflow_id: 'x', workflow_url: 'https://hooks.example.com/a' });
      expect(response.statusCode, response.body).toBe(201);
      const created = response.json<CreatedAutomation>();
      expect(created.automation).toMatchObject({ status: 'inactive', config: {}, client_id: null, created_by: adminId, description: null });
      expect(created.signing_secret.length).toBeGreaterThan(20);
      expect(JSON.stringify((await admin.get(`/api/v1/automations/${created.automation.id}`)).json())).not.toContain(created.signing_secret);
      const stored = await app.database.db.selectFrom('automations').select('signingSecret').where('id', '=', created.automation.id).executeTakeFirstOrThrow();
      expect(stored.signingSecret).not.toContain(created.signing_secret);

      const missing = await admin.post('/api/v1/automations', { name: ' ', workflow_id: '', description: 'd' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json().error.fields).toMatchObject({ name: 'Name is required', workflow_id: 'Workflow ID is required', workflow_url: 'Workflow URL is required' });
      const badUrl = await admin.post('/api/v1/automations', { name: 'n', workflow_id: 'w', workflow_url: 'ftp://x.example.com' });
      expect(badUrl.json().error.fields).toMatchObject({ workflow_url: 'Workflow URL must be a valid http(s) URL' });
      const unknownClient = await admin.post('/api/v1/automations', { name: 'n', workflow_id: 'w', workflow_url: 'https://x.example.com', client_id: '00000000-0000-4000-8000-000000000000' });
      expect(unknownClient.statusCode).toBe(400);
      expect(unknownClient.json().error.fields).toMatchObject({ client_id: 'Client not found' });
      const badStatus = await admin.post('/api/v1/automations', { name: 'n', workflow_id: 'w', workflow_url: 'https://x.example.com', status: 'error' });
      expect(badStatus.statusCode).toBe(400);
    });

    it('lists newest first; client users see only their client’s; managers see all', async () => {
      const a = await create({ name: 'First' });
      const b = await create({ name: 'Second', client_id: theirs.id });
      const c = await create({ name: 'Third' });
      await sql`update automations set created_at = '2020-01-01T00:00:00Z' where id = ${a.automation.id}`.execute(app.database.db);
      const all = (await manager.get('/api/v1/automations')).json<{ automations: AutomationView[] }>().automations.map((x) => x.id);
      expect(all.indexOf(c.automation.id)).toBeLessThan(all.indexOf(b.automation.id));
      expect(all.indexOf(b.automation.id)).toBeLessThan(all.indexOf(a.automation.id));
      const own = (await mineUser.get('/api/v1/automations')).json<{ automations: AutomationView[] }>().automations;
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((x) => x.client_id === mine.id)).toBe(true);
      expect(own.map((x) => x.id)).toContain(a.automation.id);
      expect(own.map((x) => x.id)).not.toContain(b.automation.id);
    });

    it('only admins create, edit and delete; client users may not change URLs', async () => {
      const { automation } = await create();
      const body = { name: 'x', workflow_id: 'y', workflow_url: 'https://evil.example.com' };
      for (const user of [manager, mineUser]) {
        expect((await user.post('/api/v1/automations', body)).statusCode).toBe(403);
        expect((await user.patch(`/api/v1/automations/${automation.id}`, { workflow_url: 'https://evil.example.com' })).statusCode).toBe(403);
        expect((await user.delete(`/api/v1/automations/${automation.id}`)).statusCode).toBe(403);
        expect((await user.post(`/api/v1/automations/${automation.id}/rotate-secret`)).statusCode).toBe(403);
      }
      const edited = await admin.patch(`/api/v1/automations/${automation.id}`, { name: 'Renamed', description: 'Now described', config: { triggers: ['lead.qualified'], crm_list_id: 7 } });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ name: 'Renamed', description: 'Now described', config: { triggers: [{ event: 'lead.qualified' }], crm_list_id: 7 }, workflow_url: workflow.url });
      expect((await admin.get(`/api/v1/automations/${automation.id}`)).json()).toMatchObject({ config: { triggers: [{ event: 'lead.qualified' }], crm_list_id: 7 } });
      expect((await admin.patch(`/api/v1/automations/${automation.id}`, { workflow_url: '' })).json().error.fields).toMatchObject({ workflow_url: 'Workflow URL is required' });
      expect((await admin.patch(`/api/v1/automations/${automation.id}`, {})).statusCode).toBe(400);
      expect((await admin.delete(`/api/v1/automations/${automation.id}`)).statusCode).toBe(204);
      expect((await admin.get(`/api/v1/automations/${automation.id}`)).statusCode).toBe(404);
      expect((await admin.delete(`/api/v1/automations/${automation.id}`)).statusCode).toBe(404);
    });

    it('status: admins, managers and the client’s own users set it; another client’s user gets 404', async () => {
      const { automation } = await create({ status: 'inactive' });
      expect((await mineUser.post(`/api/v1/automations/${automation.id}/status`, { status: 'active' })).json()).toMatchObject({ status: 'active' });
      expect((await manager.post(`/api/v1/automations/${automation.id}/status`, { status: 'paused' })).json()).toMatchObject({ status: 'paused' });
      expect((await admin.post(`/api/v1/automations/${automation.id}/status`, { status: 'active' })).json()).toMatchObject({ status: 'active' });
      expect((await theirsUser.post(`/api/v1/automations/${automation.id}/status`, { status: 'paused' })).statusCode).toBe(404);
      const bad = await admin.post(`/api/v1/automations/${automation.id}/status`, { status: 'error' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error.fields).toMatchObject({ status: 'Status must be active, paused or inactive' });
    });

    it('a client user gets 404 for another client’s automation, its executions, messages and execution, and for staff-only automations', async () => {
      const { automation } = await create();
      const { execution: run } = await runAndReceive(automation.id);
      const staffOnly = await create({ client_id: null });
      for (const url of [
        `/api/v1/automations/${automation.id}`,
        `/api/v1/automations/${automation.id}/executions`,
        `/api/v1/automations/${automation.id}/messages`,
        `/api/v1/automation-executions/${run.id}`,
        `/api/v1/automations/${staffOnly.automation.id}`,
      ]) {
        expect((await theirsUser.get(url)).statusCode, url).toBe(404);
        expect((await mineUser.get(url.replace(staffOnly.automation.id, automation.id))).statusCode, url).toBe(200);
      }
      expect((await theirsUser.post(`/api/v1/automations/${automation.id}/run`)).statusCode).toBe(404);
      expect((await mineUser.get('/api/v1/automations')).json<{ automations: AutomationView[] }>().automations.map((a) => a.id)).not.toContain(staffOnly.automation.id);
    });

    it('createFromTemplate (for the workflows module) makes the client’s automation', async () => {
      const made = await app.services.automations.createFromTemplate({
        clientId: mine.id,
        name: 'From template',
        description: 'Template description',
        workflowUrl: workflow.url,
        config: { triggers: ['new_lead'] },
        createdBy: adminId,
      });
      expect(made).toMatchObject({ client_id: mine.id, name: 'From template', workflow_url: workflow.url, status: 'inactive', config: { triggers: ['new_lead'] }, workflow_id: null });
      expect((await mineUser.get(`/api/v1/automations/${made.id}`)).statusCode).toBe(200);
    });
  });

  describe('Run', () => {
    it("requires a workflow URL ('Workflow URL not configured') and refuses an inactive automation", async () => {
      const noUrl = await app.services.automations.createFromTemplate({ clientId: mine.id, name: 'No URL', workflowUrl: null, createdBy: null, status: 'active' });
      const response = await mineUser.post(`/api/v1/automations/${noUrl.id}/run`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.message).toBe('Workflow URL not configured');
      const { automation } = await create({ status: 'inactive' });
      expect((await admin.post(`/api/v1/automations/${automation.id}/run`)).statusCode).toBe(409);
      expect((await admin.get(`/api/v1/automations/${automation.id}/executions`)).json().executions).toEqual([]);
    });

    it('stores a running execution and POSTs the signed trigger with the callback URLs; the answer’s execution_id is kept', async () => {
      const { automation, signing_secret } = await create({ config: { greeting: 'hi' } });
      workflow.script({ status: 200, body: JSON.stringify({ execution_id: 'n8n-4242' }) });
      const { execution: started, trigger, received } = await runAndReceive(automation.id, mineUser);
      workflow.script({ status: 200, body: '{"ok":true}' });
      expect(started).toMatchObject({ status: 'running', automation_id: automation.id, started_how: 'manual', finished_at: null, duration_ms: null });
      expect(verifies(received, signing_secret)).toBe(true);
      expect(verifies(received, 'another-secret')).toBe(false);
      expect(Math.abs(Number(received.headers['x-parley-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
      expect(received.headers['content-type']).toBe('application/json');
      expect(trigger).toMatchObject({
        execution_id: started.id,
        automation_config: { greeting: 'hi' },
        client_id: mine.id,
        callback: {
          messages_url: `http://localhost:3000/api/v1/automation-executions/${started.id}/messages`,
          status_url: `http://localhost:3000/api/v1/automation-executions/${started.id}`,
        },
      });
      expect(new Date(trigger.timestamp).toISOString()).toBe(trigger.timestamp);
      const stored = await app.database.db.selectFrom('automationExecutions').selectAll().where('id', '=', started.id).executeTakeFirstOrThrow();
      expect(stored.callbackTokenHash).not.toBe(trigger.callback.token);
      expect(JSON.stringify(stored)).not.toContain(trigger.callback.token);
      await eventually(async () => (await execution(started.id)).execution_id === 'n8n-4242', 'the external execution id');
      // Newest first.
      const second = await runAndReceive(automation.id);
      const history = (await mineUser.get(`/api/v1/automations/${automation.id}/executions`)).json<{ executions: ExecutionView[] }>().executions;
      expect(history.map((e) => e.id)).toEqual([second.execution.id, started.id]);
    });

    it('rotating the signing secret shows the new one once; the next trigger is signed with it only', async () => {
      const { automation, signing_secret: old } = await create();
      const rotated = await admin.post(`/api/v1/automations/${automation.id}/rotate-secret`);
      expect(rotated.statusCode).toBe(200);
      const fresh = rotated.json<CreatedAutomation>().signing_secret;
      expect(fresh).not.toBe(old);
      const { received, trigger } = await runAndReceive(automation.id);
      expect(verifies(received, fresh)).toBe(true);
      expect(verifies(received, old)).toBe(false);
      expect((await callback('POST', trigger.callback.messages_url, trigger.callback.token, { content: 'still works' })).statusCode).toBe(201);
    });

    it("a non-2xx answer (a redirect too, never followed) makes the execution an error 'HTTP error! status: {code}'", async () => {
      const { automation } = await create();
      for (const answer of [
        { status: 500, expected: 'HTTP error! status: 500' },
        { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' }, expected: 'HTTP error! status: 302' },
      ]) {
        workflow.script({ status: answer.status, headers: answer.headers });
        const { execution: started } = await runAndReceive(automation.id);
        const done = await eventually(async () => {
          const e = await execution(started.id);
          return e.status === 'error' ? e : undefined;
        }, 'the error');
        expect(done).toMatchObject({ error_message: answer.expected });
        expect(done.finished_at).not.toBeNull();
        expect(done.duration_ms).toBeGreaterThanOrEqual(0);
      }
      workflow.script({ status: 200, body: '{"ok":true}' });
    });

    it('keeps at most 50 executions and 100 messages in the lists', async () => {
      const { automation } = await create();
      const { trigger } = await runAndReceive(automation.id);
      const db = app.database.db;
      const rows = Array.from({ length: 55 }, (_, i) => ({
        automationId: automation.id,
        status: 'success' as const,
        startedAt: new Date(Date.UTC(2025, 0, 1, 0, i)),
        finishedAt: new Date(Date.UTC(2025, 0, 1, 0, i, 1)),
        durationMs: 1000,
        callbackTokenHash: 'a'.repeat(64),
      }));
      await db.insertInto('automationExecutions').values(rows).execute();
      const messages = Array.from({ length: 105 }, (_, i) => ({ automationId: automation.id, content: `m${i}`, timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, i)) }));
      await db.insertInto('automationMessages').values(messages).execute();
      const posted = await callback('POST', trigger.callback.messages_url, trigger.callback.token, { step_name: 'Latest', content: 'newest', message_type: 'success' });
      expect(posted.statusCode, posted.body).toBe(201);
      const history = (await admin.get(`/api/v1/automations/${automation.id}/executions`)).json<{ executions: ExecutionView[] }>().executions;
      expect(history).toHaveLength(50);
      expect(history[0]!.id).toBe(trigger.execution_id);
      const listed = (await admin.get(`/api/v1/automations/${automation.id}/messages`)).json<{ messages: { content: string }[] }>().messages;
      expect(listed).toHaveLength(100);
      expect(listed[0]!.content).toBe('newest');
      expect(listed[1]!.content).toBe('m104');
    });
  });

  describe('callbacks', () => {
    it('step messages: Bearer token of this execution only, no session or CSRF; newest first', async () => {
      const { automation } = await create();
      const { trigger } = await runAndReceive(automation.id);
      const other = await runAndReceive(automation.id);
      const url = trigger.callback.messages_url;
      const ok = await callback('POST', url, trigger.callback.token, { step_name: 'Fetch lead', message_type: 'info', content: 'Fetched', metadata: { rows: 3 } });
      expect(ok.statusCode, ok.body).toBe(201);
      expect(ok.json()).toMatchObject({ automation_id: automation.id, execution_id: trigger.execution_id, step_name: 'Fetch lead', message_type: 'info', content: 'Fetched', metadata: { rows: 3 } });
      // A workflow's own JSON comes back exactly as sent: nested snake_case keys are not camel-cased.
      const own = { order_id: 'A-1', line_items: [{ sku_code: 'X-9', unit_price: 5 }], customer: { first_name: 'Ana' } };
      expect((await callback('POST', url, trigger.callback.token, { content: 'Order read', metadata: own })).statusCode).toBe(201);
      const stored = (await admin.get(`/api/v1/automations/${automation.id}/messages`)).json<{ messages: { content: string; metadata: unknown }[] }>().messages;
      expect(stored.find((m) => m.content === 'Order read')?.metadata).toEqual(own);
      const second = await callback('POST', url, trigger.callback.token, { content: 'No step, no type' });
      expect(second.json()).toMatchObject({ step_name: null, message_type: 'info', metadata: {} });
      const refused = [
        await callback('POST', url, null, { content: 'x' }),
        await callback('POST', url, 'wrong', { content: 'x' }),
        await callback('POST', url, other.trigger.callback.token, { content: 'x' }),
        await callback('POST', '/api/v1/automation-executions/not-a-uuid/messages', trigger.callback.token, { content: 'x' }),
        await callback('POST', '/api/v1/automation-executions/00000000-0000-4000-8000-000000000000/messages', trigger.callback.token, { content: 'x' }),
        await callback('PATCH', trigger.callback.status_url, other.trigger.callback.token, { status: 'success' }),
      ];
      expect(refused.map((r) => r.statusCode)).toEqual(refused.map(() => 401));
      const listed = (await mineUser.get(`/api/v1/automations/${automation.id}/messages`)).json<{ messages: { content: string }[] }>().messages;
      expect(listed.map((m) => m.content)).toEqual(['No step, no type', 'Order read', 'Fetched']);
    });

    it('statuses only move forward; finished_at and duration_ms are set once; the token expires after the grace period', async () => {
      const { automation } = await create();
      const { trigger } = await runAndReceive(automation.id);
      const { token, status_url: url, messages_url: messagesUrl } = trigger.callback;
      await eventually(async () => (await app.database.db.selectFrom('jobs').select('id').where('name', '=', 'automations.run').where('status', 'in', ['queued', 'running']).execute()).length === 0, 'the run job');
      const waiting = await callback('PATCH', url, token, { status: 'waiting', execution_id: 777 });
      expect(waiting.statusCode, waiting.body).toBe(200);
      expect(waiting.json()).toMatchObject({ status: 'waiting', execution_id: '777', finished_at: null, duration_ms: null });
      const back = await callback('PATCH', url, token, { status: 'running' });
      expect(back.statusCode).toBe(409);
      expect(back.json().error.message).toContain('only move forward');
      const done = await callback('PATCH', url, token, { status: 'success', execution_id: 'other' });
      expect(done.statusCode).toBe(200);
      const finished = done.json<ExecutionView>();
      expect(finished).toMatchObject({ status: 'success', execution_id: '777', error_message: null });
      expect(finished.finished_at).not.toBeNull();
      expect(finished.duration_ms).toBe(new Date(finished.finished_at!).getTime() - new Date(finished.started_at).getTime());
      // The same final status again is accepted and changes nothing; another final status is refused.
      const again = await callback('PATCH', url, token, { status: 'success' });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ finished_at: finished.finished_at, duration_ms: finished.duration_ms });
      expect((await callback('PATCH', url, token, { status: 'error', error_message: 'late' })).statusCode).toBe(409);
      expect((await execution(trigger.execution_id)).error_message).toBeNull();
      // Late step messages within the grace period are kept; after it, 401.
      expect((await callback('POST', messagesUrl, token, { content: 'late but fine' })).statusCode).toBe(201);
      await app.database.db.updateTable('automationExecutions').set({ callbackTokenExpiresAt: new Date(Date.now() - 1000) }).where('id', '=', trigger.execution_id).execute();
      expect((await callback('POST', messagesUrl, token, { content: 'too late' })).statusCode).toBe(401);
      expect((await callback('PATCH', url, token, { status: 'success' })).statusCode).toBe(401);
    });

    it('an error report keeps its message; malformed and oversized bodies are 4xx with field messages', async () => {
      const { automation } = await create();
      const { trigger } = await runAndReceive(automation.id);
      const { token, status_url: url, messages_url: messagesUrl } = trigger.callback;
      const big = await callback('POST', messagesUrl, token, { content: 'x', metadata: { blob: 'y'.repeat(17 * 1024) } });
      expect(big.statusCode).toBe(400);
      expect(big.json().error.fields).toMatchObject({ metadata: 'Metadata is too large (at most 16 KB as JSON)' });
      const cases: [unknown, string][] = [
        [{ content: 'x', metadata: [1, 2] }, 'metadata'],
        [{ content: 'x', metadata: 'text' }, 'metadata'],
        [{ step_name: 'no content' }, 'content'],
        [{ content: 'x'.repeat(10_001) }, 'content'],
        [{ content: 'x', message_type: '' }, 'message_type'],
      ];
      for (const [body, field] of cases) {
        const response = await callback('POST', messagesUrl, token, body);
        expect(response.statusCode, JSON.stringify(body)).toBe(400);
        expect(Object.keys(response.json().error.fields ?? {}), JSON.stringify(body)).toContain(field);
      }
      expect((await callback('POST', messagesUrl, token, '{"content":')).statusCode).toBe(400);
      const badStatus = await callback('PATCH', url, token, { status: 'finished' });
      expect(badStatus.statusCode).toBe(400);
      expect(badStatus.json().error.fields).toHaveProperty('status');
      expect((await callback('PATCH', url, token, {})).statusCode).toBe(400);
      const failed = await callback('PATCH', url, token, { status: 'error', error_message: 'Node "Send email" failed' });
      expect(failed.json()).toMatchObject({ status: 'error', error_message: 'Node "Send email" failed' });
    });

    it('fuzzed callback bodies never answer 500', async () => {
      const { automation } = await create();
      const { trigger } = await runAndReceive(automation.id);
      const { token, status_url: url, messages_url: messagesUrl } = trigger.callback;
      const value = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('', '\u0000', '\ud800', 'success', 'waiting', 'running'));
      const body = fc.oneof(
        fc.record({ step_name: value, message_type: value, content: value, metadata: value, status: value, error_message: value, execution_id: value }, { requiredKeys: [] }),
        fc.jsonValue({ maxDepth: 3 }),
      );
      await fc.assert(
        fc.asyncProperty(body, fc.boolean(), fc.boolean(), async (b, patch, withToken) => {
          const response = await callback(patch ? 'PATCH' : 'POST', patch ? url : messagesUrl, withToken ? token : 'nope', b);
          expect(response.statusCode, `${JSON.stringify(b)} → ${response.body}`).toBeLessThan(500);
          expect(response.statusCode).toBeGreaterThanOrEqual(200);
        }),
        { numRuns: 60, seed: SEED },
      );
      // Raw bytes that are not JSON.
      for (const raw of ['', 'null', '[]', '{"metadata":{"a":', '\u0000', '{"content":"\\ud800"}']) {
        expect((await callback('POST', messagesUrl, token, raw)).statusCode, raw).toBeLessThan(500);
      }
    });
  });

  describe('live events', () => {
    it('pushes step messages and status changes to subscribed users, a client user only its own automations', async () => {
      await app.server.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.server.address();
      if (typeof address !== 'object' || address === null) throw new Error('no address');
      const base = `http://127.0.0.1:${address.port}`;
      const { automation } = await create();
      const foreign = await create({ client_id: theirs.id });
      const mineSocket = await connectRealtime(base, { cookie: cookieHeader(mineUser.cookies) });
      const theirsSocket = await connectRealtime(base, { cookie: cookieHeader(theirsUser.cookies) });
      const managerSocket = await connectRealtime(base, { cookie: cookieHeader(manager.cookies) });
      expect(await mineSocket.subscribe(`automation:${automation.id}`)).toMatchObject({ type: 'subscribed' });
      expect(await theirsSocket.subscribe(`automation:${automation.id}`)).toMatchObject({ type: 'error', code: 'NOT_FOUND' });
      expect(await theirsSocket.subscribe('automations')).toMatchObject({ type: 'subscribed' });
      expect(await managerSocket.subscribe('automations')).toMatchObject({ type: 'subscribed' });

      const { trigger } = await runAndReceive(automation.id, mineUser);
      await mineSocket.next((m) => m.type === 'event' && m.event === 'automation.execution.updated' && (m.data as ExecutionView).id === trigger.execution_id);
      const posted = await callback('POST', trigger.callback.messages_url, trigger.callback.token, { step_name: 'Step 1', content: 'live', message_type: 'success' });
      const message = await mineSocket.next((m) => m.type === 'event' && m.event === 'automation.message.created');
      expect(message).toMatchObject({ topic: `automation:${automation.id}`, data: { id: posted.json().id, content: 'live', step_name: 'Step 1' } });
      await managerSocket.next((m) => m.type === 'event' && m.event === 'automation.message.created' && (m.data as { id: string }).id === posted.json().id);
      await callback('PATCH', trigger.callback.status_url, trigger.callback.token, { status: 'success' });
      await mineSocket.next((m) => m.type === 'event' && m.event === 'automation.execution.updated' && (m.data as ExecutionView).status === 'success');

      const foreignRun = await runAndReceive(foreign.automation.id);
      await theirsSocket.next((m) => m.type === 'event' && (m.data as ExecutionView).id === foreignRun.execution.id);
      expect(theirsSocket.messages.some((m) => m.type === 'event' && JSON.stringify(m.data).includes(trigger.execution_id))).toBe(false);
      expect(mineSocket.messages.some((m) => m.type === 'event' && JSON.stringify(m.data).includes(foreignRun.execution.id))).toBe(false);
      for (const s of [mineSocket, theirsSocket, managerSocket]) s.close();
    });
  });
});

describe.each(ENGINES)('automations: silence, reconciliation and SSRF (%s)', (engine) => {
  const verdicts = new Map<string, Awaited<ReturnType<ExecutionReconciler['finalStatus']>>>();
  const reconciler: ExecutionReconciler = { finalStatus: async ({ executionId }) => verdicts.get(executionId) ?? null };
  let app: TestApp;
  let admin: TestClient;
  let workflow: CallbackServer;
  beforeAll(async () => {
    // 1.2 s of silence is the timeout here; loopback is allowed for the fake workflow.
    app = await createTestApp(engine, { env: { ...ALLOW_LOOPBACK_FAKES, AUTOMATION_SILENCE_TIMEOUT: '0.02' }, executionReconciler: reconciler });
    workflow = await startCallbackServer();
    ({ client: admin } = await signedInClient(app, 'admin'));
  });
  afterAll(async () => {
    await workflow.close();
    await app.destroy();
  });

  async function runOnce(answer: string): Promise<ExecutionView> {
    const created = await admin.post('/api/v1/automations', { name: 'Silent', workflow_id: 'n8n-wf', workflow_url: workflow.url, status: 'active' });
    workflow.script({ status: 200, body: answer });
    const run = await admin.post(`/api/v1/automations/${created.json<CreatedAutomation>().automation.id}/run`);
    expect(run.statusCode, run.body).toBe(201);
    return run.json();
  }

  const waitFinal = (id: string) =>
    eventually(async () => {
      const e = (await admin.get(`/api/v1/automation-executions/${id}`)).json<ExecutionView>();
      return e.status !== 'running' && e.status !== 'waiting' ? e : undefined;
    }, 'a final status');

  it('an execution that hears nothing becomes an error with a clear message', async () => {
    const started = await runOnce('{"ok":true}');
    const done = await waitFinal(started.id);
    expect(done).toMatchObject({ status: 'error', error_message: 'Timed out: the workflow reported nothing for 1 second' });
    expect(done.duration_ms).toBeGreaterThanOrEqual(1000);
  });

  it('with an n8n execution id, n8n’s own final status and error are recorded instead', async () => {
    const started = await runOnce('{"id":"n8n-exec-9"}');
    verdicts.set('n8n-exec-9', { status: 'error', error: 'Node "HTTP Request" failed: 404' });
    const done = await waitFinal(started.id);
    expect(done).toMatchObject({ status: 'error', error_message: 'Node "HTTP Request" failed: 404', execution_id: 'n8n-exec-9' });
  });

  it('while n8n says it still runs, the check is scheduled again with backoff', async () => {
    const started = await runOnce('{"execution_id":"n8n-exec-10"}');
    verdicts.set('n8n-exec-10', 'running');
    await eventually(
      async () => {
        const jobs = await app.database.db.selectFrom('jobs').select(['payload', 'runAt']).where('name', '=', 'automations.check-silence').execute();
        return jobs.some((j) => JSON.stringify(j.payload).includes(started.id) && JSON.stringify(j.payload).includes('"attempt":1'));
      },
      'the rescheduled check',
    );
    expect((await admin.get(`/api/v1/automation-executions/${started.id}`)).json()).toMatchObject({ status: 'running' });
    verdicts.set('n8n-exec-10', { status: 'success' });
    await app.services.automations.checkSilence(started.id, 1);
    expect((await admin.get(`/api/v1/automation-executions/${started.id}`)).json()).toMatchObject({ status: 'success', error_message: null });
  });

  it('refuses loopback, private, link-local and metadata workflow URLs without the allowlist, when saved and when run', async () => {
    // Its own database: the jobs of an instance with loopback allowed must not take these runs.
    const strict = await createTestApp(engine);
    try {
      const { client } = await signedInClient(strict, 'admin');
      for (const url of ['http://127.0.0.1:8080/hook', 'http://[::1]/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost:5678/webhook/x']) {
        const saved = await client.post('/api/v1/automations', { name: 'SSRF', workflow_id: 'w', workflow_url: url });
        expect(saved.statusCode, url).toBe(400);
        expect(saved.json().error.fields.workflow_url, url).toMatch(/^Refused/u);
      }
      for (const url of ['http://127.0.0.1:9/hook', 'http://[::1]:9/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data', 'http://localhost:9/hook']) {
        const created = await client.post('/api/v1/automations', { name: 'SSRF', workflow_id: 'w', workflow_url: 'https://hooks.example.com/x', status: 'active' });
        const id = created.json<CreatedAutomation>().automation.id;
        // As if saved before the rule existed, or by another way in: the request is refused where it connects.
        await strict.database.db.updateTable('automations').set({ workflowUrl: url }).where('id', '=', id).execute();
        const run = await client.post(`/api/v1/automations/${id}/run`);
        const done = await eventually(async () => {
          const e = (await client.get(`/api/v1/automation-executions/${run.json<ExecutionView>().id}`)).json<ExecutionView>();
          return e.status === 'error' ? e : undefined;
        }, `the refusal of ${url}`);
        expect(done.error_message, url).toMatch(/^Refused/u);
      }
    } finally {
      await strict.destroy();
    }
  });
});
