import { expect, test } from './support/fixtures';
import { base32Decode, totp } from '../test/helpers/totp';
import { createUser, signInPage } from './support/users';

test.describe('profile', () => {
  test('edits the profile, avatar, notifications and password', async ({ page, playwright, baseURL }) => {
    const user = await createUser(playwright, baseURL!, 'client', 'profile');
    await signInPage(page, user.email, user.password);
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'My Profile Settings' })).toBeVisible();
    await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);

    await page.getByLabel('Full Name').fill('Pat Profile');
    await page.getByLabel('Phone').fill('+1 555 0100');
    await page.getByLabel('Company').fill('Pat & Co');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Profile Updated')).toBeVisible();
    await expect(page.getByText('Your profile information has been saved successfully.')).toBeVisible();
    await expect(page.getByTestId('user-block')).toContainText('Pat Profile');

    await page.getByRole('radio', { name: 'Avatar ocean' }).click();
    await expect(page.getByText('Avatar Updated')).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Avatar ocean' })).toHaveAttribute('aria-checked', 'true');

    await page.getByRole('tab', { name: 'Notifications' }).click();
    const weekly = page.getByRole('switch', { name: 'Weekly Reports' });
    await expect(weekly).toHaveAttribute('aria-checked', 'false');
    await weekly.click();
    await page.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(page.getByText('Notification Settings Saved')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Weekly Reports' })).toHaveAttribute('aria-checked', 'true');

    await page.getByRole('tab', { name: 'Account' }).click();
    await expect(page.getByText('Client Account')).toBeVisible();

    await page.getByRole('tab', { name: 'Security' }).click();
    const change = page.getByRole('button', { name: 'Change Password' });
    await page.getByLabel('Current Password').fill(user.password);
    await page.getByLabel('New Password', { exact: true }).fill('Sh0rt!');
    await page.getByLabel('Confirm New Password').fill('Sh0rt!');
    await change.click();
    await expect(page.getByText('Password Too Short')).toBeVisible();
    await expect(page.getByText('Password must be at least 8 characters long.')).toBeVisible();

    await page.getByLabel('New Password', { exact: true }).fill('An0ther!Passw0rd');
    await page.getByLabel('Confirm New Password').fill('An0ther!Passw0rdX');
    await change.click();
    await expect(page.getByText('Password Mismatch')).toBeVisible();

    await page.getByLabel('Current Password').fill('Not!TheRight0ne');
    await page.getByLabel('Confirm New Password').fill('An0ther!Passw0rd');
    await change.click();
    await expect(page.getByText('Password Change Failed')).toBeVisible();

    await page.getByLabel('Current Password').fill(user.password);
    await change.click();
    await expect(page.getByText('Password Updated')).toBeVisible();
    await expect(page.getByText('Your password has been changed successfully.')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Sessions' }).getByText('This device')).toBeVisible();
  });

  test('turns on two-factor authentication and signs in with a code', async ({ page, playwright, baseURL }) => {
    const user = await createUser(playwright, baseURL!, 'manager', 'twofactor');
    await signInPage(page, user.email, user.password);
    await page.goto('/profile?tab=security');

    await page.getByRole('button', { name: 'Enable Two-Factor Authentication' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Password', { exact: true }).fill(user.password);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').first()).toBeVisible();
    const secret = base32Decode((await dialog.locator('code').textContent())!.trim());
    await dialog.getByLabel('Verification code').fill(totp(secret));
    await dialog.getByRole('button', { name: 'Turn On' }).click();
    await expect(page.getByText('Two-Factor Authentication Enabled')).toBeVisible();
    await expect(page.getByText('On', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Sign Out', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/u);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Two-Factor Authentication' })).toBeVisible();

    await page.getByLabel('Authentication code').fill('000000');
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Sign In Failed')).toBeVisible();

    await page.getByLabel('Authentication code').fill(totp(secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/dashboard$/u);
    await expect(page.getByText('Welcome back!')).toBeVisible();
  });

  test('creates an API key, sees it once, calls the API with it, and revokes it', async ({ page, playwright, baseURL }) => {
    const user = await createUser(playwright, baseURL!, 'client', 'apikey');
    await signInPage(page, user.email, user.password);
    await page.goto('/profile?tab=security');

    await page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(dialog.getByText('Please enter a name')).toBeVisible();
    await expect(dialog.getByText('Choose at least one scope')).toBeVisible();
    await dialog.getByLabel('Name').fill('CRM sync');
    await dialog.getByLabel('Read conversations and messages').check();
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByText('API Key Created')).toBeVisible();
    await expect(dialog.getByText("You won't see it again")).toBeVisible();
    const key = (await dialog.getByLabel('API key CRM sync').textContent())!.trim();
    expect(key).toMatch(/^pk_live_[0-9a-f]{12}_/u);
    await dialog.getByRole('button', { name: 'Done' }).click();

    const keys = page.getByRole('list', { name: 'API keys' });
    await expect(keys.getByText('CRM sync')).toBeVisible();
    await expect(keys.getByText('Never used')).toBeVisible();
    await expect(page.getByText(key)).toHaveCount(0);

    const api = await playwright.request.newContext({ baseURL: baseURL!, extraHTTPHeaders: { authorization: `Bearer ${key}` } });
    expect((await api.get('/api/v1/me')).status()).toBe(200);
    expect((await api.get('/api/v1/conversations')).status()).toBe(200);
    expect((await api.get('/api/v1/contacts')).status()).toBe(403);

    await page.reload();
    await expect(keys.getByText(/Last used/u)).toBeVisible();
    await keys.getByRole('button', { name: 'Revoke the API key “CRM sync”' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText('API Key Revoked')).toBeVisible();
    await expect(page.getByText('No API keys yet.')).toBeVisible();
    expect((await api.get('/api/v1/me')).status()).toBe(401);
    await api.dispose();
  });
});
