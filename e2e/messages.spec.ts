/**
 * /messages (spec part 1 §2.11) and the dashboard's inbox widget (§2.12) on real messages: marking
 * read is stored, a response is sent into the conversation, and the inbox exports a CSV.
 */
import fs from 'node:fs/promises';
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createWhatsAppChannel, deliverWhatsAppText, unique, waId, type Api } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

async function customerMessage(api: Api, text: string, name = unique('Mia Costa')) {
  const client = await createClient(api);
  const channel = await createWhatsAppChannel(api, client.id);
  await deliverWhatsAppText(api.request, channel, { from: waId(), name, text });
  return { client, name };
}

test.describe('messages', () => {
  test('marking a message read persists after a reload, and a response is sent into its conversation', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const text = unique('Urgent problem with the app');
      const { name } = await customerMessage(api, text);
      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/messages');
      await page.getByRole('searchbox', { name: 'Search messages' }).fill(text);
      const row = page.getByRole('row').filter({ hasText: text });
      await expect(row).toHaveCount(1);
      await expect(row.getByText('high', { exact: true })).toBeVisible();
      await expect(row).toContainText('Technical support');

      await row.getByRole('button', { name: `Mark message from ${name} as read` }).click();
      await expect(page.getByText('Marked as Read', { exact: true })).toBeVisible();
      await expect(row.getByText('Read', { exact: true })).toBeVisible();

      await page.reload();
      await page.getByRole('searchbox', { name: 'Search messages' }).fill(text);
      await expect(page.getByRole('row').filter({ hasText: text }).getByText('Read', { exact: true })).toBeVisible();
      await expect(page.getByRole('button', { name: `Mark message from ${name} as read` })).toHaveCount(0);

      // The unread filter no longer lists it.
      await page.getByRole('combobox', { name: 'Filter messages' }).click();
      await page.getByRole('option', { name: 'Unread' }).click();
      await expect(page).toHaveURL(/filter=unread/u);
      await expect(page.getByRole('row').filter({ hasText: text })).toHaveCount(0);
      await page.getByRole('combobox', { name: 'Filter messages' }).click();
      await page.getByRole('option', { name: 'All messages' }).click();

      const answer = unique('We are on it.');
      await page.getByRole('row').filter({ hasText: text }).getByRole('button', { name: `Respond to ${name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Respond to ${name}` });
      await dialog.getByRole('textbox', { name: 'Response' }).fill(answer);
      await dialog.getByRole('button', { name: 'Send Response' }).click();
      await expect(page.getByText('Response Sent')).toBeVisible();
      await expect(dialog).toBeHidden();

      await page.getByRole('row').filter({ hasText: text }).getByRole('link', { name: `Open the conversation with ${name}` }).click();
      await expect(page.getByRole('log', { name: 'Messages' }).locator('[data-sender="agent"]').filter({ hasText: answer })).toBeVisible();
    } finally {
      await api.dispose();
    }
  });

  test('on a 390 px screen each message is a card with the same actions, and the page does not scroll sideways', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const text = unique('Urgent problem with the app');
      const { name } = await customerMessage(api, text);
      await page.setViewportSize({ width: 390, height: 844 });
      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/messages');
      await page.getByRole('searchbox', { name: 'Search messages' }).fill(text);
      const card = page.getByRole('listitem', { name: `Message from ${name}` });
      await expect(card).toHaveCount(1);
      await expect(page.getByRole('table', { name: 'Messages' })).toBeHidden();
      await expect(card).toContainText('Technical support');
      await expect(card.getByText('high', { exact: true })).toBeVisible();
      expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(390);

      await card.getByRole('button', { name: `Mark message from ${name} as read` }).click();
      await expect(page.getByText('Marked as Read', { exact: true })).toBeVisible();
      await expect(card.getByText('Read', { exact: true })).toBeVisible();

      const answer = unique('We are on it.');
      await card.getByRole('button', { name: `Respond to ${name}` }).click();
      const dialog = page.getByRole('dialog', { name: `Respond to ${name}` });
      await dialog.getByRole('textbox', { name: 'Response' }).fill(answer);
      await dialog.getByRole('button', { name: 'Send Response' }).click();
      await expect(page.getByText('Response Sent')).toBeVisible();

      await card.getByRole('link', { name: `Open the conversation with ${name}` }).click();
      await expect(page.getByRole('log', { name: 'Messages' }).locator('[data-sender="agent"]').filter({ hasText: answer })).toBeVisible();
    } finally {
      await api.dispose();
    }
  });

  test('the dashboard inbox filters, searches and exports the matching messages as a CSV file', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const marker = unique('inbox');
      const text = `Thank you, great service! ${marker}`;
      const { name } = await customerMessage(api, text);
      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/dashboard');

      const inbox = page.getByRole('heading', { name: 'Inbox' }).locator('xpath=ancestor::*[@data-slot="card"][1]');
      await inbox.getByRole('searchbox', { name: 'Search messages' }).fill(marker);
      const item = inbox.getByRole('listitem').filter({ hasText: marker });
      await expect(item).toHaveCount(1);
      await expect(item).toContainText(name);
      await expect(item).toContainText('AI SUMMARY');
      await expect(item).toContainText('Positive feedback');
      await expect(item.getByRole('img', { name: 'WhatsApp' })).toBeVisible();

      await inbox.getByRole('button', { name: 'high' }).click();
      await expect(inbox.getByText('No messages match your current filters')).toBeVisible();
      await inbox.getByRole('button', { name: 'Recent Messages' }).click();
      await expect(item).toHaveCount(1);

      await inbox.getByRole('button', { name: 'Inbox menu' }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('menuitem', { name: 'Export Messages' }).click();
      const file = await download;
      expect(file.suggestedFilename()).toMatch(/\.csv$/u);
      const csv = await fs.readFile(await file.path(), 'utf8');
      expect(csv).toContain(marker);
      expect(csv.split('\n').filter((line) => line.includes(marker))).toHaveLength(1);

      await inbox.getByRole('button', { name: 'Inbox menu' }).click();
      await page.getByRole('menuitem', { name: 'Mark All as Read' }).click();
      await expect(page.getByText('Marked as Read', { exact: true })).toBeVisible();

      await item.getByRole('link', { name: 'View Conversation' }).click();
      await expect(page).toHaveURL(/\/conversations\?id=/u);
      await expect(page.getByRole('heading', { name })).toBeVisible();
    } finally {
      await api.dispose();
    }
  });
});
