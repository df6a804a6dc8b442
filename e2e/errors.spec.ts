/// <reference lib="dom" />
import { expect, test } from './support/fixtures';
import { appTookOver } from './support/prerender';
import { createUser, signInPage } from './support/users';

const ACCESS_DENIED =
  "You don't have permission to access this page. Please contact your administrator if you believe this is an error.";

test.describe('404, access denied and guards', () => {
  test('an unknown path shows the 404 page with a link home', async ({ page }) => {
    const response = await page.goto('/no/such/page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    await expect(page).toHaveTitle(/Page Not Found/u);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/u);
  });

  test('a client-side navigation to an unknown path reports it to the server', async ({ page }) => {
    // A page of the app (the public site is rendered on the server and has no router).
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    // The server pre-renders /login: the router exists once the app has taken the page over.
    await appTookOver(page);
    const report = page.waitForRequest(
      (request) => request.url().endsWith('/api/v1/telemetry/not-found') && request.method() === 'POST',
    );
    // A link inside the app that leads nowhere, followed without a page load.
    await page.evaluate(() => {
      window.history.pushState({}, '', '/missing-inside-app');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
    const request = await report;
    expect(request.postDataJSON()).toEqual({ path: '/missing-inside-app' });
    expect((await request.response())?.status()).toBe(204);
  });

  test('a signed-out visitor on a guarded page goes to /login remembering it', async ({ page }) => {
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fadmin%2Fusers$/u);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
  });

  test('a client on an admin page sees Access Denied with both buttons', async ({ page, playwright, baseURL }) => {
    const client = await createUser(playwright, baseURL!, 'client');
    await signInPage(page, client.email, client.password);

    for (const path of ['/admin/users', '/admin', '/n8n', '/agents']) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/unauthorized$/u);
      await expect(page.getByText(ACCESS_DENIED)).toBeVisible();
    }
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await expect(page).toHaveURL(/\/dashboard$/u);

    await page.goto('/error/unauthorized');
    await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    await page.getByRole('link', { name: 'Go Home' }).click();
    await expect(page).toHaveURL(/\/$/u);
    // The landing page is the server's (the public site): it has loaded once its main element is there.
    await expect(page.locator('main#main')).toBeVisible();

    // /settings is open to every signed-in user, but only admins see its contents.
    await page.goto('/settings');
    await expect(
      page.getByText("You don't have permission to access this feature. Required role: admin"),
    ).toBeVisible();
  });

});
