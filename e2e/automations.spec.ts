/**
 * The automations journey (issue 13 §7, spec part 2 "Automations screen"): an admin makes a template
 * whose workflow is a loopback receiver and assigns it to a client; the client user opens
 * /automations, activates and runs it, and watches the step messages and the history entry turn to
 * success live, without a reload. Admins create automations (the signing secret shown once) and
 * configure them; other roles see no Add Automation or Configure.
 *
 * Needs OUTBOUND_ALLOWED_HOSTS=127.0.0.1 in the server's environment (playwright.config.ts), so the
 * run may reach the receiver on loopback.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, literal, unique } from './support/messaging';
import { ADMIN, signInPage } from './support/users';
import { startWorkflowReceiver } from './support/workflow-receiver';

/** Resolves once the page's WebSocket confirmed the subscription to `topic`. */
function subscribed(page: Page, topic: string): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
        if (text.includes('"subscribed"') && text.includes(`"${topic}"`)) resolve();
      });
    });
  });
}

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

test.describe('automations', () => {
  test('a client user runs the template assigned to its business and watches it succeed live', async ({ page, playwright, baseURL }) => {
    const receiver = await startWorkflowReceiver();
    const api = await apiAs(playwright, baseURL!);
    try {
      // The admin's side, through the API: a workflow and a template on the receiver, assigned to a client.
      const client = await createClient(api);
      const user = await createClientUser(api, client.id);
      await api.post('/api/v1/workflows', { kind: 'n8n', name: unique('Lead workflow'), description: 'Follows up new leads', webhookUrl: receiver.url });
      const name = unique('Lead follow-up');
      const template = await api.post<{ id: string }>('/api/v1/templates', {
        name,
        description: 'Answers every new lead within a minute',
        type: 'n8n',
        workflowConfig: { webhookUrl: receiver.url, triggers: ['lead.qualified'] },
      });
      const assigned = await api.post<{ clientAssignments: { clientId: string; automationId: string | null }[] }>(`/api/v1/templates/${template.id}/clients`, {
        clientId: client.id,
      });
      const automationId = assigned.clientAssignments.find((a) => a.clientId === client.id)?.automationId;
      expect(automationId).toBeTruthy();
      // The workflow checks that runs come from Parley: the admin hands it a fresh signing secret.
      const rotated = await api.post<{ signing_secret: string }>(`/api/v1/automations/${automationId}/rotate-secret`, undefined, 200);
      receiver.secret = rotated.signing_secret;

      // The client user's side, in the browser.
      await signInPage(page, user.email, user.password);
      const live = subscribed(page, `automation:${automationId}`);
      await page.goto('/automations');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Automations');
      await expect(page.getByRole('button', { name: 'Add Automation' })).toHaveCount(0);
      await expect(page.getByText('Select an automation to view details and execution history.')).toBeVisible();

      const row = page.getByTestId('automation-row').filter({ hasText: name });
      await expect(row).toContainText('Answers every new lead within a minute');
      await expect(row).toContainText('Updated');
      // A template gives the business a working automation: active, ready to run.
      await expect(row).toContainText('Active');
      await expect(row.getByRole('button', { name: `Run ${name}` })).toBeEnabled();
      await row.getByRole('button', { name: `Pause ${name}` }).click();
      await expect(page.getByText('Automation paused')).toBeVisible();
      await expect(row).toContainText('Paused');
      await row.getByRole('button', { name: `Resume ${name}` }).click();
      await expect(page.getByText('Automation active')).toBeVisible();
      await expect(row).toContainText('Active');
      await expect(row.getByRole('button', { name: `Run ${name}` })).toBeEnabled();

      await row.getByRole('button', { name: `Open ${name}` }).click();
      await live;
      await expect(page.getByText('No executions found. Run the automation to see execution history.')).toBeVisible();
      await expect(page.getByText('No messages yet. Messages will appear here when the automation runs.')).toBeVisible();
      // Client users do not configure automations: no Configure button, no dead one either.
      await expect(page.getByRole('button', { name: 'Configure' })).toHaveCount(0);

      await row.getByRole('button', { name: `Run ${name}` }).click();
      await expect(page.getByText('Automation triggered successfully')).toBeVisible();
      const trigger = await receiver.nextTrigger();
      expect(trigger.signatureValid).toBe(true);
      expect(trigger.client_id).toBe(client.id);

      const history = page.getByRole('list', { name: 'Execution history' });
      const entry = history.getByTestId('execution').first();
      await expect(entry).toHaveAttribute('data-execution-status', 'running');
      // The workflow's answer carried its own execution id, stored and shown.
      await expect(entry).toContainText('loop-1');
      await expect(entry).toContainText('N/A');

      // The workflow reports its steps and its end through the callbacks; the page shows them live.
      expect(await receiver.postMessage(trigger, { step_name: 'Receive lead', message_type: 'info', content: 'Lead Ada Lovelace received' })).toBe(201);
      expect(
        await receiver.postMessage(trigger, { step_name: 'Send reply', message_type: 'success', content: 'Reply sent to the lead', metadata: { channel: 'whatsapp' } }),
      ).toBe(201);
      const messages = page.getByTestId('automation-message');
      await expect(messages).toHaveCount(2);
      // Newest on top.
      await expect(messages.first()).toContainText('Reply sent to the lead');
      await expect(messages.first()).toContainText('Send reply');
      await expect(messages.nth(1)).toContainText('Lead Ada Lovelace received');
      await messages.first().getByText('View metadata').click();
      await expect(messages.first()).toContainText('"channel": "whatsapp"');

      expect(await receiver.reportStatus(trigger, { status: 'success' })).toBe(200);
      await expect(entry).toHaveAttribute('data-execution-status', 'success');
      await expect(entry).toContainText('Success');
      await expect(entry).not.toContainText('N/A');

      // A phone: list and details stack, nothing scrolls sideways.
      await page.setViewportSize({ width: 390, height: 844 });
      await expect(entry).toBeVisible();
      await expectNoHorizontalScroll(page);
    } finally {
      await api.dispose();
      await receiver.close();
    }
  });

  test('an admin creates an automation, sees its signing secret once, and configures it', async ({ page, playwright, baseURL }) => {
    const receiver = await startWorkflowReceiver();
    const api = await apiAs(playwright, baseURL!);
    try {
      const client = await createClient(api);
      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/admin/automations');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Automations');

      await page.getByRole('button', { name: 'Add Automation' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Create Automation' }).click();
      await expect(dialog.getByText('Name is required')).toBeVisible();
      await expect(dialog.getByText('Workflow ID is required')).toBeVisible();
      await expect(dialog.getByText('Workflow URL is required')).toBeVisible();

      const name = unique('Invoice reminder');
      await dialog.getByLabel('Name').fill(name);
      await dialog.getByLabel('Description').fill('Reminds customers of unpaid invoices');
      await dialog.getByLabel('Workflow ID').fill('wf-invoices');
      await dialog.getByLabel('Workflow URL').fill(receiver.url);
      await dialog.getByLabel('Client').click();
      await page.getByRole('option', { name: client.companyName }).click();
      await dialog.getByRole('button', { name: 'Create Automation' }).click();
      await expect(page.getByText('Automation created successfully')).toBeVisible();
      await expect(dialog.getByLabel('Signing Secret', { exact: true })).toHaveValue(/^.{20,}$/u);
      await expect(dialog).toContainText('X-Parley-Signature');
      await dialog.getByRole('button', { name: 'Done' }).click();
      await expect(dialog).toBeHidden();

      const row = page.getByTestId('automation-row').filter({ hasText: name });
      await expect(row).toContainText('Inactive');
      await row.getByRole('button', { name: `Open ${name}` }).click();
      await page.getByRole('button', { name: 'Configure' }).click();
      await expect(page.getByRole('dialog').getByLabel('Workflow ID')).toHaveValue('wf-invoices');
      await page.getByRole('dialog').getByLabel('Description').fill('Reminds customers of invoices due this week');
      await page.getByRole('dialog').getByRole('button', { name: 'Update Automation' }).click();
      await expect(page.getByText('Automation updated successfully')).toBeVisible();
      await expect(row).toContainText(literal('Reminds customers of invoices due this week'));

      // A new signing secret, shown once; then the automation goes.
      await page.getByRole('button', { name: 'New Secret' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Replace Secret' }).click();
      await expect(page.getByRole('dialog').getByLabel('Signing Secret', { exact: true })).toHaveValue(/^.{20,}$/u);
      await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      await expect(page.getByText('Automation deleted')).toBeVisible();
      await expect(row).toHaveCount(0);
    } finally {
      await api.dispose();
      await receiver.close();
    }
  });
});
