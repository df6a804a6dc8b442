/**
 * The Webhooks page (issue 14 §6, §7 "Browser"; spec part 2 "Webhooks page", §5 "Webhook test", §8):
 * an admin creates a subscription to a loopback receiver (the signing secret shown once), sends a
 * test event, sees the delivery and its attempt in the log, redelivers it, pauses, edits, rotates and
 * deletes; a client user tests a URL with the form and reads the endpoint's real answer.
 *
 * Needs OUTBOUND_ALLOWED_HOSTS=127.0.0.1 in the server's environment (playwright.config.ts), so
 * Parley may reach the receiver on loopback.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, unique } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
}

/** A webhook endpoint on loopback: answers 200 `{"received":true}`, or 500 on /fail; keeps what it got. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, raw: Buffer.concat(chunks).toString('utf8') });
      if (req.url?.startsWith('/fail')) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Receiver is down for maintenance');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/parley`,
    failingUrl: `http://127.0.0.1:${port}/fail`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** X-Parley-Signature: sha256=<hex HMAC-SHA256 of "<X-Parley-Timestamp>.<raw body>"> with the secret. */
function signatureValid(secret: string, request: Received): boolean {
  const timestamp = request.headers['x-parley-timestamp'];
  const signature = request.headers['x-parley-signature'];
  if (typeof timestamp !== 'string' || typeof signature !== 'string') return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${request.raw}`).digest('hex')}`;
  return expected.length === signature.length && timingSafeEqual(Buffer.from(expected), Buffer.from(signature));
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

test.describe('webhooks', () => {
  test('an admin subscribes a loopback receiver, sends a test event and sees the delivery in the log', async ({ page }) => {
    const receiver = await startReceiver();
    try {
      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/admin/webhooks');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhooks');
      await expect(page.getByRole('tab', { name: 'Subscriptions' })).toHaveAttribute('aria-selected', 'true');

      // Other tests may have left subscriptions: the button is in the header or in the empty state.
      await page.getByRole('button', { name: 'Add Subscription' }).first().click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: 'Add Subscription' })).toBeVisible();
      await dialog.getByLabel('Only the events I choose').check();
      await dialog.getByRole('button', { name: 'Create Subscription' }).click();
      await expect(dialog.getByText('Name is required')).toBeVisible();
      await expect(dialog.getByText('Please enter a webhook URL')).toBeVisible();
      await expect(dialog.getByText('Choose at least one event')).toBeVisible();

      const name = unique('CRM sync');
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('URL', { exact: true }).fill(receiver.url);
      await dialog.getByRole('checkbox', { name: /message\.received/u }).check();
      await dialog.getByRole('checkbox', { name: /lead\.qualified/u }).check();
      // Admins choose whose events it receives; every client's by default.
      await expect(dialog.getByLabel('Client', { exact: true })).toHaveText('All clients');
      await dialog.getByRole('button', { name: 'Create Subscription' }).click();

      // The signing secret, shown once.
      const secretDialog = page.getByRole('dialog', { name: 'Subscription Created' });
      const secretField = secretDialog.getByLabel('Signing Secret', { exact: true });
      await expect(secretField).toHaveValue(/^.{16,}$/u);
      const secret = await secretField.inputValue();
      await secretDialog.getByRole('button', { name: 'Done' }).click();
      await expect(secretDialog).toBeHidden();

      const card = page.getByTestId('subscription').filter({ hasText: name });
      await expect(card).toContainText('Active');
      await expect(card.getByTestId('subscription-url')).toHaveText(receiver.url);
      await expect(card).toContainText('message.received, lead.qualified');
      await expect(card).toContainText('All clients');
      await expect(card).toContainText(/Last triggered\s*Never/u);

      // A test event: delivered now, signed with the secret just shown.
      await card.getByRole('button', { name: `Send test event to ${name}` }).click();
      await expect(page.getByText('Test event delivered')).toBeVisible();
      await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(1);
      const ping = receiver.received[0]!;
      expect(ping.path).toBe('/hooks/parley');
      expect(signatureValid(secret, ping)).toBe(true);
      expect(() => JSON.parse(ping.raw) as unknown).not.toThrow();

      // The delivery log: the test delivery, its attempt with what was sent and answered.
      await card.getByRole('button', { name: `Delivery log of ${name}` }).click();
      const log = page.getByRole('dialog', { name: 'Delivery Log' });
      await expect(log).toContainText(name);
      const delivery = log.getByTestId('delivery').first();
      await expect(delivery).toHaveAttribute('data-delivery-status', 'succeeded');
      await expect(delivery).toContainText('ping');
      await expect(delivery).toContainText('Succeeded');
      await expect(delivery).toContainText('1 attempt');
      await expect(delivery).toContainText('Last status: 200');
      await delivery.getByRole('button', { expanded: false }).click();
      const attempt = delivery.getByTestId('delivery-attempt');
      await expect(attempt).toHaveCount(1);
      await expect(attempt).toContainText('Status: 200');
      await expect(attempt).toContainText('{"received":true}');
      await expect(attempt).toContainText(/x-parley-signature: sha256=[0-9a-f]{64}/iu);
      await expect(attempt).toContainText('Request body');

      // Redeliver: a new delivery of the same event, on top of the log.
      await delivery.getByRole('button', { name: 'Redeliver' }).click();
      await expect(page.getByText(/^Redelivery (delivered|queued)$/u)).toBeVisible();
      await expect(log.getByTestId('delivery')).toHaveCount(2);
      await expect(log.getByTestId('delivery').first()).toContainText('Redelivery');
      await expect.poll(() => receiver.received.length).toBeGreaterThanOrEqual(2);
      expect(signatureValid(secret, receiver.received[1]!)).toBe(true);

      // Filters: nothing failed; the ping filter keeps both.
      await log.getByRole('combobox', { name: 'Filter by status' }).click();
      await page.getByRole('option', { name: 'Failed' }).click();
      await expect(log.getByText('No deliveries match these filters.')).toBeVisible();
      await log.getByRole('combobox', { name: 'Filter by status' }).click();
      await page.getByRole('option', { name: 'All statuses' }).click();
      await log.getByRole('combobox', { name: 'Filter by event' }).click();
      await page.getByRole('option', { name: 'ping' }).click();
      await expect(log.getByTestId('delivery')).toHaveCount(2);

      // A phone: the log fits, long headers wrap or scroll inside their boxes.
      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoHorizontalScroll(page);
      await log.getByRole('button', { name: 'Close' }).click();
      await expect(log).toBeHidden();
      await expectNoHorizontalScroll(page);
      await page.setViewportSize({ width: 1280, height: 800 });

      // Pause and resume.
      await card.getByRole('button', { name: `Pause ${name}` }).click();
      await expect(page.getByText('Subscription paused')).toBeVisible();
      await expect(card).toContainText('Inactive');
      await card.getByRole('button', { name: `Resume ${name}` }).click();
      await expect(page.getByText('Subscription resumed')).toBeVisible();
      await expect(card).toContainText('Active');

      // Edit: a new name and every event.
      await card.getByRole('button', { name: `Edit ${name}` }).click();
      const edit = page.getByRole('dialog');
      await expect(edit.getByLabel('Name')).toHaveValue(name);
      const renamed = `${name} (all events)`;
      await edit.getByLabel('Name').fill(renamed);
      await edit.getByLabel('All events, including ones added later').check();
      await edit.getByRole('button', { name: 'Save Subscription' }).click();
      await expect(page.getByText('Subscription updated')).toBeVisible();
      const renamedCard = page.getByTestId('subscription').filter({ hasText: renamed });
      await expect(renamedCard).toContainText('All events');

      // A new signing secret, shown once, different from the first.
      await renamedCard.getByRole('button', { name: `New signing secret for ${renamed}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Replace Secret' }).click();
      const rotated = page.getByRole('dialog', { name: 'New Signing Secret' });
      await expect(rotated.getByLabel('Signing Secret', { exact: true })).toHaveValue(/^.{16,}$/u);
      expect(await rotated.getByLabel('Signing Secret', { exact: true }).inputValue()).not.toBe(secret);
      await rotated.getByRole('button', { name: 'Done' }).click();

      // Delete, confirmed.
      await renamedCard.getByRole('button', { name: `Delete ${renamed}` }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Subscription deleted')).toBeVisible();
      await expect(renamedCard).toHaveCount(0);
    } finally {
      await receiver.close();
    }
  });

  test("a client user tests a URL with the form and reads the endpoint's real answer", async ({ page, playwright, baseURL }) => {
    const receiver = await startReceiver();
    const api = await apiAs(playwright, baseURL!);
    try {
      const client = await createClient(api);
      const user = await createClientUser(api, client.id);
      await signInPage(page, user.email, user.password);

      await page.goto('/webhooks');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Webhooks');
      // A client user's subscriptions are its business's: no client to choose.
      await page.getByRole('button', { name: 'Add Subscription' }).first().click();
      await expect(page.getByRole('dialog').getByLabel('Name')).toBeVisible();
      await expect(page.getByRole('dialog').getByLabel('Client', { exact: true })).toHaveCount(0);
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

      await page.getByRole('tab', { name: 'Test' }).click();
      await expect(page).toHaveURL(/\?tab=test$/u);
      const body = page.getByLabel('JSON Body');
      // The default body, pretty-printed: message, timestamp and source.
      const initial = JSON.parse(await body.inputValue()) as Record<string, unknown>;
      expect(Object.keys(initial)).toEqual(['message', 'timestamp', 'source']);
      expect(await body.inputValue()).toContain('\n  "message"');

      // URL required (spec §5): nothing is sent.
      await page.getByRole('button', { name: 'Send Test' }).click();
      await expect(page.locator('#webhook-test-url-error')).toHaveText('Please enter a webhook URL');
      // Invalid JSON: a field error, nothing sent.
      await page.getByLabel('Webhook URL').fill(receiver.url);
      await body.fill('{"message": "hi",');
      await page.getByRole('button', { name: 'Send Test' }).click();
      await expect(page.getByText(/^Body must be valid JSON/u)).toBeVisible();
      expect(receiver.received).toHaveLength(0);

      // 2xx: 'Webhook Triggered' with the real status, time and answer.
      await page.getByRole('button', { name: 'Reset' }).click();
      await page.getByRole('button', { name: 'Send Test' }).click();
      const result = page.getByTestId('webhook-test-result');
      await expect(result).toHaveAttribute('data-outcome', 'triggered');
      await expect(result).toContainText('Webhook Triggered');
      await expect(result).toContainText('Status200');
      await expect(result).toContainText(/Time\d+ ms/u);
      await expect(result).toContainText('{"received":true}');
      await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Webhook Triggered' })).toBeVisible();
      await expect.poll(() => receiver.received.length).toBe(1);
      const sent = receiver.received[0]!;
      expect(sent.headers['content-type']).toMatch(/^application\/json/u);
      expect(Object.keys(JSON.parse(sent.raw) as object)).toEqual(['message', 'timestamp', 'source']);

      // 5xx: the real failure, not a success and not the no-answer wording.
      await page.getByLabel('Webhook URL').fill(receiver.failingUrl);
      await page.getByRole('button', { name: 'Send Test' }).click();
      await expect(result).toHaveAttribute('data-outcome', 'failed');
      await expect(result).toContainText('Webhook Failed');
      await expect(result).toContainText('Status500');
      await expect(result).toContainText('Receiver is down for maintenance');
      await expect(result).not.toContainText('Request Sent');

      await page.setViewportSize({ width: 390, height: 844 });
      await expectNoHorizontalScroll(page);
      await page.getByRole('tab', { name: 'Guide' }).click();
      await expect(page.getByText('X-Parley-Signature').first()).toBeVisible();
      await page.getByText('message.received', { exact: true }).click();
      await expect(page.getByLabel('Example message.received payload')).toContainText('"api_version"');
      await expectNoHorizontalScroll(page);
    } finally {
      await api.dispose();
      await receiver.close();
    }
  });
});
