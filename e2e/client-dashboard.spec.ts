/**
 * The client dashboard (issue 17 §2): a client user's own business with its five figures, the
 * pause switch, and its home at /dashboard; staff choose a client.
 */
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createClientUser } from './support/messaging';
import { createUser, signInPage } from './support/users';

const FIGURES = ['Total Messages', 'Response Rate', 'Avg Response Time', 'Leads Generated', 'Conversion Rate'];

test.describe('client dashboard', () => {
  test('a client sees their own business, its five figures and Pause Automation, also as their home', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api);
    const user = await createClientUser(api, client.id);
    await api.dispose();
    await signInPage(page, user.email, user.password);
    for (const path of ['/client-dashboard', '/dashboard']) {
      await page.goto(path);
      const main = page.locator('main');
      await expect(main.getByRole('heading', { name: client.companyName }), path).toBeVisible();
      for (const title of FIGURES) await expect(main.getByRole('heading', { name: title }), `${path} ${title}`).toBeVisible();
      await expect(main.getByRole('button', { name: 'Pause Automation' }), path).toBeVisible();
    }
  });

  test('a manager chooses a client first', async ({ page, playwright, baseURL }) => {
    const manager = await createUser(playwright, baseURL!, 'manager');
    await signInPage(page, manager.email, manager.password);
    await page.goto('/client-dashboard');
    await expect(page.getByRole('heading', { name: 'Choose a client' })).toBeVisible();
  });
});
