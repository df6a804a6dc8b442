import { expect, test } from './support/fixtures';
import { ADMIN, createUser, signInPage } from './support/users';

const NEW_PASSWORD = 'N3w!Secret#Pass';

test.describe('forgot and reset password', () => {
  test('sends a link to the outbox, resets the password and signs in with it', async ({ page, browser, playwright, baseURL }) => {
    const user = await createUser(playwright, baseURL!, 'client', 'reset');

    await page.goto('/forgot-password');
    const send = page.getByRole('button', { name: 'Send Reset Link' });
    await expect(send).toBeDisabled();
    // Inline errors clear as soon as the user types (spec part 2 §5).
    await page.getByLabel('Email').fill('   ');
    await send.click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await page.getByLabel('Email').fill('nobody');
    await expect(page.getByText('Email is required')).toHaveCount(0);
    await send.click();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();

    await page.getByLabel('Email').fill(user.email);
    await send.click();
    await expect(page.getByRole('heading', { name: 'Check Your Email' })).toBeVisible();
    await page.getByRole('button', { name: 'Send Another Email' }).click();
    await expect(page.getByLabel('Email')).toHaveValue('');
    await page.getByRole('link', { name: 'Back to Login' }).click();
    await expect(page).toHaveURL(/\/login$/u);

    // An admin reads the e-mail in the outbox.
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    await signInPage(admin, ADMIN.email, ADMIN.password);
    await admin.goto('/admin/outbox');
    await admin.getByRole('list', { name: 'E-mails' }).getByRole('button').filter({ hasText: user.email }).first().click();
    const resetLink = admin.getByRole('article', { name: 'E-mail' }).getByRole('link', { name: /reset-password\?token=/u });
    await expect(resetLink).toBeVisible();
    const href = await resetLink.getAttribute('href');
    await adminContext.close();
    expect(href).toBeTruthy();

    await page.goto(href!);
    await expect(page.getByRole('heading', { name: 'Reset Password' })).toBeVisible();
    const update = page.getByRole('button', { name: 'Update Password' });
    await expect(update).toBeDisabled();
    await page.getByLabel('New Password').fill('aaaa');
    await expect(page.getByRole('meter', { name: 'Password strength' })).toHaveAttribute('aria-valuetext', 'Weak');
    await page.getByLabel('Confirm Password').fill('aaa');
    await expect(page.getByText('Passwords do not match')).toBeVisible();
    await expect(update).toBeDisabled();
    await page.getByLabel('Confirm Password').fill('aaaa');
    await update.click();
    await expect(page.getByText('Weak Password')).toBeVisible();
    await expect(page.getByText(/^Password is too weak\. Use at least 8 characters\./u).first()).toBeVisible();

    await page.getByLabel('New Password').fill(NEW_PASSWORD);
    await page.getByLabel('Confirm Password').fill(NEW_PASSWORD);
    await update.click();
    await expect(page.getByText('Password Updated')).toBeVisible();
    await expect(
      page.getByText('Your password has been updated successfully. You can now sign in with your new password.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/u, { timeout: 5_000 });

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/u);

    // The link is single-use.
    await page.goto(href!);
    await expect(page.getByText('Invalid Reset Link')).toBeVisible();
    await expect(page).toHaveURL(/\/forgot-password$/u);
  });

  test('sends an invalid link back to /forgot-password', async ({ page }) => {
    await page.goto('/auth/reset-password?token=not-a-real-token');
    await expect(page.getByText('Invalid Reset Link')).toBeVisible();
    await expect(page.getByText('This password reset link is invalid or has expired.')).toBeVisible();
    await expect(page).toHaveURL(/\/forgot-password$/u);
  });
});
