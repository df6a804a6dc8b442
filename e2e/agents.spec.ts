/**
 * AI agents and knowledge bases (issue 4): an admin configures a client's agent, teaches it an FAQ
 * entry, sees the new version go live and tries it with a paraphrase; imports a CSV (a bad row is
 * refused and named) and exports it again; a manager sees every agent on /agents; the client sees
 * their agent on the dashboard.
 */
import fs from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, newWatchedContext, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, createWhatsAppChannel, unique } from './support/messaging';
import { ADMIN, createUser, signInPage } from './support/users';

/** Training the embedded engine takes a moment on a busy machine. */
const TRAINED = { timeout: 30_000 };

async function openAgent(page: Page, clientId: string, section?: 'knowledge') {
  await page.goto(`/settings?tab=agents&client=${clientId}${section ? `&section=${section}` : ''}`);
  await expect(page.getByRole('tab', { name: 'AI Agents', selected: true })).toBeVisible();
}

/**
 * Save Changes, and the save's answer: the PUT itself succeeded (the "Agent Saved" toast of an
 * earlier save may still be showing, or already gone, on a slow machine).
 */
async function saveAgent(page: Page, form: Locator) {
  const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && /\/api\/v1\/clients\/[^/]+\/agent$/u.test(new URL(r.url()).pathname));
  await form.getByRole('button', { name: 'Save Changes' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('Agent Saved').first()).toBeVisible();
}

test.describe('AI agents', () => {
  test('an admin configures an agent, adds an FAQ entry, sees it go live and tries a paraphrase', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api, unique('Bakery Bliss'));
    await createWhatsAppChannel(api, client.id);
    await api.dispose();

    await signInPage(page, ADMIN.email, ADMIN.password);
    await openAgent(page, client.id);
    await expect(page.getByRole('combobox', { name: 'Client' })).toHaveText(client.companyName);

    // The spec's defaults: Medium (0.8), escalation on, 2 seconds.
    const form = page.getByRole('form', { name: 'Agent configuration' });
    await expect(form.getByRole('combobox', { name: 'Confidence threshold' })).toHaveText('Medium (0.8)');
    await expect(form.getByRole('switch', { name: 'Escalation' })).toBeChecked();
    await expect(form.getByRole('spinbutton', { name: 'Response delay (seconds)' })).toHaveValue('2');

    await form.getByRole('textbox', { name: 'Name' }).fill('Bliss Helper');
    await form.getByRole('combobox', { name: 'Confidence threshold' }).click();
    await page.getByRole('option', { name: 'High (0.9)' }).click();
    const delay = form.getByRole('spinbutton', { name: 'Response delay (seconds)' });
    await delay.fill('61');
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByText('Response delay must be between 0 and 60 seconds')).toBeVisible();
    await expect(delay).toHaveAttribute('aria-invalid', 'true');
    await delay.fill('3');

    // The channel can be switched off; business hours replace "Always on".
    await form.getByRole('switch', { name: /WhatsApp/u }).click();
    await form.getByRole('switch', { name: 'Always on' }).click();
    await form.getByLabel('Time zone').fill('Europe/London');
    await form.getByRole('button', { name: 'Add Saturday hours' }).click();
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Agent Saved')).toBeVisible();

    await page.reload();
    await expect(form.getByRole('textbox', { name: 'Name' })).toHaveValue('Bliss Helper');
    await expect(form.getByRole('combobox', { name: 'Confidence threshold' })).toHaveText('High (0.9)');
    await expect(form.getByRole('spinbutton', { name: 'Response delay (seconds)' })).toHaveValue('3');
    await expect(form.getByRole('switch', { name: /WhatsApp/u })).not.toBeChecked();
    await expect(form.getByRole('switch', { name: 'Always on' })).not.toBeChecked();
    await expect(form.getByLabel('Saturday opens')).toHaveValue('09:00');
    // The server's own field errors land on their field: an OpenAI-compatible server needs its URL.
    const engine = form.getByRole('combobox', { name: 'Engine' });
    await engine.click();
    await page.getByRole('option', { name: 'OpenAI-compatible server' }).click();
    await form.getByRole('button', { name: 'Save Changes' }).click();
    await expect(form.getByText('An OpenAI-compatible server needs its base URL')).toBeVisible();
    // A hosted engine's API key is write-only: "Stored" afterwards, and it can be removed.
    await engine.click();
    await page.getByRole('option', { name: 'OpenAI', exact: true }).click();
    await form.getByLabel('API key').fill('sk-e2e-not-a-real-key');
    await saveAgent(page, form);
    await expect(form.getByText('Stored', { exact: true })).toBeVisible();
    await expect(form.getByLabel('API key')).toHaveValue('');
    await form.getByRole('button', { name: 'Remove the stored key' }).click();
    await engine.click();
    await page.getByRole('option', { name: 'Embedded (offline)' }).click();
    // Back to Medium and always on, so the paraphrase below is answered.
    await form.getByRole('combobox', { name: 'Confidence threshold' }).click();
    await page.getByRole('option', { name: 'Medium (0.8)' }).click();
    await form.getByRole('switch', { name: 'Always on' }).click();
    await saveAgent(page, form);
    await engine.click();
    await page.getByRole('option', { name: 'OpenAI', exact: true }).click();
    await expect(form.getByText('None stored')).toBeVisible();
    await form.getByRole('button', { name: 'Discard changes' }).click();
    await expect(engine).toHaveText('Embedded (offline)');

    // Teach it one FAQ entry with a few ways of asking.
    await page.getByRole('tab', { name: 'Knowledge base' }).click();
    await expect(page).toHaveURL(/section=knowledge/u);
    await expect(page.getByText('No FAQ entries yet')).toBeVisible();
    await page.getByRole('button', { name: 'Add FAQ Entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add FAQ Entry' });
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect(dialog.getByText('A question cannot be empty')).toBeVisible();
    await expect(dialog.getByText('Answer is required')).toBeVisible();
    const questions = ['What are your opening hours?', 'When are you open?', 'What time does the shop open?'];
    await dialog.getByRole('textbox', { name: 'Example question 1' }).fill(questions[0]!);
    for (const [index, question] of questions.slice(1).entries()) {
      await dialog.getByRole('button', { name: 'Add question' }).click();
      await dialog.getByRole('textbox', { name: `Example question ${index + 2}` }).fill(question);
    }
    await dialog.getByRole('button', { name: 'Add question' }).click();
    await dialog.getByRole('button', { name: 'Remove question 4' }).click();
    await dialog.getByRole('textbox', { name: 'Answer' }).fill('We are open from 8 am to 6 pm, Monday to Saturday.');
    await dialog.getByRole('textbox', { name: 'Link (optional)' }).fill('https://bliss.example/hours');
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect(page.getByText('FAQ Entry Added')).toBeVisible();
    const entries = page.getByRole('table', { name: 'FAQ entries' });
    await expect(entries.getByRole('row').filter({ hasText: questions[0]! })).toContainText('+2 more ways to ask');
    await expect(page.getByRole('tab', { name: 'FAQ (1)' })).toBeVisible();

    // Training runs in the background and the new version goes live.
    const training = page.getByRole('region', { name: 'Training' });
    await expect(training.getByTestId('training-text')).toContainText('Live since', TRAINED);
    await expect(training).toContainText('1 entry · 3 example questions');

    // Search filters the list through the API.
    await page.getByRole('searchbox', { name: 'Search the knowledge base' }).fill('refund');
    await expect(page.getByText('No FAQ entry matches')).toBeVisible();
    await page.getByRole('searchbox', { name: 'Search the knowledge base' }).fill('');
    await expect(entries).toBeVisible();

    // A paraphrase nobody typed in finds the answer.
    const tryBox = page.getByRole('region', { name: 'Try the agent' });
    await tryBox.getByRole('textbox', { name: 'Question' }).fill('hey, at what time do you open the shop?');
    await tryBox.getByRole('button', { name: 'Ask' }).click();
    const reply = tryBox.getByRole('region', { name: 'Agent reply' });
    await expect(reply.getByTestId('agent-reply')).toContainText('8 am to 6 pm');
    await expect(reply).toContainText(/Confidence \d+%/u);
    await expect(reply).toContainText('Answers');
    await expect(reply.getByRole('link', { name: questions[0]! })).toHaveAttribute('href', 'https://bliss.example/hours');

    // Deleting asks first.
    await entries.getByRole('button', { name: `Delete the FAQ entry “${questions[0]!}”` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete this FAQ entry?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(entries.getByRole('row').filter({ hasText: questions[0]! })).toBeVisible();
    await entries.getByRole('button', { name: `Delete the FAQ entry “${questions[0]!}”` }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('FAQ Entry Deleted')).toBeVisible();
    await expect(page.getByText('No FAQ entries yet')).toBeVisible();
  });

  test('an admin imports a CSV (a bad row is refused and named) and exports it again', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api, unique('Clinic'));
    await api.dispose();
    await signInPage(page, ADMIN.email, ADMIN.password);
    await openAgent(page, client.id, 'knowledge');

    const importFile = async (name: string, content: string) => {
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: 'Import FAQ' });
      await dialog.getByLabel('File', { exact: true }).setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(content, 'utf8') });
      await dialog.getByRole('button', { name: 'Import', exact: true }).click();
      return dialog;
    };

    const bad = await importFile('faq.csv', 'question,answer\nDo you take walk-ins?,Yes until noon.\nWhere do I park?,\n');
    await expect(bad.getByRole('alert')).toContainText('The file was not imported');
    await expect(bad.getByRole('alert')).toContainText('Line 3: the answer is empty');
    await bad.getByRole('button', { name: 'Close' }).click();

    const good = [
      'question,answer,link',
      'Do you take walk-ins?,Yes: walk-ins are welcome until noon.,',
      'Can I come without an appointment?,Yes: walk-ins are welcome until noon.,',
      'Where can I park?,"Free parking behind the clinic, entrance on Elm Street.",https://clinic.example/parking',
    ].join('\n');
    await importFile('faq.csv', good);
    await expect(page.getByText('Knowledge Imported')).toBeVisible();
    await expect(page.getByText('2 entries with 3 example questions; the agent is retraining.')).toBeVisible();
    const entries = page.getByRole('table', { name: 'FAQ entries' });
    await expect(entries.getByRole('row')).toHaveCount(3);
    await expect(entries.getByRole('row').filter({ hasText: 'Do you take walk-ins?' })).toContainText('+1 more way to ask');
    await expect(page.getByRole('region', { name: 'Training' }).getByTestId('training-text')).toContainText('Live since', TRAINED);

    await page.getByRole('button', { name: 'Export' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export as CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.csv$/u);
    const csv = await fs.readFile(await file.path(), 'utf8');
    expect(csv.split(/\r?\n/u)[0]).toBe('question,answer,link');
    expect(csv).toContain('Can I come without an appointment?');
    expect(csv).toContain('"Free parking behind the clinic, entrance on Elm Street."');
    await expect(page.getByText('Export Downloaded')).toBeVisible();

    await page.getByRole('button', { name: 'Export' }).click();
    const jsonDownload = page.waitForEvent('download');
    await page.getByRole('menuitem', { name: 'Export as JSON' }).click();
    const json = JSON.parse(await fs.readFile(await (await jsonDownload).path(), 'utf8')) as { questions: string[] }[];
    expect(json.map((e) => e.questions.length).sort()).toEqual([1, 2]);
  });

  test('a manager sees every agent on /agents, and the client sees theirs on the dashboard', async ({ page, browser, playwright, baseURL, problems }) => {
    const api = await apiAs(playwright, baseURL!);
    const client = await createClient(api, unique('Florist'));
    const clientUser = await createClientUser(api, client.id, 'Fiona Florist');
    await api.dispose();
    const manager = await createUser(playwright, baseURL!, 'manager');

    await signInPage(page, manager.email, manager.password);
    await page.goto('/user/dashboard');
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'AI Agents' }).click();
    await expect(page).toHaveURL(/\/agents$/u);
    await page.getByRole('searchbox', { name: 'Search agents' }).fill(client.companyName);
    const row = page.getByRole('table', { name: 'AI agents' }).getByRole('row').filter({ hasText: client.companyName });
    // A new client's agent starts switched off, on the spec's defaults.
    await expect(row).toContainText('Off');
    await expect(row).toContainText('Embedded (offline)');
    await expect(row).toContainText('Medium (0.8)');
    await expect(row).toContainText('Not trained');
    // Managers read; only admins configure.
    await expect(row.getByRole('link', { name: /Configure/u })).toHaveCount(0);
    // Answers by engine and cost, per client and period (nothing answered yet).
    const costs = page.getByRole('region', { name: 'Answers and cost' });
    await costs.getByRole('combobox', { name: 'Client' }).click();
    await page.getByRole('option', { name: client.companyName }).click();
    await costs.getByRole('combobox', { name: 'Period' }).click();
    await page.getByRole('option', { name: 'Last 30 days' }).click();
    await expect(page).toHaveURL(new RegExp(`/agents\\?client=${client.id}&days=30$`, 'u'));
    await expect(costs.getByRole('definition').filter({ hasText: '$0.00' })).toHaveCount(1);
    await expect(costs).toContainText('Cost per automated resolution');
    await expect(costs).toContainText('An automated resolution is a conversation');

    const adminContext = await newWatchedContext(browser, problems);
    try {
      const admin = await adminContext.newPage();
      await signInPage(admin, ADMIN.email, ADMIN.password);
      await admin.goto('/agents');
      await admin.getByRole('searchbox', { name: 'Search agents' }).fill(client.companyName);
      await admin.getByRole('link', { name: `Configure the agent of ${client.companyName}` }).click();
      await expect(admin).toHaveURL(new RegExp(`/settings\\?tab=agents&client=${client.id}$`, 'u'));
      await expect(admin.getByRole('combobox', { name: 'Client' })).toHaveText(client.companyName);
    } finally {
      await adminContext.close();
    }

    const clientContext = await newWatchedContext(browser, problems);
    try {
      const own = await clientContext.newPage();
      await signInPage(own, clientUser.email, clientUser.password);
      // A client's home is its client dashboard: the agent is its Auto-response, off for now.
      await own.goto('/user/dashboard');
      await own.getByRole('tab', { name: 'Automation Settings' }).click();
      await expect(own.getByRole('switch', { name: 'Auto-response' })).not.toBeChecked();
      await expect(own.locator('main')).toContainText('it is off now, so your team answers every conversation');
    } finally {
      await clientContext.close();
    }
  });
});
