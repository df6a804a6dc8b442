/**
 * The whole journey against a real n8n (`npm run test:n8n`, issue 13 §7): Parley listens on a
 * loopback port (its PUBLIC_URL, so the run's callback URLs point at it and n8n can call them) and
 * everything on Parley's side goes through its own API — connect n8n, import the starter workflow
 * (put into n8n through n8n's public API, as a user imports the JSON, and activated there), create
 * an automation from it, Run: n8n's step message and the final 'success' reach Parley (stored and
 * pushed over the WebSocket) with n8n's execution id. A failing variant ends as 'error' with n8n's
 * own message, found by reconciliation once the run goes silent (silence shortened to 6 s).
 * Toggling the linked workflow in Parley deactivates it in n8n.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AutomationMessageView, CreatedAutomation, ExecutionView } from '../../common/api/automations';
import type { ImportN8nWorkflowsResponse, WorkflowView } from '../../common/api/workflows';
import { starterWorkflow, starterWorkflowVariant } from '../../server/modules/n8n';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../helpers/app';
import { expectJson } from '../helpers/inbox';
import { type RealN8n, startN8n } from '../helpers/n8n';
import { connectRealtime, cookieHeader, type TestSocket } from '../helpers/realtime';

const FAILURE = 'The starter workflow failed on purpose';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('an automation run through Parley against a real n8n', () => {
  let n8n: RealN8n;
  let app: TestApp;
  let admin: TestClient;
  let parleyUrl: string;
  let starterId: string;
  let failingId: string;
  let socket: TestSocket | undefined;
  const started = performance.now();

  beforeAll(async () => {
    const port = await freePort();
    parleyUrl = `http://127.0.0.1:${port}`;
    n8n = await startN8n();
    console.log(`n8n ${n8n.version} ready in ${n8n.timings.readySeconds.toFixed(1)} s, owner and API key in ${n8n.timings.setupSeconds.toFixed(1)} s`);
    // Loopback is not allowlisted: n8n's origin is admitted because it is the connected instance.
    // 0.1 minute of silence, then Parley asks n8n about the run.
    app = await createTestApp('pglite', { env: { PUBLIC_URL: parleyUrl, AUTOMATION_SILENCE_TIMEOUT: '0.1' } });
    await app.server.listen({ port, host: '127.0.0.1' });
    ({ client: admin } = await signedInClient(app, 'admin'));
    // What a user does in n8n: import the starter workflow (and a failing variant), activate them.
    starterId = (await n8n.api<{ id: string }>('POST', '/workflows', starterWorkflow())).id;
    failingId = (await n8n.api<{ id: string }>('POST', '/workflows', starterWorkflowVariant({ name: 'Parley starter (failing)', path: 'parley-starter-failing', failWith: FAILURE }))).id;
    await n8n.api('POST', `/workflows/${starterId}/activate`);
    await n8n.api('POST', `/workflows/${failingId}/activate`);
  });
  afterAll(async () => {
    socket?.close();
    await app?.destroy();
    await n8n?.stop();
    console.log(`real-n8n journey: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 45_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${n8n.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  const finished = (id: string) =>
    until(`execution ${id} to finish`, async () => {
      const e = expectJson<ExecutionView>(await admin.get(`/api/v1/automation-executions/${id}`), 200);
      return e.status === 'running' || e.status === 'waiting' ? undefined : e;
    });

  async function importAndCreate(n8nId: string, name: string): Promise<{ workflow: WorkflowView; automationId: string }> {
    const imported = expectJson<ImportN8nWorkflowsResponse>(await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: n8nId }), 200);
    const workflow = imported.imported[0]!.workflow;
    const created = expectJson<CreatedAutomation>(
      await admin.post('/api/v1/automations', { name, workflow_id: n8nId, workflow_url: workflow.webhookUrl, status: 'active' }),
      201,
    );
    return { workflow, automationId: created.automation.id };
  }

  let starterRecord: WorkflowView;

  it('connects n8n through Parley and imports the starter workflow: its webhook URL, active', async () => {
    expectJson(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: n8n.apiKey }), 200);
    const imported = expectJson<ImportN8nWorkflowsResponse>(await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: starterId }), 200);
    expect(imported.imported[0]).toMatchObject({
      created: true,
      workflow: { kind: 'n8n', name: 'Parley starter', status: 'active', n8nWorkflowId: starterId, webhookUrl: `${n8n.url}/webhook/parley-starter` },
    });
    starterRecord = imported.imported[0]!.workflow;
    const list = expectJson<{ workflows: WorkflowView[]; n8nSync: { ok: boolean } }>(await admin.get('/api/v1/workflows?kind=n8n'), 200);
    expect(list.n8nSync.ok).toBe(true);
  });

  it("Run: n8n's step message and the final 'success' arrive in Parley, live, with n8n's execution id", async () => {
    const { automationId } = await importAndCreate(starterId, 'Starter from n8n');
    socket = await connectRealtime(parleyUrl, { cookie: cookieHeader(admin.cookies) });
    expect(await socket.subscribe(`automation:${automationId}`)).toMatchObject({ type: 'subscribed' });

    const t0 = performance.now();
    const run = expectJson<ExecutionView>(await admin.post(`/api/v1/automations/${automationId}/run`), 201);
    expect(run.status).toBe('running');
    const done = await finished(run.id);
    console.log(`Run → success reported by n8n in ${Math.round(performance.now() - t0)} ms`);
    expect(done).toMatchObject({ status: 'success', error_message: null, started_how: 'manual' });
    expect(done.execution_id).toMatch(/^\d+$/u);
    expect(done.duration_ms).not.toBeNull();

    const { messages } = expectJson<{ messages: AutomationMessageView[] }>(await admin.get(`/api/v1/automations/${automationId}/messages`), 200);
    expect(messages).toEqual([
      expect.objectContaining({
        execution_id: run.id,
        step_name: 'Starter workflow',
        message_type: 'success',
        content: `n8n received run ${run.id} and answered Parley.`,
        metadata: { n8n_execution_id: done.execution_id, workflow: 'Parley starter' },
      }),
    ]);
    // Live: the message and the final status came over the WebSocket.
    await socket.next((m) => m.type === 'event' && m.event === 'automation.message.created');
    await socket.next((m) => m.type === 'event' && m.event === 'automation.execution.updated' && (m.data as ExecutionView).status === 'success');
    // n8n agrees, read through Parley.
    expect(expectJson(await admin.get(`/api/v1/n8n/executions/${done.execution_id}`), 200)).toMatchObject({ status: 'success', workflowId: starterId });
  });

  it("a failing variant ends as 'error' with n8n's message, found by asking n8n once the run went silent", async () => {
    const { automationId } = await importAndCreate(failingId, 'Failing from n8n');
    const run = expectJson<ExecutionView>(await admin.post(`/api/v1/automations/${automationId}/run`), 201);
    const done = await finished(run.id);
    expect(done).toMatchObject({ status: 'error', error_message: FAILURE });
    expect(done.execution_id).toMatch(/^\d+$/u);
    // The step message came before the failure.
    const { messages } = expectJson<{ messages: AutomationMessageView[] }>(await admin.get(`/api/v1/automations/${automationId}/messages`), 200);
    expect(messages.map((m) => m.step_name)).toEqual(['Starter workflow']);
  });

  it('toggling the linked workflow in Parley deactivates it in n8n', async () => {
    const paused = expectJson<WorkflowView>(await admin.post(`/api/v1/workflows/${starterRecord.id}/toggle-status`), 200);
    expect(paused.status).toBe('paused');
    expect((await n8n.api<{ active: boolean }>('GET', `/workflows/${starterId}`)).active).toBe(false);
    // And back: n8n's real state, seen in Parley's list.
    await n8n.api('POST', `/workflows/${starterId}/activate`);
    const list = expectJson<{ workflows: WorkflowView[]; n8nSync: { ok: boolean; message: string } }>(await admin.get('/api/v1/workflows?kind=n8n'), 200);
    expect(list.workflows.find((w) => w.id === starterRecord.id)!.status).toBe('active');
    expect(list.n8nSync).toMatchObject({ ok: true });
  });
});
