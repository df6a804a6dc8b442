/**
 * Google sign-in in a real browser against the loopback OpenID Connect provider
 * (e2e/support/oidc-global-setup.ts): Parley's login page, the provider's account chooser, the
 * callback, and the dashboard.
 */
import { expect, test } from './support/fixtures';
import { GOOGLE_USER } from './support/google';
import { appTookOver } from './support/prerender';

test.describe('Google sign-in', () => {
  test('offers "Continue with Google" only when the server has Google configured', async ({ page }) => {
    await page.goto('/login');
    await expect(page.getByRole('link', { name: 'Continue with Google' })).toBeVisible();

    // The same page from a server without Google settings: the document says so (its boot data), and
    // the app, once it has taken the page over, shows no button.
    await page.route('**/login', async (route) => {
      const response = await route.fetch();
      const html = (await response.text()).replace('{"providers":{"google":true}}', '{"providers":{"google":false}}');
      await route.fulfill({ response, body: html });
    });
    await page.goto('/login');
    await appTookOver(page);
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);
  });

  test('signs a new user in through the identity provider and lands on the dashboard', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();

    await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
    await page.getByRole('button', { name: `Continue as ${GOOGLE_USER.email}` }).click();

    await expect(page).toHaveURL(/\/dashboard$/u);
    const block = page.getByTestId('user-block');
    await expect(block).toContainText(GOOGLE_USER.name);
    await expect(block).toContainText(GOOGLE_USER.email);
    await expect(block).toContainText('Client');

    // Signed out of Parley but still signed in at the provider (as with Google): the next
    // "Continue with Google" goes straight back in, as the same user.
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await expect(page).toHaveURL(/\/login/u);
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await expect(page).toHaveURL(/\/dashboard$/u);
    await expect(page.getByTestId('user-block')).toContainText(GOOGLE_USER.email);
  });

  test('shows "Google Sign In Failed" when the user cancels at the provider', async ({ page }) => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Continue with Google' }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();

    await expect(page).toHaveURL(/\/login\?error=google/u);
    await expect(page.getByText('Google Sign In Failed')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
  });
});
