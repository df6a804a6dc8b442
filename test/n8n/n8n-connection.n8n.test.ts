/**
 * Parley against a real n8n (`npm run test:n8n`): connect it through Parley's API, see the starter
 * workflow (imported through n8n's public API, as the guide's "Import from File" does) in Parley's
 * list with its webhook URL, activate and deactivate it from Parley and see n8n's state change,
 * run it through the webhook Test and catch its callbacks — the step message and the final
 * status, with the run's Bearer token — at a loopback receiver standing in for Parley's callback
 * endpoints; a failing variant ends in n8n's `error` with its message, read back through Parley.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { N8nConnectionView, N8nExecution, N8nWebhookTestResult, N8nWorkflow } from '../../common/api/n8n';
import { starterWorkflow, starterWorkflowVariant } from '../../server/modules/n8n';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../helpers/app';
import { expectJson } from '../helpers/inbox';
import { type RealN8n, startN8n } from '../helpers/n8n';

const FAILURE = 'The starter workflow failed on purpose';

interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** Stands in for Parley's callback endpoints (the automations module's): records and answers 200. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

describe('Parley and a real n8n', () => {
  let n8n: RealN8n;
  let app: TestApp;
  let admin: TestClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let starterId: string;
  let failingId: string;
  const started = performance.now();

  beforeAll(async () => {
    [n8n, receiver] = await Promise.all([startN8n(), startReceiver()]);
    console.log(`n8n ${n8n.version} ready in ${n8n.timings.readySeconds.toFixed(1)} s, owner and API key in ${n8n.timings.setupSeconds.toFixed(1)} s`);
    // Loopback is not allowlisted: the n8n origin is admitted because it is the configured one.
    app = await createTestApp('pglite', { startJobs: false });
    ({ client: admin } = await signedInClient(app, 'admin'));
    starterId = (await n8n.api<{ id: string }>('POST', '/workflows', starterWorkflow())).id;
    failingId = (await n8n.api<{ id: string }>('POST', '/workflows', starterWorkflowVariant({ name: 'Parley starter (failing)', path: 'parley-starter-failing', failWith: FAILURE }))).id;
  });
  afterAll(async () => {
    await app?.destroy();
    await receiver?.close();
    await n8n?.stop();
    console.log(`real-n8n test: ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  });

  /** The run payload Parley sends, its callbacks pointed at the receiver. */
  function runPayload(executionId: string, token: string) {
    const base = receiver.url;
    return {
      execution_id: executionId,
      automation_config: { name: 'Real n8n test', triggers: [] },
      client_id: '11111111-2222-3333-4444-555555555555',
      timestamp: new Date().toISOString(),
      callback: {
        messages_url: `${base}/api/v1/automation-executions/${executionId}/messages`,
        status_url: `${base}/api/v1/automation-executions/${executionId}`,
        token,
      },
    };
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${n8n.output().slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  async function finishedExecution(id: string): Promise<N8nExecution> {
    return until(`n8n execution ${id} to finish`, async () => {
      const response = await admin.get(`/api/v1/n8n/executions/${id}`);
      if (response.statusCode === 404) return undefined; // not saved yet
      const execution = expectJson<N8nExecution>(response, 200);
      return execution.status === 'running' || execution.status === 'new' || execution.status === 'waiting' ? undefined : execution;
    });
  }

  it('a wrong API key: the exact answer of n8n', async () => {
    const view = expectJson<N8nConnectionView>(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: 'not-the-key' }), 200);
    expect(view.lastTest).toMatchObject({ ok: false, message: 'n8n refused the API key (401: unauthorized)' });
  });

  it('connects: the test counts the instance’s workflows', async () => {
    const view = expectJson<N8nConnectionView>(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: n8n.apiKey }), 200);
    expect(view.lastTest).toMatchObject({ ok: true, message: 'Connected to n8n: 2 workflows', workflowCount: 2 });
    expect(JSON.stringify(view)).not.toContain(n8n.apiKey);
  });

  it('lists the imported starter workflow with its webhook URL, inactive', async () => {
    const { workflows } = expectJson<{ workflows: N8nWorkflow[] }>(await admin.get('/api/v1/n8n/workflows'), 200);
    expect(workflows).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: starterId, name: 'Parley starter', active: false, webhookUrl: `${n8n.url}/webhook/parley-starter`, webhookPath: 'parley-starter' }),
        expect.objectContaining({ id: failingId, active: false, webhookUrl: `${n8n.url}/webhook/parley-starter-failing` }),
      ]),
    );
  });

  it('activates it from Parley; a run answers with its execution id and calls back with the Bearer token', async () => {
    expect(expectJson<N8nWorkflow>(await admin.post(`/api/v1/n8n/workflows/${starterId}/activate`), 200)).toMatchObject({ id: starterId, active: true });
    expect((await n8n.api<{ active: boolean }>('GET', `/workflows/${starterId}`)).active).toBe(true);

    const token = 'run-token-7d1c0e5a9b';
    const result = expectJson<N8nWebhookTestResult>(
      await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/parley-starter`, payload: runPayload('exec-parley-1', token) }),
      200,
    );
    expect(result).toMatchObject({ ok: true, status: 200, message: 'Webhook Test Successful' });
    const executionId = (JSON.parse(result.bodyExcerpt) as { execution_id: string }).execution_id;
    expect(executionId).toMatch(/^\d+$/u);
    console.log(`webhook Test answered in ${result.durationMs} ms`);

    await until('the two callbacks', async () => (receiver.received.length >= 2 ? true : undefined));
    const [message, status] = receiver.received;
    expect(message).toMatchObject({ method: 'POST', path: '/api/v1/automation-executions/exec-parley-1/messages' });
    expect(status).toMatchObject({ method: 'PATCH', path: '/api/v1/automation-executions/exec-parley-1' });
    expect(message!.headers.authorization).toBe(`Bearer ${token}`);
    expect(status!.headers.authorization).toBe(`Bearer ${token}`);
    expect(JSON.parse(message!.body)).toEqual({
      step_name: 'Starter workflow',
      message_type: 'success',
      content: 'n8n received run exec-parley-1 and answered Parley.',
      metadata: { n8n_execution_id: executionId, workflow: 'Parley starter' },
    });
    expect(JSON.parse(status!.body)).toEqual({ status: 'success', execution_id: executionId });
    expect(message!.headers['content-type']).toMatch(/^application\/json/u);

    expect(await finishedExecution(executionId)).toMatchObject({ id: executionId, workflowId: starterId, status: 'success', finished: true, errorMessage: null });
  });

  it("a failing variant ends in n8n's error, with its message read through Parley", async () => {
    receiver.received.length = 0;
    await admin.post(`/api/v1/n8n/workflows/${failingId}/activate`);
    const result = expectJson<N8nWebhookTestResult>(
      await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/parley-starter-failing`, payload: runPayload('exec-parley-2', 'run-token-2') }),
      200,
    );
    expect(result).toMatchObject({ ok: true, status: 200 });
    const executionId = (JSON.parse(result.bodyExcerpt) as { execution_id: string }).execution_id;
    const execution = await finishedExecution(executionId);
    expect(execution).toMatchObject({ status: 'error', errorMessage: FAILURE });
    // The step message came; no success was reported.
    expect(receiver.received.map((r) => JSON.parse(r.body) as { step_name?: string; status?: string })).toEqual([expect.objectContaining({ step_name: 'Starter workflow' })]);
  });

  it('deactivates it from Parley: n8n shows it inactive and its webhook is gone', async () => {
    expect(expectJson<N8nWorkflow>(await admin.post(`/api/v1/n8n/workflows/${starterId}/deactivate`), 200)).toMatchObject({ active: false });
    expect((await n8n.api<{ active: boolean }>('GET', `/workflows/${starterId}`)).active).toBe(false);
    const { workflows } = expectJson<{ workflows: N8nWorkflow[] }>(await admin.get('/api/v1/n8n/workflows'), 200);
    expect(workflows.find((w) => w.id === starterId)!.active).toBe(false);
    const result = expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/parley-starter` }), 200);
    expect(result).toMatchObject({ ok: false, status: 404 });
    expect(result.message).toMatch(/^The webhook answered 404: The requested webhook "(POST )?parley-starter" is not registered\./u);
  });
});
