/**
 * Workflow, zap and template admin (issue 13 §2; spec part 2 "Workflow, zap and template admin"):
 * an admin creates an n8n workflow and assigns a client; creates a template, clones it and assigns
 * a client to the copy (which creates that client's automation); on a 390 px phone the three
 * screens do not scroll sideways.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { apiAs, createClient, unique } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

const scrollsSideways = (page: Page) => page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) > document.documentElement.clientWidth);

async function pickClient(page: Page, dialogName: string, company: string) {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByRole('combobox', { name: 'Client to assign' }).click();
  await page.getByRole('option', { name: company, exact: true }).click();
  await dialog.getByRole('button', { name: 'Assign', exact: true }).click();
  return dialog;
}

test.describe('workflow, zap and template admin', () => {
  test('an admin creates an n8n workflow, finds it, switches it on, copies its URL and assigns a client', async ({ page, context, playwright, baseURL }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api, unique('Workflow Client'));
    // A second one, so the picker still offers a client after the first is assigned.
    await createClient(api, unique('Other Client'));
    await api.dispose();
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/n8n-workflows');
    const name = unique('Lead intake');
    const url = `https://n8n.example.com/webhook/${name.replace(/\W+/gu, '-')}`;

    await page.getByRole('button', { name: 'Create Workflow' }).click();
    const form = page.getByRole('dialog', { name: 'Create Workflow' });
    await form.getByRole('button', { name: 'Create Workflow' }).click();
    await expect(page.getByText('Please fill in all required fields')).toBeVisible();
    await form.getByRole('textbox', { name: /^Name/u }).fill(name);
    await form.getByRole('textbox', { name: 'Description' }).fill('Sends new leads to the CRM');
    await form.getByRole('textbox', { name: /^Webhook URL/u }).fill(url);
    await form.getByRole('button', { name: 'Create Workflow' }).click();
    await expect(page.getByText('Workflow Created')).toBeVisible();

    // Search runs on the server: the new workflow by its name, nothing for nonsense.
    await page.getByRole('searchbox', { name: 'Search workflows' }).fill('no-such-workflow-zzz');
    await expect(page.getByText('No workflows found')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search workflows' }).fill(name);
    const card = page.getByRole('article', { name });
    await expect(card).toContainText('Draft');

    await card.getByRole('switch', { name: 'Active' }).click();
    await expect(page.getByText('Workflow Active')).toBeVisible();
    await expect(card.getByRole('switch', { name: 'Active' })).toBeChecked();

    await card.getByRole('button', { name: `Copy the webhook URL of ${name}` }).click();
    await expect(page.getByText('URL copied to clipboard')).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

    await card.getByRole('button', { name: /^Clients \(\d+\)/u }).click();
    const clients = await pickClient(page, `Clients of ${name}`, client.companyName);
    await expect(page.getByText('Client Assigned')).toBeVisible();
    await expect(clients.getByRole('list', { name: 'Assigned clients' })).toContainText(client.companyName);
    // An assigned client is no longer offered.
    await clients.getByRole('combobox', { name: 'Client to assign' }).click();
    await expect(page.getByRole('option', { name: client.companyName, exact: true })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await clients.getByRole('button', { name: `Remove ${client.companyName}` }).click();
    await expect(page.getByText('Client Removed')).toBeVisible();
    await expect(clients.getByText('No clients assigned yet')).toBeVisible();
    await clients.getByRole('button', { name: 'Close' }).click();

    await card.getByRole('button', { name: `Delete ${name}` }).click();
    await expect(page.getByRole('alertdialog')).toContainText(`Are you sure you want to delete "${name}"?`);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Workflow Deleted')).toBeVisible();
    await expect(page.getByText('No workflows found')).toBeVisible();
  });

  test("an admin creates a template, clones it and assigns a client to the copy, which creates the client's automation", async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api, unique('Template Client'));
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/templates');
    const name = unique('Welcome flow');

    await page.getByRole('button', { name: 'Create Template' }).click();
    const form = page.getByRole('dialog', { name: 'Create Template' });
    await form.getByRole('textbox', { name: /^Name/u }).fill(name);
    await form.getByRole('button', { name: 'Create Template' }).click();
    await expect(page.getByText('Please fill in all required fields')).toBeVisible();
    await form.getByRole('textbox', { name: /^Webhook URL/u }).fill('https://n8n.example.com/webhook/welcome');
    // Two event triggers: new customer messages on WhatsApp, and new leads.
    await form.getByRole('button', { name: 'Add trigger' }).click();
    await form.getByRole('group', { name: 'Channel' }).getByRole('button', { name: 'WhatsApp' }).click();
    await form.getByRole('button', { name: 'Add trigger' }).click();
    await form.getByRole('combobox', { name: 'Event' }).nth(1).click();
    await page.getByRole('option', { name: /^lead\.qualified/u }).click();
    await form.getByRole('textbox', { name: 'n8n Workflow JSON' }).fill('{"nodes": [');
    await form.getByRole('button', { name: 'Create Template' }).click();
    await expect(form.getByText('This is not valid JSON. Paste the workflow as n8n exports it.')).toBeVisible();
    await form
      .getByRole('textbox', { name: 'n8n Workflow JSON' })
      .fill(JSON.stringify({ name: 'Welcome', nodes: [{ type: 'n8n-nodes-base.webhook', name: 'Webhook', parameters: { path: 'welcome' } }], connections: {} }));
    await form.getByRole('button', { name: 'Create Template' }).click();
    await expect(page.getByText('Template Created')).toBeVisible();

    await page.getByRole('searchbox', { name: 'Search templates' }).fill(name);
    const card = page.getByRole('article', { name, exact: true });
    await expect(card).toContainText('Draft');
    await expect(card).toContainText('message.received · WhatsApp');
    await expect(card).toContainText('lead.qualified');
    const download = page.waitForEvent('download');
    await card.getByRole('button', { name: `Download the n8n workflow of ${name}` }).click();
    expect((await download).suggestedFilename()).toMatch(/^welcome-flow-.*\.n8n\.json$/u);

    // Edit works: the stored JSON is shown and the name changes.
    await card.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Template' });
    await expect(edit.getByRole('textbox', { name: 'n8n Workflow JSON' })).toHaveValue(/n8n-nodes-base\.webhook/u);
    await edit.getByRole('textbox', { name: 'Description' }).fill('Greets new customers');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Template Updated')).toBeVisible();
    await expect(card).toContainText('Greets new customers');

    await card.getByRole('button', { name: `Clone ${name}` }).click();
    await expect(page.getByText('Template Cloned')).toBeVisible();
    const copyName = `${name} (Copy)`;
    const copy = page.getByRole('article', { name: copyName });
    await expect(copy).toContainText('Draft');
    await expect(copy.getByRole('button', { name: /^Clients \(/u })).toHaveAccessibleName(`Clients (0) of ${copyName}`);

    await copy.getByRole('button', { name: /^Clients \(/u }).click();
    const dialog = page.getByRole('dialog', { name: `Clients of ${copyName}` });
    await expect(dialog).toContainText("Assigning a client creates that client's automation from this template");
    await pickClient(page, `Clients of ${copyName}`, client.companyName);
    await expect(page.getByText('Client Assigned')).toBeVisible();
    await expect(dialog.getByRole('list', { name: 'Assigned clients' })).toContainText(client.companyName);
    // The same client again is refused (spec part 2 §5).
    await pickClient(page, `Clients of ${copyName}`, client.companyName);
    await expect(page.getByText(`${client.companyName} is already assigned to this template`)).toBeVisible();
    await expect(page.getByText('Client Already Assigned')).toBeVisible();

    // The assignment made the client's automation from the template.
    const { automations } = await api.get<{ automations: { name: string; client_id: string | null; workflow_url: string | null }[] }>('/api/v1/automations');
    expect(automations.find((a) => a.client_id === client.id)).toMatchObject({ workflow_url: 'https://n8n.example.com/webhook/welcome' });
    await api.dispose();
  });

  test('on a 390 px phone the three screens do not scroll sideways', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    const long = `${unique('A workflow with a rather long name that must wrap or truncate')}`;
    await api.post('/api/v1/workflows', { kind: 'n8n', name: long, webhookUrl: `https://n8n.example.com/webhook/${'x'.repeat(120)}` });
    await api.post('/api/v1/workflows', { kind: 'zapier', name: long, webhookUrl: `https://hooks.zapier.com/hooks/catch/${'1'.repeat(60)}/`, appIntegrations: ['Gmail', 'Google Sheets'] });
    await api.post('/api/v1/templates', { name: long, type: 'n8n', workflowConfig: { webhookUrl: `https://n8n.example.com/webhook/${'y'.repeat(120)}`, triggers: ['message.received'] } });
    await api.dispose();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInPage(page, ADMIN.email, ADMIN.password);
    for (const path of ['/n8n', '/zapier', '/templates']) {
      await page.goto(path);
      await expect(page.getByRole('article').first(), path).toBeVisible();
      expect(await scrollsSideways(page), path).toBe(false);
    }
  });
});
