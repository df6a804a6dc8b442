/**
 * Import from n8n and n8n's real active state in the workflows list (issue 13 §5), on both engines,
 * through the real wiring (the n8n module's service behind the workflows module's
 * `N8nWorkflowSource` port) against the fake n8n on loopback. Loopback is not allowlisted: the
 * fake is reached because it is the connected instance.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { N8N_NOT_CONNECTED } from '../../../common/api/n8n';
import type { ImportN8nWorkflowsResponse, WorkflowView } from '../../../common/api/workflows';
import { createTestApp, signedInClient, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeN8n, startFakeN8n, webhookWorkflow } from '../../../test/helpers/fake-n8n';
import { expectJson } from '../../../test/helpers/inbox';

const API_KEY = 'n8n_api_import_0123456789abcdef';

interface ListAnswer {
  workflows: WorkflowView[];
  n8nSync: { ok: boolean; message: string; checkedAt: string } | null;
}

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(ENGINES)('import from n8n and its real active state (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let manager: TestClient;
  let n8n: FakeN8n;

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    ({ client: admin } = await signedInClient(app, 'admin'));
    ({ client: manager } = await signedInClient(app, 'manager'));
    n8n = await startFakeN8n({
      apiKey: API_KEY,
      workflows: [
        webhookWorkflow('wf1', 'Order follow-up', 'order-follow-up', { active: true }),
        webhookWorkflow('wf2', 'GET only', 'only-get', { method: 'GET' }),
        webhookWorkflow('wf3', 'Disabled trigger', 'off', { disabled: true }),
        { id: 'wf4', name: 'No trigger', active: false, nodes: [{ name: 'Set', type: 'n8n-nodes-base.set', parameters: {} }] },
        webhookWorkflow('wf5', 'Both methods', 'both', { method: ['GET', 'POST'] }),
      ],
    });
  });
  afterAll(async () => {
    await app.destroy();
    await n8n.close();
  });

  const list = async () => expectJson<ListAnswer>(await admin.get('/api/v1/workflows?kind=n8n'), 200);

  it('is for admins only', async () => {
    expect((await manager.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: 'wf1' })).statusCode).toBe(403);
  });

  it('without a connection: the import says n8n is not connected; a list with no linked workflow has no n8nSync', async () => {
    const refused = await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: 'wf1' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toBe(N8N_NOT_CONNECTED);
    expect(await list()).toEqual({ workflows: [], n8nSync: null });
  });

  it('imports one workflow: its name, the webhook URL of its Webhook node, n8n’s active state; again refreshes the same record', async () => {
    expectJson(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: API_KEY }), 200);
    const first = expectJson<ImportN8nWorkflowsResponse>(await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: 'wf1' }), 200);
    expect(first.skipped).toEqual([]);
    expect(first.imported).toHaveLength(1);
    expect(first.imported[0]).toMatchObject({
      created: true,
      workflow: { kind: 'n8n', name: 'Order follow-up', status: 'active', n8nWorkflowId: 'wf1', webhookUrl: `${n8n.url}/webhook/order-follow-up` },
    });
    n8n.workflows[0]!.name = 'Order follow-up v2';
    const again = expectJson<ImportN8nWorkflowsResponse>(await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: 'wf1' }), 200);
    expect(again.imported[0]).toMatchObject({ created: false, workflow: { id: first.imported[0]!.workflow.id, name: 'Order follow-up v2' } });
    expect(n8n.requests.some((r) => r.method === 'GET' && r.url.startsWith('/api/v1/workflows/wf1'))).toBe(true);
  });

  it('refuses a workflow without a Webhook node taking POST, and an unknown id', async () => {
    const noHook = await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: 'wf4' });
    expect(noHook.statusCode).toBe(400);
    expect(noHook.json().error.message).toBe('The n8n workflow "No trigger" cannot be imported. It has no enabled Webhook node that takes POST: add one in n8n, then import it again.');
    const unknown = await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: 'nope' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe('n8n workflow nope not found');
    expect((await admin.post('/api/v1/workflows/import-n8n', { n8nWorkflowId: '' })).statusCode).toBe(400);
  });

  it('imports all: every workflow with a Webhook node taking POST; the others are listed as skipped', async () => {
    const all = expectJson<ImportN8nWorkflowsResponse>(await admin.post('/api/v1/workflows/import-n8n', {}), 200);
    expect(all.imported.map((i) => [i.workflow.n8nWorkflowId, i.created, i.workflow.status])).toEqual([
      ['wf1', false, 'active'],
      ['wf5', true, 'paused'],
    ]);
    expect(all.skipped.map((s) => s.n8nWorkflowId)).toEqual(['wf2', 'wf3', 'wf4']);
    expect(all.skipped[0]!.reason).toMatch(/^It has no enabled Webhook node that takes POST/u);
    expect((await list()).workflows).toHaveLength(2);
  });

  it('the list shows n8n’s real active state: a workflow switched in n8n itself is stored as such', async () => {
    const before = await list();
    expect(before.n8nSync).toMatchObject({ ok: true, message: 'Active states read from n8n' });
    n8n.workflows.find((w) => w.id === 'wf1')!.active = false;
    n8n.workflows.find((w) => w.id === 'wf5')!.active = true;
    const after = await list();
    expect(after.n8nSync).toMatchObject({ ok: true, message: 'Active states read from n8n (2 changed there since the last look)' });
    expect(Object.fromEntries(after.workflows.map((w) => [w.n8nWorkflowId, w.status]))).toEqual({ wf1: 'paused', wf5: 'active' });
    // Stored: the single view (which does not ask n8n) agrees.
    const wf1 = after.workflows.find((w) => w.n8nWorkflowId === 'wf1')!;
    expect(expectJson<WorkflowView>(await admin.get(`/api/v1/workflows/${wf1.id}`), 200).status).toBe('paused');
  });

  it('a linked workflow deleted in n8n is named; a plain workflow is listed as it is', async () => {
    expectJson(await admin.post('/api/v1/workflows', { kind: 'n8n', name: 'Hand-made', webhookUrl: 'https://hooks.example.com/webhook/x' }), 201);
    const removed = n8n.workflows.splice(
      n8n.workflows.findIndex((w) => w.id === 'wf5'),
      1,
    );
    const answer = await list();
    expect(answer.n8nSync).toMatchObject({ ok: true, message: 'Active states read from n8n; not found in n8n: "Both methods"' });
    expect(answer.workflows.find((w) => w.name === 'Hand-made')).toMatchObject({ status: 'draft', n8nWorkflowId: null });
    n8n.workflows.push(...removed);
  });

  it('when n8n cannot be reached: the stored states, and the response says so', async () => {
    const stored = Object.fromEntries((await list()).workflows.map((w) => [w.id, w.status]));
    const port = await closedPort();
    expectJson(await admin.put('/api/v1/n8n/connection', { baseUrl: `http://127.0.0.1:${port}`, apiKey: API_KEY }), 200);
    const answer = await list();
    expect(answer.n8nSync?.ok).toBe(false);
    expect(answer.n8nSync?.message).toMatch(new RegExp(`^Showing the stored states: n8n could not be asked \\(.*Could not reach n8n at http://127\\.0\\.0\\.1:${port}`, 'u'));
    expect(Object.fromEntries(answer.workflows.map((w) => [w.id, w.status]))).toEqual(stored);
    expectJson(await admin.put('/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: API_KEY }), 200);
  });

  it('when n8n does not answer in time: the stored states after the time limit', async () => {
    const slow = await createTestApp(engine, {
      startJobs: false,
      workflowPorts: {
        n8nSource: {
          getWorkflow: () => new Promise(() => undefined),
          listWorkflows: () => new Promise(() => undefined),
        },
      },
    });
    try {
      const { client } = await signedInClient(slow, 'admin');
      await slow.services.workflows.importLinked({ name: 'Linked', webhookUrl: 'https://n8n.example.com/webhook/a', n8nWorkflowId: 'x1', active: true, createdBy: null });
      const started = Date.now();
      const answer = expectJson<ListAnswer>(await client.get('/api/v1/workflows'), 200);
      expect(Date.now() - started).toBeLessThan(6_000);
      expect(answer.n8nSync).toMatchObject({ ok: false, message: 'Showing the stored states: n8n could not be asked (no answer within 3 seconds)' });
      expect(answer.workflows[0]).toMatchObject({ status: 'active', n8nWorkflowId: 'x1' });
    } finally {
      await slow.destroy();
    }
  });
});
