/// <reference lib="dom" />
/**
 * The n8n Integration tab of /settings (issue 13 §5, spec part 1 §2.17): an admin tests a webhook
 * (the empty-URL text, a refused private address, then the real answer of a receiver), connects an
 * n8n instance (a fake of n8n's public API on loopback: its origin is the one private address the
 * server then admits), sees its workflows with n8n's real state, switches one off in n8n, imports
 * it, downloads the starter workflow, copies a callback endpoint from the guide, and the tab does
 * not scroll sideways at 390 px. No OUTBOUND_ALLOWED_HOSTS in playwright.config.ts: loopback is
 * refused except for the connected n8n's origin.
 */
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from './support/fixtures';
import { apiAs } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

const API_KEY = 'n8n_api_e2e_0123456789abcdef';
const WORKFLOW_ID = 'wfE2E1';

interface Received {
  method: string;
  url: string;
  apiKey: string | undefined;
  body: string;
}

/** Just enough of n8n: the public API (workflows, activate/deactivate) and the starter's webhook. */
function fakeN8n(received: Received[]) {
  const workflow = {
    id: WORKFLOW_ID,
    name: 'Parley starter (e2e)',
    active: true,
    updatedAt: '2026-11-24T10:00:00.000Z',
    nodes: [{ name: 'Run from Parley', type: 'n8n-nodes-base.webhook', typeVersion: 2, parameters: { httpMethod: 'POST', path: 'parley-starter' } }],
    connections: {},
    settings: {},
  };
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      const apiKey = req.headers['x-n8n-api-key'];
      received.push({ method: req.method ?? '', url: url.pathname, apiKey: typeof apiKey === 'string' ? apiKey : undefined, body: Buffer.concat(chunks).toString('utf8') });
      const json = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
      };
      if (url.pathname === '/webhook/parley-starter' && req.method === 'POST') return json(200, { execution_id: '42' });
      if (url.pathname.startsWith('/api/v1/')) {
        if (apiKey !== API_KEY) return json(401, { message: 'unauthorized' });
        if (url.pathname === '/api/v1/workflows' && req.method === 'GET') return json(200, { data: [workflow], nextCursor: null });
        if (url.pathname === `/api/v1/workflows/${WORKFLOW_ID}` && req.method === 'GET') return json(200, workflow);
        const toggle = /^\/api\/v1\/workflows\/([^/]+)\/(activate|deactivate)$/u.exec(url.pathname);
        if (toggle?.[1] === WORKFLOW_ID && req.method === 'POST') {
          workflow.active = toggle[2] === 'activate';
          return json(200, workflow);
        }
      }
      return json(404, { message: 'The requested webhook is not registered.' });
    });
  });
}

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function close(server: http.Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

test.describe('n8n Integration settings', () => {
  test('an admin tests a webhook, connects n8n, manages its workflows, downloads the starter workflow and copies from the guide', async ({
    page,
    context,
    playwright,
    baseURL,
  }) => {
    const received: Received[] = [];
    const n8n = fakeN8n(received);
    const stranger = http.createServer((_req, res) => res.end('should never be called'));
    const n8nPort = await listen(n8n);
    const strangerPort = await listen(stranger);
    const n8nBase = `http://127.0.0.1:${n8nPort}`;
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/settings?tab=n8n');
      await expect(page.getByRole('tab', { name: 'n8n Integration', selected: true })).toBeVisible();
      const webhookForm = page.getByRole('form', { name: 'Webhook test' });
      const webhookUrl = webhookForm.getByRole('textbox', { name: 'Webhook URL' });
      const result = page.getByTestId('webhook-test-result');

      // The spec's text for an empty URL; nothing is sent.
      await webhookForm.getByRole('button', { name: 'Test' }).click();
      await expect(webhookForm.getByText('Please enter a webhook URL first.')).toBeVisible();

      // A private address that is neither the connected n8n nor allowlisted (the test server admits
      // 127.0.0.1 only, as OUTBOUND_ALLOWED_HOSTS): the server refuses it, and says so.
      await webhookUrl.fill(`http://127.0.0.2:${strangerPort}/hook`);
      await webhookForm.getByRole('button', { name: 'Test' }).click();
      await expect(result).toContainText(/Refused: the address resolves to/u);
      await expect(result).toContainText('No answer');

      // The copyable payload template carries this installation's callback URLs.
      await expect(page.getByLabel('Payload template', { exact: true })).toContainText('/api/v1/automation-executions/');

      // Connect n8n: a wrong key first (n8n's exact refusal), then the right one.
      const connection = page.getByRole('form', { name: 'n8n connection' });
      await connection.getByRole('textbox', { name: 'n8n base URL' }).fill(n8nBase);
      await connection.getByLabel('API key').fill('not-the-key');
      await connection.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByTestId('n8n-connection-test')).toContainText('n8n refused the API key (401: unauthorized)');
      await connection.getByLabel('API key').fill(API_KEY);
      await connection.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByTestId('n8n-connection-test')).toContainText('Connected to n8n: 1 workflow');
      // The key is write-only: "Saved", an empty field, and nowhere on the page.
      await expect(connection.getByText('Saved', { exact: true })).toBeVisible();
      await expect(connection.getByLabel('API key')).toHaveValue('');
      await page.reload();
      await expect(page.getByTestId('n8n-connection-test')).toContainText('Connected to n8n: 1 workflow');
      expect(await page.content()).not.toContain(API_KEY);

      await page.getByRole('button', { name: 'Test connection' }).click();
      await expect(page.getByText('Connection OK')).toBeVisible();

      // The instance's workflows, with n8n's real state and webhook URL.
      const row = page.getByTestId('n8n-workflow').filter({ hasText: 'Parley starter (e2e)' });
      await expect(row).toContainText('Active');
      await expect(row).toContainText(`${n8nBase}/webhook/parley-starter`);

      // The webhook Test against n8n's webhook: the real status, time and body.
      await webhookUrl.fill(`${n8nBase}/webhook/parley-starter`);
      await webhookForm.getByRole('button', { name: 'Test' }).click();
      await expect(result).toContainText('Webhook Test Successful');
      await expect(result).toContainText('HTTP 200');
      await expect(result).toContainText(/\d+ ms/u);
      await expect(result).toContainText('"execution_id": "42"');
      const hook = received.find((r) => r.url === '/webhook/parley-starter');
      expect(hook, 'the receiver got the test POST').toBeDefined();
      const payload = JSON.parse(hook!.body) as { callback: { messages_url: string; status_url: string } };
      expect(payload.callback.messages_url).toMatch(/\/api\/v1\/automation-executions\/[^/]+\/messages$/u);

      // Switched off in n8n itself.
      await row.getByRole('switch', { name: 'Deactivate Parley starter (e2e) in n8n' }).click();
      await expect(row).toContainText('Inactive');
      expect(received.some((r) => r.method === 'POST' && r.url === `/api/v1/workflows/${WORKFLOW_ID}/deactivate`)).toBe(true);

      // Imported into Parley (POST /api/v1/workflows/import-n8n): marked as imported afterwards.
      await row.getByRole('button', { name: 'Import Parley starter (e2e)' }).click();
      await expect(page.getByText('Workflow Imported')).toBeVisible();
      await expect(row.getByText('Imported', { exact: true })).toBeVisible();

      // The starter workflow, importable into n8n as is.
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Download the starter workflow' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('parley-starter-workflow.json');
      const starter = JSON.parse(await fs.readFile(await file.path(), 'utf8')) as { name: string; nodes: { type: string; parameters: { path?: string } }[] };
      expect(starter.nodes.find((node) => node.type === 'n8n-nodes-base.webhook')?.parameters.path).toBe('parley-starter');

      // The guide's real values, copied with 'Copied to clipboard' and a check mark for 2 seconds.
      const messagesEndpoint = `${new URL(payload.callback.messages_url).origin}/api/v1/automation-executions/{id}/messages`;
      await expect(page.getByText(messagesEndpoint, { exact: true })).toBeVisible();
      const copy = page.getByRole('button', { name: 'Copy Step messages endpoint (POST)' });
      await copy.click();
      await expect(page.getByText('Copied to clipboard')).toBeVisible();
      await expect(copy).toHaveAttribute('data-copied', 'true');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(messagesEndpoint);
      await expect(copy).not.toHaveAttribute('data-copied', 'true', { timeout: 3_000 });

      // A phone: long URLs wrap, nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await expect(row).toContainText('Inactive');
      await webhookUrl.fill(`${n8nBase}/webhook/parley-starter`);
      await webhookForm.getByRole('button', { name: 'Test' }).click();
      await expect(result).toContainText('HTTP 200');
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

      // Disconnect: Parley forgets the address and the key.
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Disconnect' }).click();
      await expect(page.getByText('Not connected')).toBeVisible();
      await expect(page.getByTestId('n8n-workflow')).toHaveCount(0);
    } finally {
      // Leave no connection behind for the other journeys (404 when the test already disconnected).
      const api = await apiAs(playwright, baseURL!);
      const csrf = (await api.request.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
      await api.request.delete('/api/v1/n8n/connection', { headers: { 'x-csrf-token': csrf } });
      await api.dispose();
      await close(n8n);
      await close(stranger);
    }
  });
});
