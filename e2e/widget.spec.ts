/**
 * The website chat widget as Parley's own marketing site embeds it (the demo client's widget):
 * a visitor opens the bubble, writes, reloads and still sees the conversation, a reply a staff
 * member sends through the portal API arrives live over the WebSocket, and once the conversation
 * is resolved the visitor rates it with the stars under the rating request.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { apiAs, setDemoAgent, type Api } from './support/messaging';
import { ADMIN, signInByApi } from './support/users';

async function csrf(request: APIRequestContext): Promise<string> {
  const cookies = (await request.storageState()).cookies;
  return cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
}

test.describe('website chat widget', () => {
  // The widget's own behaviour: the demo client's AI agent (e2e/agent-widget.spec.ts) stays quiet meanwhile.
  let api: Api;
  test.beforeAll(async ({ playwright, baseURL }) => {
    api = await apiAs(playwright, baseURL!);
    await setDemoAgent(api, false);
  });
  test.afterAll(async () => {
    await setDemoAgent(api, true);
    await api.dispose();
  });

  test('a visitor writes on the marketing site, keeps the conversation after a reload and gets a staff reply live', async ({ page, playwright, baseURL }) => {
    const text = `Do you integrate with Shopify? ${Date.now().toString(36)}`;

    await page.goto('/');
    const bubble = page.getByRole('button', { name: 'Open chat' });
    await bubble.click();
    const dialog = page.getByRole('dialog', { name: /^Chat with / });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('How can we help you today?')).toBeVisible();
    const input = page.getByRole('textbox', { name: 'Message' });
    await expect(input).toBeFocused();
    await input.fill(text);
    await input.press('Enter');
    const messages = page.getByRole('list', { name: 'Messages' });
    const mine = messages.getByRole('listitem').filter({ hasText: text });
    await expect(mine).toHaveCount(1);
    await expect(mine.locator('time')).toHaveCount(1); // sent (no longer "Sending…")
    await expect(input).toHaveValue('');

    // Escape closes the panel and gives focus back to the bubble.
    await input.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(bubble).toBeFocused();

    await page.reload();
    await page.getByRole('button', { name: 'Open chat' }).click();
    await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text })).toHaveCount(1);

    // A staff member answers through the portal API; the reply arrives without a reload.
    const staff = await playwright.request.newContext({ baseURL: baseURL! });
    try {
      await signInByApi(staff, ADMIN.email, ADMIN.password);
      let conversationId: string | undefined;
      await expect
        .poll(async () => {
          const list = (await (await staff.get('/api/v1/conversations?limit=200')).json()) as { conversations: { id: string; lastMessagePreview: string | null }[] };
          conversationId = list.conversations.find((c) => c.lastMessagePreview === text)?.id;
          return conversationId;
        })
        .toBeDefined();
      const reply = `Yes — in two clicks. ${Date.now().toString(36)}`;
      const sent = await staff.post(`/api/v1/conversations/${conversationId}/messages`, { data: { text: reply }, headers: { 'x-csrf-token': await csrf(staff) } });
      expect(sent.status(), await sent.text()).toBe(201);
      await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: reply })).toBeVisible();

      // Resolved: the rating request arrives live with stars; the visitor rates it once.
      const resolved = await staff.patch(`/api/v1/conversations/${conversationId}`, { data: { status: 'resolved' }, headers: { 'x-csrf-token': await csrf(staff) } });
      expect(resolved.status(), await resolved.text()).toBe(200);
      const stars = page.getByRole('group', { name: 'Rate this conversation' });
      await expect(stars).toBeVisible();
      await stars.getByRole('button', { name: '5 of 5: Excellent' }).click();
      await page.getByRole('textbox', { name: 'Comment (optional)' }).fill('Quick and friendly');
      await page.getByRole('button', { name: 'Send rating' }).click();
      await expect(page.getByText('You rated 5/5 (Excellent). Thank you!')).toBeVisible();
      await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Rated 5/5 (Excellent): Quick and friendly' })).toHaveCount(1);
      const after = (await (await staff.get(`/api/v1/conversations/${conversationId}`)).json()) as { status: string };
      expect(after.status).toBe('resolved');
    } finally {
      await staff.dispose();
    }
  });

  test('the widget is its own async script on the public pages, hidden on the others', async ({ page }) => {
    await page.goto('/features');
    await expect(page.getByRole('button', { name: 'Open chat' })).toBeVisible();
    await expect(page.locator('script[src="/widget.js"][data-widget-id][async]')).toHaveCount(1);
    // Leaving the public pages inside the app (no reload) hides it; coming back shows it again.
    await page.getByRole('link', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/u);
    await expect(page.getByRole('button', { name: 'Open chat' })).toBeHidden();
    await page.goBack();
    await expect(page.getByRole('button', { name: 'Open chat' })).toBeVisible();
    await expect(page.locator('script[src="/widget.js"]')).toHaveCount(1);
  });

  test("works on another site's page, whose CSS cannot reach inside it", async ({ page, request, baseURL }) => {
    const { widgetId } = (await (await request.get('/api/v1/public/demo-widget')).json()) as { widgetId: string };
    // A shop on another origin (loopback, so Chromium's private-network rules allow the calls),
    // with hostile global styles.
    const shop = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<!doctype html><html><head><title>Shop</title>
        <style>* { font-size: 40px !important; color: red !important; position: static !important; } button, textarea { display: none !important; }</style>
        <script src="${baseURL}/widget.js" data-widget-id="${widgetId}" async></script></head>
        <body><h1>Bikes</h1></body></html>`);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = shop.address() as AddressInfo;
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.getByRole('button', { name: 'Open chat' }).click();
      const input = page.getByRole('textbox', { name: 'Message' });
      await expect(input).toBeFocused();
      expect(await input.evaluate((el) => getComputedStyle(el).fontSize)).toBe('14px');
      const text = `Sent from another site ${Date.now().toString(36)}`;
      await input.fill(text);
      await input.press('Enter');
      const sent = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text });
      await expect(sent.locator('time')).toHaveCount(1);
      expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('parley:widget:')))).toEqual([`parley:widget:${widgetId}:visitor`]);
    } finally {
      shop.closeAllConnections();
      await new Promise((resolve) => shop.close(resolve));
    }
  });
});
