import { expect, test } from './support/fixtures';
import { appTookOver } from './support/prerender';
import { latestEmailLink, STRONG_PASSWORD, uniqueEmail } from './support/users';

test.describe('sign up', () => {
  test('shows live password hints and the mismatch message, then verifies by e-mail and signs in', async ({
    page,
    playwright,
    baseURL,
  }) => {
    const email = uniqueEmail('signup');
    await page.goto('/register');
    await expect(page).toHaveTitle(/Create Account/u);
    const create = page.getByRole('button', { name: 'Create Account' });
    await expect(create).toBeDisabled();

    await page.getByLabel('Full Name').fill('Sam Signup');
    await page.getByLabel('Email').fill(email);

    // A weak password: the meter says Weak and lists what is missing, live.
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('aaa');
    const hints = page.getByRole('list', { name: 'Password hints' });
    await expect(hints).toContainText('Use at least 8 characters');
    await expect(hints).toContainText('Include uppercase letters');
    await expect(hints).toContainText('Include numbers');
    await expect(hints).toContainText('Include special characters');
    await expect(page.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Weak');

    await password.fill('abcdefgh');
    await expect(hints).not.toContainText('Use at least 8 characters');
    await expect(hints).toContainText('Include uppercase letters');
    await expect(hints).toContainText('Include numbers');
    await expect(page.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Fair');

    await password.fill(STRONG_PASSWORD);
    await expect(hints).toHaveCount(0);
    await expect(page.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Strong');

    // The live mismatch message, and the button stays disabled until the two agree.
    const confirm = page.getByLabel('Confirm Password', { exact: true });
    await confirm.fill(`${STRONG_PASSWORD}x`);
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(create).toBeDisabled();
    await confirm.fill(STRONG_PASSWORD);
    await expect(page.getByText('Passwords do not match')).toHaveCount(0);
    await expect(create).toBeEnabled();

    await create.click();
    await expect(page.getByText('Account Created')).toBeVisible();
    await expect(page.getByText('Please check your email to verify your account.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();

    // Not verified yet: signing in is refused with the explanation.
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText('Sign In Failed')).toBeVisible();
    await expect(page.getByText(/verify your email address/u)).toBeVisible();

    // The verification link from the outbox signs the new user in.
    const link = await latestEmailLink(playwright, baseURL!, email, '/verify-email');
    await page.goto(link);
    await expect(page).toHaveURL(/\/dashboard$/u);
    await expect(page.getByText('Email Verified')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Welcome back, Sam Signup' })).toBeVisible();
  });

  test('refuses a disposable e-mail address with the shared rule', async ({ page }) => {
    await page.goto('/auth/sign-up');
    await appTookOver(page);
    await page.getByLabel('Email').fill('someone@mailinator.com');
    await page.getByLabel('Email').blur();
    await expect(page.getByText('Please use a valid email address')).toBeVisible();
  });
});
