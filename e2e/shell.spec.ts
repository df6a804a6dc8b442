import type { Role } from '../common/roles';
import { expect, test } from './support/fixtures';
import { ADMIN, createUser, signInPage } from './support/users';

/** Spec part 1 §2.10, as [label, href] in order. */
const SIDEBAR: Record<Role, [string, string][]> = {
  admin: [
    ['Home', '/user/dashboard'],
    ['All Clients', '/admin/clients'],
    ['Legacy Clients', '/clients'],
    ['Conversations', '/conversations'],
    ['Insights', '/insights'],
    ['Templates', '/admin/templates'],
    ['n8n Workflows', '/admin/n8n-workflows'],
    ['Zapier Zaps', '/admin/zapier-zaps'],
    ['Webhooks', '/admin/webhooks'],
    ['Automations', '/automations'],
    ['Settings', '/settings'],
  ],
  manager: [
    ['Home', '/user/dashboard'],
    ['Messages', '/messages'],
    ['AI Agents', '/agents'],
    ['Analytics', '/analytics'],
  ],
  client: [
    ['Home', '/user/dashboard'],
    ['My Conversations', '/conversations'],
    ['My Profile', '/profile'],
    ['AI Summary', '/summary'],
  ],
};

test.describe('signed-in shell', () => {
  for (const role of ['admin', 'manager', 'client'] as const) {
    test(`shows the ${role} links, the user block and a real notification count`, async ({ page, playwright, baseURL }) => {
      const user = role === 'admin' ? { ...ADMIN, name: 'Administrator' } : await createUser(playwright, baseURL!, role);
      await signInPage(page, user.email, user.password);
      await page.goto('/user/dashboard');

      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      const links = nav.getByRole('link');
      await expect(links).toHaveCount(SIDEBAR[role].length);
      for (const [index, [label, href]] of SIDEBAR[role].entries()) {
        // A link may carry a real count after its label (the manager's unread Messages).
        await expect(links.nth(index)).toHaveText(new RegExp(`^${label}(\\d+|99\\+)?$`, 'u'));
        await expect(links.nth(index)).toHaveAttribute('href', href);
      }
      // Badges are real counts, never the prototype's fixed 3.
      const unread =
        role === 'manager'
          ? ((await (await page.request.get('/api/v1/messages?filter=unread&limit=1')).json()) as { unreadCount: number }).unreadCount
          : 0;
      if (unread === 0) await expect(nav.getByTestId('nav-badge')).toHaveCount(0);
      else await expect(nav.getByTestId('nav-badge')).toHaveText(unread > 99 ? '99+' : String(unread));

      const block = page.getByTestId('user-block');
      await expect(block).toContainText(user.email);
      await expect(block).toContainText(role.charAt(0).toUpperCase() + role.slice(1));
      await expect(block).toContainText('Online');
      await expect(page.getByRole('button', { name: 'Sign Out', exact: true })).toBeVisible();

      // The bell's badge is the real unread count (never a fixed 3): none for a new user; the
      // first admin may already have escalations from earlier journeys.
      await expect(page.getByRole('banner').getByRole('link', { name: 'Notifications' })).toHaveAttribute('href', '/notifications');
      const notifications = ((await (await page.request.get('/api/v1/me/notifications/unread-count')).json()) as { count: number }).count;
      if (role !== 'admin') expect(notifications).toBe(0);
      if (notifications === 0) await expect(page.getByTestId('notification-badge')).toHaveCount(0);
      else await expect(page.getByTestId('notification-badge')).toHaveText(notifications > 99 ? '99+' : String(notifications));
      await expect(page.locator('#dashboard-search')).toBeVisible();

      // Every sidebar link opens a page the role may see (no detour to /unauthorized).
      for (const [, href] of SIDEBAR[role]) {
        await nav.locator(`a[href="${href}"]`).click();
        await expect(page).toHaveURL(new RegExp(`${href.replace(/\//gu, '\\/')}$`, 'u'));
      }
    });
  }

  test('ctrl+B collapses and expands the sidebar and the cookie keeps the state', async ({ page, context }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/dashboard');
    const sidebar = page.locator('aside[data-sidebar="sidebar"]');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await expect(sidebar).toHaveCSS('width', '256px');

    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await expect(sidebar).toHaveCSS('width', '48px');
    const cookie = (await context.cookies()).find((c) => c.name === 'sidebar_state');
    expect(cookie?.value).toBe('false');
    // Kept for 7 days.
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(7 * 24 * 3600 - 120);

    await page.reload();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.keyboard.press('Meta+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-state', 'collapsed');
    await page.keyboard.press('Control+b');
    await expect(sidebar).toHaveAttribute('data-state', 'expanded');
  });

  test('opens the sidebar as an overlay drawer below 768 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/dashboard');
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await expect(page.locator('#dashboard-search')).toBeHidden();

    await page.getByRole('button', { name: 'Toggle sidebar' }).click();
    const drawer = page.getByRole('dialog', { name: 'Sidebar' });
    await expect(drawer).toBeVisible();
    await expect(drawer).toHaveCSS('width', '288px');
    await drawer.getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/settings$/u);
    await expect(drawer).toBeHidden();
  });

  test('the header search jumps to a page', async ({ page }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/dashboard');
    await page.locator('#dashboard-search').fill('user');
    await page.locator('#dashboard-search').press('Enter');
    await expect(page).toHaveURL(/\/admin\/users$/u);
    await expect(page.getByRole('heading', { name: 'User Management' })).toBeVisible();
  });
});
