/**
 * Internal chats (spec part 2 "Admin chat management"): an admin starts a chat with a client user
 * in Chat Management, the client user answers from the support chat panel, and each sees the
 * other's messages live.
 */
import { expect, newWatchedContext, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, literal, unique } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

test.describe('chat management', () => {
  test('an admin and a client user chat live', async ({ page, browser, playwright, baseURL, problems }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api);
    const carla = await createClientUser(api, client.id, 'Carla Chatter');
    await api.dispose();

    // The client user has the support panel open before anything is written.
    const clientContext = await newWatchedContext(browser, problems, { baseURL: baseURL! });
    try {
      const clientPage = await clientContext.newPage();
      await signInPage(clientPage, carla.email, carla.password);
      await clientPage.goto('/dashboard');
      await clientPage.getByRole('button', { name: /^Support chat/u }).click();
      const panel = clientPage.getByRole('dialog', { name: 'Support chat' });
      await expect(panel.getByRole('button', { name: 'New Chat' })).toBeVisible();

      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/admin/conversations');
      await page.getByRole('button', { name: 'New Chat' }).click();
      const dialog = page.getByRole('dialog', { name: 'New Chat' });
      await dialog.getByRole('combobox', { name: 'Recipient' }).click();
      await page.getByRole('option', { name: literal(carla.email) }).click();
      const hello = unique('Welcome aboard!');
      await dialog.getByRole('textbox', { name: 'Message' }).fill(hello);
      await dialog.getByRole('button', { name: 'Send Message' }).click();
      await expect(page.getByText('New Chat', { exact: true }).first()).toBeVisible();
      const adminLog = page.getByRole('log', { name: 'Chat messages' });
      await expect(adminLog).toContainText(hello);
      await expect(page.getByRole('list', { name: 'Chats' }).getByRole('button', { name: /Carla Chatter/u })).toBeVisible();

      // The message arrives in the client's open panel without a reload; the answer goes back with Enter.
      const clientLog = panel.getByRole('log', { name: 'Chat messages' });
      await expect(clientLog).toContainText(hello);
      await expect(panel.getByTestId('presence')).toHaveText('Online');
      const answer = unique('Thanks, one question about billing');
      const box = panel.getByRole('textbox', { name: 'Message' });
      await box.fill(answer);
      await box.press('Enter');
      await expect(box).toHaveValue('');
      await expect(clientLog).toContainText(answer);
      await expect(adminLog).toContainText(answer);

      // Counters, search and tabs on the admin's side.
      await expect(page.getByText('Total').locator('..')).toContainText(/\d/u);
      await page.getByRole('searchbox', { name: 'Search chats' }).fill(client.companyName);
      await expect(page.getByRole('list', { name: 'Chats' }).getByRole('listitem')).toHaveCount(1);
      await page.getByRole('tab', { name: 'Admin' }).click();
      await expect(page.getByRole('list', { name: 'Chats' })).toHaveCount(0);
      await page.getByRole('tab', { name: 'Clients' }).click();
      await expect(page.getByRole('list', { name: 'Chats' }).getByRole('listitem')).toHaveCount(1);
    } finally {
      await clientContext.close();
    }
  });
});
