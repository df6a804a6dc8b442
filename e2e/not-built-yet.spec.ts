/**
 * Screens whose features are not built yet say so in one sentence under their spec title, and
 * nothing else: no promises of what will appear, no sample numbers, no buttons (issue 10 item 14).
 */
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createClientUser } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

/** Path(s) → the header title (spec) and the one sentence of the page. */
const SCREENS: readonly { paths: readonly string[]; title: string; notice: string }[] = [
  { paths: ['/client-dashboard'], title: 'Client Dashboard', notice: 'The Client Dashboard is not available yet.' },
];

test.describe('screens not built yet', () => {
  test('each says only that its feature is not available yet, under its spec title, with no controls', async ({ page }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    for (const screen of SCREENS) {
      for (const path of screen.paths) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(screen.title);
        const main = page.locator('main');
        await expect(main.getByRole('heading', { level: 2 }), path).toHaveText(screen.notice);
        await expect(main, path).toHaveText(screen.notice);
        await expect(main.getByRole('button'), path).toHaveCount(0);
        await expect(main.getByRole('link'), path).toHaveCount(0);
        await expect(page.getByRole('button', { name: /create/iu }), path).toHaveCount(0);
      }
    }
  });

  test('a client sees the same on /client-dashboard', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api);
    const user = await createClientUser(api, client.id);
    await api.dispose();
    await signInPage(page, user.email, user.password);
    await page.goto('/client-dashboard');
    await expect(page.locator('main')).toHaveText('The Client Dashboard is not available yet.');
  });

  test('the settings tabs not built yet say so plainly', async ({ page }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    for (const [tab, notice] of [
      ['customers', 'Customer Management is not available yet.'],
      ['notifications', 'Team Notifications are not available yet.'],
    ] as const) {
      await page.goto(tab === 'customers' ? '/settings' : `/settings?tab=${tab}`);
      const panel = page.getByRole('tabpanel');
      await expect(panel).toHaveText(notice);
      await expect(panel.getByRole('button')).toHaveCount(0);
      await expect(panel.getByRole('link')).toHaveCount(0);
    }

  });
});
