import { expect, test } from './support/fixtures';
import { ADMIN, signInPage, STRONG_PASSWORD, uniqueEmail } from './support/users';

test.describe('user administration', () => {
  test('an admin creates a user, changes their role and cannot change their own', async ({ page }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/settings');
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('link', { name: /User Management/u }).click();
    await expect(page).toHaveURL(/\/admin\/users$/u);

    // One's own role cannot be changed.
    await expect(page.getByRole('combobox', { name: `Role for ${ADMIN.email}` })).toBeDisabled();

    const email = uniqueEmail('created');
    await page.getByRole('button', { name: 'Create User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create User' });
    await dialog.getByLabel('Full Name').fill('Casey Created');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await dialog.getByRole('combobox', { name: 'Role' }).click();
    await page.getByRole('option', { name: 'Manager' }).click();
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await expect(page.getByText('User Created')).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search users' }).fill(email);
    const row = page.getByRole('row').filter({ hasText: email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Active');
    const roleSelect = row.getByRole('combobox', { name: `Role for ${email}` });
    await expect(roleSelect).toHaveText(/Manager/u);

    await roleSelect.click();
    await page.getByRole('option', { name: 'Client' }).click();
    await expect(page.getByText('Role Updated')).toBeVisible();
    await expect(roleSelect).toHaveText(/Client/u);
  });
});
