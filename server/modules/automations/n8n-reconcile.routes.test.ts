/**
 * A silent execution reconciled through the real wiring (issue 13 §4, §7), on both engines: the
 * automations module's silence job asks the n8n module (`N8nService.executionOutcome`, wired in
 * app.ts) about the n8n execution id the workflow answered with, and n8n here is the fake on
 * loopback, connected through Parley's API. Silence is 1.2 s (AUTOMATION_SILENCE_TIMEOUT=0.02
 * minutes); "time passes" is the job queue running the check when it falls due.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedAutomation, ExecutionView } from '../../../common/api/automations';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { startCallbackServer, type CallbackServer } from '../../../test/helpers/callback-server';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeN8n, startFakeN8n, webhookWorkflow } from '../../../test/helpers/fake-n8n';
import { expectJson } from '../../../test/helpers/inbox';
import { ALLOW_LOOPBACK_FAKES } from '../../../test/helpers/outbound';

const API_KEY = 'n8n_api_reconcile_0123456789abcdef';
const N8N_FAILURE = 'Node "HTTP Request" failed: The resource you are requesting could not be found';

async function eventually<T>(check: () => Promise<T | undefined | false>, what: string, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe.each(ENGINES)('silent executions reconciled against n8n through the real wiring (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let n8n: FakeN8n;
  let other: CallbackServer;

  beforeAll(async () => {
    // Loopback allowed for the unlinked workflow's receiver; the fake n8n is the connected instance.
    app = await createTestApp(engine, { env: { ...ALLOW_LOOPBACK_FAKES, AUTOMATION_SILENCE_TIMEOUT: '0.02' } });
    ({ client: admin } = await signedInClient(app, 'admin'));
    n8n = await startFakeN8n({ apiKey: API_KEY, workflows: [webhookWorkflow('wf-run', 'Run me', 'run-me', { active: true })] });
    other = await startCallbackServer();
    expectJson(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: API_KEY }), 200);
  });
  afterAll(async () => {
    await app.destroy();
    await n8n.close();
    await other.close();
  });

  const execution = async (id: string) => expectJson<ExecutionView>(await admin.get(`/api/v1/automation-executions/${id}`), 200);

  /** Creates an active automation on the URL, runs it, and waits for the workflow's answer to be stored. */
  async function runSilently(workflowUrl: string): Promise<ExecutionView> {
    const created = expectJson<CreatedAutomation>(await admin.post('/api/v1/automations', { name: 'Silent', workflow_id: 'wf-run', workflow_url: workflowUrl, status: 'active' }), 201);
    const run = expectJson<ExecutionView>(await admin.post(`/api/v1/automations/${created.automation.id}/run`), 201);
    return eventually(async () => {
      const e = await execution(run.id);
      return e.execution_id !== null ? e : undefined;
    }, 'the external execution id');
  }

  const asked = (n8nExecutionId: string) => n8n.requests.filter((r) => r.method === 'GET' && r.url.startsWith(`/api/v1/executions/${n8nExecutionId}?`)).length;

  it("n8n says error with a message: the execution becomes error with n8n's message", async () => {
    const started = await runSilently(`${n8n.url}/webhook/run-me`);
    expect(started.status).toBe('running');
    const n8nId = started.execution_id!;
    n8n.executions.push({
      id: n8nId,
      workflowId: 'wf-run',
      status: 'error',
      finished: false,
      startedAt: new Date().toISOString(),
      stoppedAt: new Date().toISOString(),
      data: { resultData: { error: { message: N8N_FAILURE } } },
    });
    const done = await eventually(async () => {
      const e = await execution(started.id);
      return e.status !== 'running' ? e : undefined;
    }, 'the reconciled status');
    expect(done).toMatchObject({ status: 'error', error_message: N8N_FAILURE, execution_id: n8nId });
    expect(done.duration_ms).toBeGreaterThanOrEqual(1000);
    expect(asked(n8nId)).toBe(1);
    // Asked with the connection's API key, for the execution's data (where n8n keeps the error).
    expect(n8n.requests.find((r) => r.url.startsWith(`/api/v1/executions/${n8nId}?`))!.headers['x-n8n-api-key']).toBe(API_KEY);
  });

  it('n8n says it still runs: the execution stays running and n8n is asked again later, then its success is recorded', async () => {
    const started = await runSilently(`${n8n.url}/webhook/run-me`);
    const n8nId = started.execution_id!;
    const n8nExecution = { id: n8nId, workflowId: 'wf-run', status: 'running', finished: false, startedAt: new Date().toISOString(), stoppedAt: null, data: { resultData: {} } };
    n8n.executions.push(n8nExecution);
    await eventually(async () => asked(n8nId) === 1, 'the first question to n8n');
    // The next check is queued with backoff (a minute), not run at once.
    await eventually(async () => {
      const jobs = await app.database.db.selectFrom('jobs').select(['payload', 'runAt']).where('name', '=', 'automations.check-silence').execute();
      return jobs.find((j) => JSON.stringify(j.payload).includes(started.id) && JSON.stringify(j.payload).includes('"attempt":1'));
    }, 'the rescheduled check');
    expect((await execution(started.id)).status).toBe('running');

    // Time passes: the queued check runs (directly here rather than waiting the minute).
    await app.services.automations.checkSilence(started.id, 1);
    expect(asked(n8nId)).toBe(2);
    expect((await execution(started.id)).status).toBe('running');

    Object.assign(n8nExecution, { status: 'success', finished: true, stoppedAt: new Date().toISOString() });
    await app.services.automations.checkSilence(started.id, 2);
    expect(asked(n8nId)).toBe(3);
    expect(await execution(started.id)).toMatchObject({ status: 'success', error_message: null, execution_id: n8nId });
  });

  it('a workflow URL on another address than the connected n8n: it times out with the plain message, n8n is not asked', async () => {
    other.script({ status: 200, body: '{"execution_id":"777"}' });
    const before = n8n.requests.length;
    const started = await runSilently(other.url);
    expect(started.execution_id).toBe('777');
    const done = await eventually(async () => {
      const e = await execution(started.id);
      return e.status !== 'running' ? e : undefined;
    }, 'the timeout');
    expect(done).toMatchObject({ status: 'error', error_message: 'Timed out: the workflow reported nothing for 1 second', execution_id: '777' });
    expect(n8n.requests.slice(before).filter((r) => r.url.startsWith('/api/v1/'))).toEqual([]);
  });
});
