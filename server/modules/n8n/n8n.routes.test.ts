import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { N8nConnectionTest, N8nConnectionView, N8nExecution, N8nWebhookTestResult, N8nWorkflow } from '../../../common/api/n8n';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, type TestApp, type TestClient } from '../../../test/helpers/app';
import { ENGINES } from '../../../test/helpers/database';
import { type FakeN8n, startFakeN8n, webhookWorkflow } from '../../../test/helpers/fake-n8n';
import { expectJson } from '../../../test/helpers/inbox';
import { capturingLogger } from '../../../test/helpers/logger';
import { createTestClient } from '../../../test/helpers/messaging';
import { signedInClientUser } from '../../../test/helpers/inbox';
import { type starterWorkflow } from './starter-workflow';

const API_KEY = 'n8n_api_3f9a1c77e2b04d5c9e1f';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe.each(ENGINES)('n8n integration API (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;
  let manager: TestClient;
  let clientUser: TestClient;
  let adminId: string;
  let n8n: FakeN8n;
  const log = capturingLogger();

  beforeAll(async () => {
    // No OUTBOUND_ALLOWED_HOSTS: loopback is refused, except the configured n8n origin.
    app = await createTestApp(engine, { startJobs: false, logger: log.logger });
    ({ client: admin, userId: adminId } = await signedInClient(app, 'admin', { name: 'Ada Admin' }));
    ({ client: manager } = await signedInClient(app, 'manager'));
    const business = await createTestClient(app, 'Hook Shop');
    ({ client: clientUser } = await signedInClientUser(app, business.id));
    n8n = await startFakeN8n({
      apiKey: API_KEY,
      workflows: [
        webhookWorkflow('wf1', 'Order follow-up', 'order-follow-up', { active: true }),
        webhookWorkflow('wf2', 'GET only', 'only-get', { method: 'GET' }),
        webhookWorkflow('wf3', 'Disabled trigger', 'off', { disabled: true }),
        { id: 'wf4', name: 'No trigger', active: false, nodes: [{ name: 'Set', type: 'n8n-nodes-base.set', parameters: {} }] },
        webhookWorkflow('wf5', 'Both methods', '/both', { method: ['GET', 'POST'] }),
      ],
      executions: [
        {
          id: '41',
          workflowId: 'wf1',
          status: 'error',
          finished: false,
          startedAt: '2026-11-24T10:00:00.000Z',
          stoppedAt: '2026-11-24T10:00:01.000Z',
          data: { resultData: { error: { message: 'The starter workflow failed on purpose' } } },
        },
        { id: '42', workflowId: 'wf1', status: 'success', finished: true, startedAt: '2026-11-24T10:01:00.000Z', stoppedAt: '2026-11-24T10:01:00.500Z', data: { resultData: {} } },
      ],
    });
  });
  afterAll(async () => {
    await app.destroy();
    await n8n.close();
  });
  beforeEach(() => {
    n8n.requests.length = 0;
  });

  async function connect(baseUrl = n8n.url, apiKey: string | undefined = API_KEY): Promise<N8nConnectionView> {
    return expectJson<N8nConnectionView>(await admin.put('/api/v1/n8n/connection', { baseUrl, ...(apiKey === undefined ? {} : { apiKey }) }), 200);
  }

  it('is for admins only: managers and client users get 403 on every route', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/v1/n8n/connection'],
      ['PUT', '/api/v1/n8n/connection', { baseUrl: n8n.url, apiKey: API_KEY }],
      ['DELETE', '/api/v1/n8n/connection'],
      ['POST', '/api/v1/n8n/connection/test'],
      ['GET', '/api/v1/n8n/workflows'],
      ['GET', '/api/v1/n8n/workflows/wf1'],
      ['POST', '/api/v1/n8n/workflows/wf1/activate'],
      ['POST', '/api/v1/n8n/workflows/wf1/deactivate'],
      ['GET', '/api/v1/n8n/executions/41'],
      ['GET', '/api/v1/n8n/payload-template'],
      ['POST', '/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/order-follow-up` }],
      ['GET', '/api/v1/n8n/starter-workflow'],
    ];
    for (const [method, url, body] of routes) {
      for (const who of [manager, clientUser]) {
        const response = await who.request({ method: method, url, body });
        expect(response.statusCode, `${method} ${url}`).toBe(403);
      }
      expect((await app.client().request({ method: method, url, body })).statusCode, `${method} ${url} anonymous`).toBe(401);
    }
    expect(n8n.requests).toEqual([]);
  });

  it('without a connection: null, and calls to n8n are refused with 409', async () => {
    expect(expectJson(await admin.get('/api/v1/n8n/connection'), 200)).toEqual({ connection: null });
    for (const response of [await admin.post('/api/v1/n8n/connection/test'), await admin.get('/api/v1/n8n/workflows'), await admin.post('/api/v1/n8n/workflows/wf1/activate')]) {
      expect(expectJson(response, 409)).toEqual({ error: { code: 'CONFLICT', message: 'n8n is not connected: save its base URL and an API key first.' } });
    }
    expect((await admin.delete('/api/v1/n8n/connection')).statusCode).toBe(404);
  });

  it('refuses a malformed base URL, credentials in it, the metadata service, and a first save without a key', async () => {
    const cases: [unknown, string, string][] = [
      [{ baseUrl: 'not a url', apiKey: API_KEY }, 'baseUrl', 'Enter a valid URL, like http://n8n.example.internal:5678'],
      [{ baseUrl: 'ftp://n8n.example.com', apiKey: API_KEY }, 'baseUrl', 'Only http and https URLs are allowed'],
      [{ baseUrl: 'http://user:pw@n8n.example.com', apiKey: API_KEY }, 'baseUrl', 'Leave credentials out of the URL: the API key goes in its own field'],
      [{ baseUrl: 'http://169.254.169.254', apiKey: API_KEY }, 'baseUrl', 'Refused: the address resolves to the cloud metadata service (169.254.169.254)'],
      [{ baseUrl: 'http://[fe80::1]:5678', apiKey: API_KEY }, 'baseUrl', 'Refused: the address resolves to a link-local network (fe80::1)'],
      [{ baseUrl: n8n.url }, 'apiKey', 'Enter the n8n API key'],
      [{ baseUrl: '', apiKey: API_KEY }, 'baseUrl', 'Enter the n8n base URL'],
    ];
    for (const [body, field, message] of cases) {
      const error = expectJson<{ error: { code: string; fields: Record<string, string> } }>(await admin.put('/api/v1/n8n/connection', body), 400).error;
      expect(error.code).toBe('VALIDATION_ERROR');
      expect(error.fields[field]).toBe(message);
    }
    expect(expectJson(await admin.get('/api/v1/n8n/connection'), 200)).toEqual({ connection: null });
  });

  it('saves the connection with the key sealed, never returned or logged, and tests it: the workflow count through the cursor pages', async () => {
    const view = await connect(`${n8n.url}/api/v1/`);
    expect(view).toMatchObject({
      baseUrl: n8n.url,
      hasApiKey: true,
      updatedBy: { id: adminId, name: 'Ada Admin' },
      webhookBaseUrl: `${n8n.url}/webhook/`,
      lastTest: { ok: true, message: 'Connected to n8n: 5 workflows', workflowCount: 5 },
    });
    // 5 workflows, pages of 2: three requests, each with the key in n8n's header.
    const pages = n8n.requests.filter((r) => r.url.startsWith('/api/v1/workflows'));
    expect(pages).toHaveLength(3);
    for (const page of pages) expect(page.headers['x-n8n-api-key']).toBe(API_KEY);
    expect(pages[1]!.url).toContain('cursor=');

    const row = await app.database.db.selectFrom('n8nConnections').selectAll().executeTakeFirstOrThrow();
    expect(row.apiKeySealed).toMatch(/^v1\./u);
    expect(JSON.stringify(row)).not.toContain(API_KEY);
    const got = await admin.get('/api/v1/n8n/connection');
    expect(got.body).not.toContain(API_KEY);
    expect(expectJson<{ connection: N8nConnectionView }>(got, 200).connection.lastTest).toMatchObject({ ok: true, workflowCount: 5 });
    expect(log.output()).toContain('n8n connection saved');
    expect(log.output()).not.toContain(API_KEY);

    // The key may be left out while the origin stays; a new origin needs it again.
    expect((await connect(`${n8n.url}/`, undefined)).lastTest).toMatchObject({ ok: true });
    const moved = expectJson<{ error: { fields: Record<string, string> } }>(await admin.put('/api/v1/n8n/connection', { baseUrl: 'http://127.0.0.1:9' }), 400);
    expect(moved.error.fields).toEqual({ apiKey: 'Enter the API key again when the n8n address changes' });
  });

  it('a wrong key: the exact answer of n8n, in the test, the stored last test and the calls', async () => {
    const view = await connect(n8n.url, 'n8n_api_wrong');
    expect(view.lastTest).toMatchObject({ ok: false, message: 'n8n refused the API key (401: unauthorized)', workflowCount: null });
    const test = expectJson<N8nConnectionTest>(await admin.post('/api/v1/n8n/connection/test'), 200);
    expect(test).toMatchObject({ ok: false, message: 'n8n refused the API key (401: unauthorized)', workflowCount: null });
    expect(expectJson(await admin.get('/api/v1/n8n/workflows'), 502)).toEqual({ error: { code: 'BAD_GATEWAY', message: 'n8n refused the API key (401: unauthorized)' } });
    await connect();
  });

  it('an unreachable n8n: the reason, not a 500', async () => {
    const port = await closedPort();
    const view = await connect(`http://127.0.0.1:${port}`);
    expect(view.lastTest).toMatchObject({ ok: false, message: `Could not reach n8n at http://127.0.0.1:${port}: ECONNREFUSED` });
    expect(expectJson(await admin.get('/api/v1/n8n/workflows'), 502)).toEqual({
      error: { code: 'BAD_GATEWAY', message: `Could not reach n8n at http://127.0.0.1:${port}: ECONNREFUSED` },
    });
    // Not n8n: a web page answers.
    const page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'));
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    const pageUrl = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    expect((await connect(pageUrl)).lastTest).toMatchObject({
      ok: false,
      message: `Unexpected answer from ${pageUrl}: the answer (200, text/html) is not JSON: is this the address of n8n?`,
    });
    page.close();
    await connect();
  });

  it("lists the instance's workflows with the webhook URL of their POST Webhook node", async () => {
    await connect();
    const { workflows } = expectJson<{ workflows: N8nWorkflow[] }>(await admin.get('/api/v1/n8n/workflows'), 200);
    expect(workflows).toEqual([
      { id: 'wf1', name: 'Order follow-up', active: true, webhookUrl: `${n8n.url}/webhook/order-follow-up`, webhookPath: 'order-follow-up', updatedAt: '2026-11-20T10:00:00.000Z' },
      { id: 'wf2', name: 'GET only', active: false, webhookUrl: null, webhookPath: null, updatedAt: '2026-11-20T10:00:00.000Z' },
      { id: 'wf3', name: 'Disabled trigger', active: false, webhookUrl: null, webhookPath: null, updatedAt: '2026-11-20T10:00:00.000Z' },
      { id: 'wf4', name: 'No trigger', active: false, webhookUrl: null, webhookPath: null, updatedAt: null },
      { id: 'wf5', name: 'Both methods', active: false, webhookUrl: `${n8n.url}/webhook/both`, webhookPath: 'both', updatedAt: '2026-11-20T10:00:00.000Z' },
    ]);
    expect(expectJson<N8nWorkflow>(await admin.get('/api/v1/n8n/workflows/wf5'), 200).webhookUrl).toBe(`${n8n.url}/webhook/both`);
    expect(expectJson(await admin.get('/api/v1/n8n/workflows/nope'), 404)).toMatchObject({ error: { code: 'NOT_FOUND', message: 'n8n workflow nope not found' } });
    expect((await admin.get('/api/v1/n8n/workflows/..%2F..%2Fadmin')).statusCode).toBe(400);
  });

  it("activates and deactivates a workflow in n8n; n8n's state is what is shown", async () => {
    await connect();
    expect(expectJson<N8nWorkflow>(await admin.post('/api/v1/n8n/workflows/wf5/activate'), 200)).toMatchObject({ id: 'wf5', active: true });
    expect(n8n.workflows.find((w) => w.id === 'wf5')!.active).toBe(true);
    expect(n8n.requests.at(-1)).toMatchObject({ method: 'POST', url: '/api/v1/workflows/wf5/activate' });
    expect(expectJson<N8nWorkflow>(await admin.post('/api/v1/n8n/workflows/wf5/deactivate'), 200)).toMatchObject({ id: 'wf5', active: false });
    expect(n8n.workflows.find((w) => w.id === 'wf5')!.active).toBe(false);
    expect(expectJson(await admin.post('/api/v1/n8n/workflows/missing/activate'), 404)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it("reads an execution's status and n8n's error message", async () => {
    await connect();
    expect(expectJson<N8nExecution>(await admin.get('/api/v1/n8n/executions/41'), 200)).toEqual({
      id: '41',
      workflowId: 'wf1',
      status: 'error',
      finished: false,
      startedAt: '2026-11-24T10:00:00.000Z',
      stoppedAt: '2026-11-24T10:00:01.000Z',
      errorMessage: 'The starter workflow failed on purpose',
    });
    expect(expectJson<N8nExecution>(await admin.get('/api/v1/n8n/executions/42'), 200)).toMatchObject({ status: 'success', finished: true, errorMessage: null });
    expect(n8n.requests.at(-1)!.url).toBe('/api/v1/executions/42?includeData=true');
    expect(expectJson(await admin.get('/api/v1/n8n/executions/999'), 404)).toMatchObject({ error: { code: 'NOT_FOUND', message: 'n8n execution 999 not found' } });
  });

  it('the webhook Test: the template POSTed from the server, the real answer — or the real failure', async () => {
    await connect();
    for (const body of [{ url: '' }, { url: '   ' }, {}]) {
      const error = expectJson<{ error: { message: string; fields: Record<string, string> } }>(await admin.post('/api/v1/n8n/webhook-test', body), 400).error;
      expect(error.fields.url).toBe('Please enter a webhook URL first.');
    }
    expect(expectJson<{ error: { fields: Record<string, string> } }>(await admin.post('/api/v1/n8n/webhook-test', { url: 'nope' }), 400).error.fields).toEqual({ url: 'Enter a valid webhook URL' });

    const template = expectJson<{ template: Record<string, unknown> }>(await admin.get('/api/v1/n8n/payload-template'), 200).template;
    expect(template).toMatchObject({
      execution_id: '00000000-0000-0000-0000-000000000000',
      client_id: null,
      callback: {
        messages_url: `${TEST_PUBLIC_URL}/api/v1/automation-executions/00000000-0000-0000-0000-000000000000/messages`,
        status_url: `${TEST_PUBLIC_URL}/api/v1/automation-executions/00000000-0000-0000-0000-000000000000`,
        token: 'example-token',
      },
    });

    const ok = expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/order-follow-up` }), 200);
    expect(ok).toMatchObject({ ok: true, status: 200, message: 'Webhook Test Successful', contentType: 'application/json; charset=utf-8' });
    expect(JSON.parse(ok.bodyExcerpt)).toEqual({ execution_id: expect.any(String) });
    expect(ok.durationMs).toBeGreaterThanOrEqual(0);
    const sent = n8n.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', url: '/webhook/order-follow-up' });
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.headers['x-n8n-api-key']).toBeUndefined();
    expect(Object.keys(JSON.parse(sent.body) as object).sort()).toEqual(['automation_config', 'callback', 'client_id', 'execution_id', 'timestamp']);

    // An edited payload is sent as given.
    await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/order-follow-up`, payload: { hello: 'world' } });
    expect(JSON.parse(n8n.requests.at(-1)!.body)).toEqual({ hello: 'world' });

    // An inactive workflow: n8n's 404 and its message.
    const inactive = expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/only-get` }), 200);
    expect(inactive).toMatchObject({ ok: false, status: 404, message: 'The webhook answered 404: The requested webhook "POST only-get" is not registered.' });
    expect(inactive.bodyExcerpt).toContain('is not registered');

    const port = await closedPort();
    expect(expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url: `http://127.0.0.1:${port}/hook` }), 200)).toMatchObject({
      ok: false,
      status: null,
      message: 'Refused: the address resolves to the loopback network (127.0.0.1)',
    });
  });

  it("SSRF: only the configured n8n origin is admitted on a private address; other hosts, ports and redirects are not", async () => {
    await connect();
    n8n.requests.length = 0;
    const refused: [string, string | RegExp][] = [
      ['http://127.0.0.1:9/hook', 'Refused: the address resolves to the loopback network (127.0.0.1)'],
      // The same port under another name is another origin (localhost may resolve to ::1 first).
      [`http://localhost:${new URL(n8n.url).port}/webhook/order-follow-up`, /^Refused: the address resolves to the loopback network \((127\.0\.0\.1|::1)\)$/u],
      ['http://[::1]:5678/webhook/x', 'Refused: the address resolves to the loopback network (::1)'],
      ['http://10.0.0.1/webhook/x', 'Refused: the address resolves to a private network (10.0.0.1)'],
      ['http://169.254.169.254/latest/meta-data/', 'Refused: the address resolves to the cloud metadata service (169.254.169.254)'],
      [`https://127.0.0.1:${new URL(n8n.url).port}/webhook/order-follow-up`, 'Refused: the address resolves to the loopback network (127.0.0.1)'],
    ];
    for (const [url, message] of refused) {
      const result = expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url }), 200);
      expect(result, url).toMatchObject({ ok: false, status: null });
      expect(result.message, url).toMatch(message);
    }
    expect(n8n.requests).toEqual([]);

    // A redirect from the admitted origin is not followed.
    const port = await closedPort();
    n8n.redirectTo = `http://127.0.0.1:${port}/elsewhere`;
    const redirected = expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/redirect` }), 200);
    expect(redirected).toMatchObject({ ok: false, status: 302, message: 'The webhook answered 302: (no message)' });

    // Forgetting the connection closes the door again.
    expect((await admin.delete('/api/v1/n8n/connection')).statusCode).toBe(204);
    expect(expectJson(await admin.get('/api/v1/n8n/connection'), 200)).toEqual({ connection: null });
    const after = expectJson<N8nWebhookTestResult>(await admin.post('/api/v1/n8n/webhook-test', { url: `${n8n.url}/webhook/order-follow-up` }), 200);
    expect(after).toMatchObject({ ok: false, message: 'Refused: the address resolves to the loopback network (127.0.0.1)' });
    await connect();
  });

  it('the starter workflow downloads as importable n8n JSON', async () => {
    const response = await admin.get('/api/v1/n8n/starter-workflow');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="parley-starter-workflow.json"');
    const workflow = JSON.parse(response.body) as ReturnType<typeof starterWorkflow>;
    expect(Object.keys(workflow).sort()).toEqual(['connections', 'name', 'nodes', 'settings']);
    expect(workflow.nodes.map((n) => n.type)).toEqual([
      'n8n-nodes-base.webhook',
      'n8n-nodes-base.respondToWebhook',
      'n8n-nodes-base.httpRequest',
      'n8n-nodes-base.httpRequest',
    ]);
    expect(workflow.nodes[0]!.parameters).toMatchObject({ httpMethod: 'POST', path: 'parley-starter', responseMode: 'responseNode' });
    // n8n ends an expression at the first "}}": every expression opens and closes once.
    const expressions = JSON.stringify(workflow.nodes)
      .match(/"=[^"]*"/gu)!
      .filter((value) => value.includes('{{'));
    expect(expressions.length).toBeGreaterThanOrEqual(6);
    for (const value of expressions) expect(value.split('{{').length, value).toBe(value.split('}}').length);
  });
});
