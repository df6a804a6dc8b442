/**
 * The live inbox (issue 3 §8): customer messages reach an admin's /conversations without a reload,
 * from the website chat on Parley's own marketing site and from a signed WhatsApp delivery, and the
 * admin's reply reaches the visitor's widget live.
 */
import type { Page, WebSocket } from '@playwright/test';
import { expect, newWatchedContext, test } from './support/fixtures';
import { apiAs, createClient, createWhatsAppChannel, deliverWhatsAppText, literal, setDemoAgent, unique, waId } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

/** Opens /conversations and waits until its live subscription to the inbox is confirmed. */
async function openLiveConversations(page: Page, path = '/conversations'): Promise<void> {
  const socket = page.waitForEvent('websocket', (ws: WebSocket) => ws.url().endsWith('/api/v1/realtime'));
  await page.goto(path);
  const ws = await socket;
  if (!ws.isClosed()) {
    await ws.waitForEvent('framereceived', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
      return text.includes('"subscribed"') && text.includes('"inbox"');
    });
  }
  await expect(page.getByRole('button', { name: 'Start New Conversation' })).toBeVisible();
}

test.describe('live conversations', () => {
  test('a visitor writes in the widget on the marketing site, an admin sees it live and the reply appears live in the widget', async ({
    page,
    browser,
    baseURL,
    problems,
    playwright,
  }) => {
    const adminContext = await newWatchedContext(browser, problems, { baseURL: baseURL! });
    // People only here: the demo client's AI agent (e2e/agent-widget.spec.ts) stays quiet meanwhile.
    const api = await apiAs(playwright, baseURL!);
    await setDemoAgent(api, false);
    try {
      const admin = await adminContext.newPage();
      await signInPage(admin, ADMIN.email, ADMIN.password);
      await openLiveConversations(admin);

      // The visitor, on Parley's own site, writes in the demo client's widget.
      const question = unique('Do you ship abroad?');
      await page.goto('/');
      await page.getByRole('button', { name: 'Open chat' }).click();
      const input = page.getByRole('textbox', { name: 'Message' });
      await input.fill(question);
      await input.press('Enter');
      await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: question })).toHaveCount(1);

      // It appears in the admin's list without a reload, and opens with its thread.
      const item = admin.getByRole('link', { name: literal(question) });
      await expect(item).toBeVisible();
      await item.click();
      await expect(admin).toHaveURL(/\/conversations\?id=/u);
      const thread = admin.getByRole('log', { name: 'Messages' });
      await expect(thread.locator('[data-sender="customer"]').filter({ hasText: question })).toBeVisible();
      await expect(admin.getByTestId('ai-confidence')).toHaveText('—');

      // The admin answers with Enter; the answer shows in the thread and arrives live in the widget.
      const answer = unique('Yes, to 30 countries.');
      const composer = admin.getByRole('textbox', { name: 'Message' });
      await composer.fill(answer);
      await composer.press('Enter');
      await expect(composer).toHaveValue('');
      await expect(thread.locator('[data-sender="agent"]').filter({ hasText: answer })).toBeVisible();
      await expect(page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: answer })).toBeVisible();
    } finally {
      await adminContext.close();
      await setDemoAgent(api, true);
      await api.dispose();
    }
  });

  test('a signed WhatsApp delivery appears live in /conversations; the admin hands it to a human and escalates it', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const client = await createClient(api);
      const channel = await createWhatsAppChannel(api, client.id);
      await signInPage(page, ADMIN.email, ADMIN.password);
      await openLiveConversations(page);

      const name = unique('Dana Souza');
      const text = `Olá! Onde está o meu pedido? 📦 ${Date.now().toString(36)}`;
      await deliverWhatsAppText(api.request, channel, { from: waId(), name, text });

      const item = page.getByRole('link', { name: literal(name) });
      await expect(item).toBeVisible();
      await expect(item).toContainText(text);
      await expect(item).toContainText(client.companyName);
      await item.click();
      await expect(page.getByRole('heading', { name })).toBeVisible();
      await expect(page.getByRole('log', { name: 'Messages' }).locator('[data-sender="customer"]')).toContainText(text);
      await expect(page.getByRole('textbox', { name: 'Message' })).toBeEnabled();

      await page.getByRole('button', { name: 'Handoff to Human' }).click();
      await expect(page.getByRole('button', { name: 'Return to AI' })).toBeVisible();
      await expect(page.getByText('Handled by Administrator')).toBeVisible();

      await page.getByRole('combobox', { name: 'Conversation status' }).click();
      await page.getByRole('option', { name: 'Escalated' }).click();
      await expect(page.getByText('Status Updated')).toBeVisible();
      await page.getByRole('tab', { name: 'Escalated' }).click();
      await expect(page).toHaveURL(/tab=escalated/u);
      await expect(page.getByRole('link', { name: literal(name) })).toBeVisible();
      await page.getByRole('tab', { name: 'Pending' }).click();
      await expect(page.getByRole('link', { name: literal(name) })).toHaveCount(0);
    } finally {
      await api.dispose();
    }
  });
});
