/**
 * Clients and channel management (issue 3 §6): an admin adds a client, connects a website chat
 * and gets its embed snippet; a WhatsApp channel shows its webhook URL and the verify token once.
 */
import { expect, test } from './support/fixtures';
import { unique } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

test.describe('clients and channels', () => {
  test('an admin adds a client, connects a website chat and copies its snippet', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/clients');
    const company = unique('Bakery Bliss');

    await page.getByRole('button', { name: 'Add Client' }).click();
    const form = page.getByRole('dialog', { name: 'Add Client' });
    await form.getByRole('button', { name: 'Add Client' }).click();
    await expect(form.getByText('Company name is required')).toBeVisible();
    await form.getByRole('textbox', { name: 'Company Name' }).fill(company);
    await form.getByRole('textbox', { name: 'Contact Person' }).fill('Bea Baker');
    await form.getByRole('textbox', { name: 'Email' }).fill('bea@bliss.test');
    await form.getByRole('button', { name: 'Add Client' }).click();
    await expect(page.getByText('Client Created')).toBeVisible();

    // The new client's panel opens with no channels yet.
    const sheet = page.getByRole('dialog', { name: company });
    await expect(sheet.getByText('No channels yet.')).toBeVisible();
    await sheet.getByRole('button', { name: 'Connect Channel' }).click();
    const connect = page.getByRole('dialog', { name: 'Connect Channel' });
    await connect.getByRole('combobox', { name: 'Channel Type' }).click();
    await page.getByRole('option', { name: 'Website chat' }).click();
    await connect.getByRole('button', { name: 'Connect Channel' }).click();

    const created = page.getByRole('dialog', { name: 'Channel connected' });
    const snippet = created.getByRole('textbox', { name: 'Embed Snippet' });
    await expect(snippet).toHaveValue(/<script src="[^"]+\/widget\.js" data-widget-id="[^"]+" async><\/script>/u);
    await created.getByRole('button', { name: 'Copy Embed Snippet' }).click();
    await expect(page.getByText('Embed Snippet copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.inputValue());
    await created.getByRole('button', { name: 'Done' }).click();

    const card = sheet.getByRole('article', { name: 'Website chat channel' });
    await expect(card).toContainText('Active');
    await expect(card.getByRole('textbox', { name: 'Embed Snippet' })).toHaveValue(/data-widget-id/u);
    await card.getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByText('Channel Disabled')).toBeVisible();
    await expect(card).toContainText('Disabled');
    await card.getByRole('button', { name: 'Enable' }).click();
    await expect(card).toContainText('Active');

    // The list shows the client with its channel; /clients has the same client as a card.
    await sheet.getByRole('button', { name: 'Close' }).first().click();
    await page.getByRole('searchbox', { name: 'Search clients' }).fill(company);
    await expect(page.getByRole('row').filter({ hasText: company })).toContainText('1');
    await page.goto('/clients');
    await page.getByRole('searchbox', { name: 'Search clients' }).fill(company);
    await page.getByRole('button', { name: `View Profile of ${company}` }).click();
    await expect(page.getByRole('dialog', { name: company }).getByText('Bea Baker')).toBeVisible();
  });

  test('a WhatsApp channel shows the callback URL and its generated verify token once', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/clients');
    const company = unique('Clinic');
    await page.getByRole('button', { name: 'Add Client' }).click();
    await page.getByRole('dialog', { name: 'Add Client' }).getByRole('textbox', { name: 'Company Name' }).fill(company);
    await page.getByRole('dialog', { name: 'Add Client' }).getByRole('button', { name: 'Add Client' }).click();
    const sheet = page.getByRole('dialog', { name: company });
    await sheet.getByRole('button', { name: 'Connect Channel' }).click();

    const connect = page.getByRole('dialog', { name: 'Connect Channel' });
    await connect.getByRole('button', { name: 'Connect Channel' }).click();
    await expect(connect.getByText('Please enter the phone number id')).toBeVisible();
    await connect.getByRole('textbox', { name: 'Phone number ID' }).fill(`e2e${Date.now()}`);
    await connect.getByLabel('Access Token').fill('EAAB-access-token-e2e');
    await connect.getByLabel('App Secret').fill('app-secret-e2e-123');
    await connect.getByRole('button', { name: 'Connect Channel' }).click();

    const created = page.getByRole('dialog', { name: 'Channel connected' });
    await expect(created.getByRole('textbox', { name: 'Callback URL' })).toHaveValue(/\/webhooks\/whatsapp$/u);
    const token = await created.getByRole('textbox', { name: 'Verify Token' }).inputValue();
    expect(token.length).toBeGreaterThanOrEqual(8);
    await created.getByRole('button', { name: 'Copy Callback URL' }).click();
    await expect(page.getByText('URL copied to clipboard')).toBeVisible();
    await created.getByRole('button', { name: 'Done' }).click();

    // Afterwards the token is only "stored", never shown again.
    const card = sheet.getByRole('article', { name: 'WhatsApp channel' });
    await expect(card).toContainText('Verify token');
    await expect(card).not.toContainText(token);
  });
});
