import { expect, test } from './support/fixtures';
import { appTookOver } from './support/prerender';
import { ADMIN, createUser } from './support/users';

/** The app's bundle, held back so a test can act on the server's pre-rendered page first. */
const APP_BUNDLE = /\/assets\/app-[^/]+\.js$/u;

test.describe('sign in', () => {
  test('paints the form from the server and keeps what was typed before the app took over', async ({ page }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(APP_BUNDLE, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/login');
    // The server's page, while the app is still on its way.
    await expect(page.locator('#root[data-prerendered]')).toHaveCount(1);
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    await expect(page).toHaveTitle('Sign In | Parley');
    const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    // Nothing is sent before the app runs.
    await expect(signIn).toBeDisabled();

    release();
    await appTookOver(page);
    await expect(page.getByLabel('Email')).toHaveValue(ADMIN.email);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue(ADMIN.password);
    await expect(page.getByLabel('Password', { exact: true })).toBeFocused();
    await expect(signIn).toBeEnabled();
    await signIn.click();
    await expect(page).toHaveURL(/\/dashboard$/u);
  });

  test('keeps the button disabled until both fields are filled and explains a blank e-mail', async ({ page }) => {
    await page.goto('/login');
    await appTookOver(page);
    const signIn = page.getByRole('button', { name: 'Sign In', exact: true });
    await expect(signIn).toBeDisabled();
    await page.getByLabel('Email').focus();
    await page.getByLabel('Email').blur();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill('admin@parley.test');
    await expect(signIn).toBeDisabled();
    await page.getByLabel('Password', { exact: true }).fill('x');
    await expect(signIn).toBeEnabled();

    await expect(page.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    await expect(page.getByRole('link', { name: 'Create account' })).toHaveAttribute('href', '/register');
  });

  test('returns to the page that asked for sign-in', async ({ page }) => {
    await page.goto('/profile?tab=account');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fprofile%3Ftab%3Daccount$/u);
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Welcome back!')).toBeVisible();
    await expect(page).toHaveURL(/\/profile\?tab=account$/u);
    await expect(page.getByText('Admin Account')).toBeVisible();

    // Signed in, /login sends the visitor on instead of showing the form.
    await page.goto('/auth/sign-in');
    await expect(page).toHaveURL(/\/dashboard$/u);
  });

  test('counts down wrong passwords and then locks the account', async ({ page, playwright, baseURL }) => {
    const user = await createUser(playwright, baseURL!, 'client', 'lockout');
    await page.goto('/login');
    await page.getByLabel('Email').fill(user.email);
    const password = page.getByLabel('Password', { exact: true });
    const signIn = page.getByRole('button', { name: 'Sign In', exact: true });

    for (const remaining of [4, 3, 2, 1]) {
      await password.fill(`Wrong!Passw0rd${remaining}`);
      await signIn.click();
      await expect(page.getByText(`Invalid email or password. ${remaining} attempt(s) remaining.`)).toBeVisible();
      await expect(page.getByText('Sign In Failed').first()).toBeVisible();
      await expect(signIn).toBeEnabled();
    }

    await password.fill('Wrong!Passw0rd5');
    await signIn.click();
    await expect(page.getByText('Account Temporarily Locked')).toBeVisible();
    await expect(page.getByText('Too many failed attempts. Please try again in 30 minute(s).')).toBeVisible();

    // Even the right password is refused while locked.
    await password.fill(user.password);
    await signIn.click();
    await expect(page.getByText(/Too many failed attempts\. Please try again in \d+ minute\(s\)\./u).first()).toBeVisible();
    await expect(page).toHaveURL(/\/login$/u);
  });

  test('signs out from the shell', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/u);
    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await expect(page.getByText('Signed out')).toBeVisible();
    await expect(page).toHaveURL(/\/login$/u);
    await page.goto('/dashboard');
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fdashboard$/u);
  });
});
