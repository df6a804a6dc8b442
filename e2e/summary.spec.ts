/**
 * The AI Summary (issue 16 §3; spec part 2 "AI Summary page"): real conversations (signed WhatsApp
 * deliveries) answered by a client's AI agent from a small FAQ; the overview, the topic named after
 * the matched entry, the performance tables, the six months of trends, the export menu (PDF and
 * CSV), live reloading, Refresh, a client user's own business only, a share link opened signed out
 * and revoked, and the error view.
 */
import fs from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { STORE_FAQ as FAQ } from '../test/fixtures/store-faq';
import { expect, newWatchedContext, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, createWhatsAppChannel, deliverWhatsAppText, unique, waId, type Api, type WhatsAppChannel } from './support/messaging';
import { ADMIN, signInPage } from './support/users';

const SHIPPING = 'How much does shipping cost?';

interface SummaryFigures {
  overview: { totalConversations: number };
  insights: { title: string; count: number }[];
}

/** The client's agent on, answering at once, from the FAQ; resolves once the knowledge is live. */
async function agentWithFaq(api: Api, clientId: string): Promise<void> {
  await api.post(`/api/v1/clients/${clientId}/knowledge/import`, { format: 'json', content: JSON.stringify(FAQ), mode: 'replace' }, 200);
  const csrf = (await api.request.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
  const response = await api.request.put(`/api/v1/clients/${clientId}/agent`, {
    data: { enabled: true, responseDelaySeconds: 0 },
    headers: { 'x-csrf-token': csrf },
  });
  expect(response.status(), await response.text()).toBe(200);
  await expect
    .poll(async () => (await api.get<{ training: { liveVersion: number | null } }>(`/api/v1/clients/${clientId}/agent`)).training.liveVersion, { timeout: 30_000 })
    .not.toBeNull();
}

/** One new conversation per question, each from a new customer. */
async function ask(api: Api, channel: WhatsAppChannel, questions: readonly string[]): Promise<void> {
  for (const text of questions) {
    await deliverWhatsAppText(api.request, channel, { from: waId(), name: unique('Summary Customer'), text });
  }
}

/** Waits until the summary counts `conversations` conversations and `shipping` shipping questions answered by the agent. */
async function waitForSummary(api: Api, clientId: string, conversations: number, shipping: number): Promise<void> {
  await expect
    .poll(
      async () => {
        const view = await api.get<SummaryFigures>(`/api/v1/summary?period=24h&clientId=${clientId}`);
        return [view.overview.totalConversations, view.insights.find((t) => t.title === SHIPPING)?.count ?? 0];
      },
      { timeout: 30_000 },
    )
    .toEqual([conversations, shipping]);
}

const metric = (page: Page, title: string) => page.getByRole('region', { name: title }).getByTestId('metric-value');

const isSummaryCall = (url: URL) => url.pathname === '/api/v1/summary';

test.describe('AI Summary', () => {
  test('an admin sees the period overview, the topics, performance and trends of a client, live', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const shop = await createClient(api, unique('Summary Cycle Shop'));
      const channel = await createWhatsAppChannel(api, shop.id);
      await agentWithFaq(api, shop.id);
      await ask(api, channel, [SHIPPING, 'Is shipping free?']);
      await waitForSummary(api, shop.id, 2, 2);

      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto(`/summary?client=${shop.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('AI Summary');
      await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText('Last 24 hours');
      await expect(page.getByRole('combobox', { name: 'Client' })).toHaveText(shop.companyName);
      await expect(metric(page, 'Total Conversations')).toHaveText('2');
      await expect(page.getByRole('region', { name: 'Avg Response Time' })).toBeVisible();
      await expect(metric(page, 'AI Confidence')).toHaveText(/%$/u);
      await expect(metric(page, 'Escalation Rate')).toHaveText(/%$/u);
      // Customers are asked for ratings; nobody rated these conversations.
      await expect(metric(page, 'Customer Satisfaction')).toHaveText('—');

      // AI Insights: a card named after the entry the agent matched.
      await expect(page.getByRole('tab', { name: 'AI Insights', selected: true })).toBeVisible();
      const topic = page.getByRole('region', { name: SHIPPING });
      await expect(topic).toBeVisible();
      await expect(topic.getByRole('definition').first()).toHaveText('2');

      // Export Report offers the summary's own PDF and CSV of the same period and client (and the browser's time zone).
      await page.getByRole('button', { name: 'Export Report' }).click();
      await expect(page.getByRole('menuitem', { name: 'PDF report' })).toHaveAttribute('href', new RegExp(`^/api/v1/summary/report\\.pdf\\?period=24h&clientId=${shop.id}&timeZone=`, 'u'));
      const csvItem = page.getByRole('menuitem', { name: 'CSV (spreadsheet)' });
      await expect(csvItem).toHaveAttribute('href', new RegExp(`^/api/v1/summary/export\\.csv\\?period=24h&clientId=${shop.id}&timeZone=`, 'u'));
      const downloading = page.waitForEvent('download');
      await csvItem.click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^ai-summary-.+\.csv$/u);
      const csv = await fs.readFile(await download.path(), 'utf8');
      expect(csv).toContain('Total conversations,2');
      expect(csv).toContain(SHIPPING);

      // Performance: by hour of the day (24 rows adding up to the period's conversations) and by channel.
      await page.getByRole('tab', { name: 'Performance' }).click();
      await expect(page).toHaveURL(/tab=performance/u);
      const byHour = page.getByRole('table', { name: 'Conversations by time of day' });
      await expect(byHour.locator('tbody tr')).toHaveCount(24);
      const perHour = await byHour.locator('tbody tr td:first-of-type').allInnerTexts();
      expect(perHour.reduce((sum, text) => sum + Number(text), 0)).toBe(2);
      const byChannel = page.getByRole('table', { name: 'Conversations by channel' });
      await expect(byChannel.getByRole('row', { name: /WhatsApp/u }).getByRole('cell').first()).toHaveText('2');

      // Trends: this month's conversations, from the insights figures of the same client.
      await page.getByRole('tab', { name: 'Trends' }).click();
      const monthly = page.getByRole('figure', { name: 'Conversations and messages by month' });
      await monthly.getByRole('button', { name: 'Show as table' }).click();
      const months = monthly.getByRole('table', { name: 'Conversations and messages by month' });
      await expect(months.locator('tbody tr')).toHaveCount(6);
      await expect(months.locator('tbody tr').last().getByRole('cell').first()).toHaveText(/^[1-9]/u);

      // Live: a new conversation shows without a reload.
      await page.getByRole('tab', { name: 'AI Insights' }).click();
      await ask(api, channel, ['Do you charge for shipping?']);
      await expect(metric(page, 'Total Conversations')).toHaveText('3', { timeout: 20_000 });

      // Refresh reloads and says so; the period is kept in the URL across a reload.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(page.getByText('Refreshed', { exact: true })).toBeVisible();
      await page.getByRole('combobox', { name: 'Period' }).click();
      await page.getByRole('option', { name: 'Last 7 days', exact: true }).click();
      await expect(page).toHaveURL(/period=7d/u);
      await page.reload();
      await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText('Last 7 days');
      await expect(metric(page, 'Total Conversations')).toHaveText('3');
    } finally {
      await api.dispose();
    }
  });

  test('a client user sees only their own business, without a client filter or the agents link', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const own = await createClient(api, unique('Summary Own Shop'));
      const ownChannel = await createWhatsAppChannel(api, own.id);
      await agentWithFaq(api, own.id);
      const other = await createClient(api, unique('Summary Other Shop'));
      const otherChannel = await createWhatsAppChannel(api, other.id);
      await ask(api, ownChannel, [SHIPPING]);
      await ask(api, otherChannel, ['Hello', 'Hello again', 'Anyone there?']);
      await waitForSummary(api, own.id, 1, 1);
      await waitForSummary(api, other.id, 3, 0);
      const user = await createClientUser(api, own.id);

      await signInPage(page, user.email, user.password);
      // Naming another client in the URL changes nothing for a client user.
      await page.goto(`/summary?client=${other.id}`);
      await expect(metric(page, 'Total Conversations')).toHaveText('1');
      await expect(page.getByRole('combobox', { name: 'Period' })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Client' })).toHaveCount(0);
      await expect(page.getByRole('region', { name: SHIPPING })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Open AI Agents' })).toHaveCount(0);
    } finally {
      await api.dispose();
    }
  });

  test('a share link shows the summary read-only without sign-in until it is revoked', async ({ page, browser, playwright, baseURL, problems }) => {
    const api = await apiAs(playwright, baseURL!);
    // Signed out, in a browser context of its own.
    const visitor = await newWatchedContext(browser, problems, { baseURL: baseURL! });
    try {
      const shop = await createClient(api, unique('Summary Shared Shop'));
      const channel = await createWhatsAppChannel(api, shop.id);
      await agentWithFaq(api, shop.id);
      await ask(api, channel, [SHIPPING]);
      await waitForSummary(api, shop.id, 1, 1);

      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto(`/summary?client=${shop.id}`);
      await expect(metric(page, 'Total Conversations')).toHaveText('1');
      await page.getByRole('button', { name: 'Share' }).click();
      const dialog = page.getByRole('dialog', { name: 'Share this summary' });
      await dialog.getByRole('radio', { name: '1 day' }).check();
      await dialog.getByRole('button', { name: 'Create link' }).click();
      const link = await dialog.getByRole('textbox', { name: 'Share link' }).inputValue();
      expect(link).toMatch(/\/shared\/summary\/[A-Za-z0-9_-]{43}$/u);
      await expect(dialog.getByRole('list', { name: 'Share links' }).getByText(shop.companyName)).toBeVisible();

      // Signed out: the same figures, read-only.
      const shared = await visitor.newPage();
      await shared.goto(new URL(link).pathname);
      await expect(shared.getByTestId('shared-banner')).toHaveText(/^Shared read-only view · expires /u);
      await expect(shared.getByRole('heading', { level: 1 })).toHaveText('AI Summary');
      await expect(shared.getByText(shop.companyName)).toBeVisible();
      await expect(metric(shared, 'Total Conversations')).toHaveText('1');
      await expect(shared.getByRole('region', { name: SHIPPING })).toBeVisible();
      await expect(shared.getByRole('button', { name: 'Share' })).toHaveCount(0);
      await expect(shared.getByRole('button', { name: 'Export Report' })).toHaveCount(0);
      await expect(shared.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');

      // Revoked: the link says so.
      await dialog.getByRole('button', { name: /^Revoke the link to /u }).first().click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke' }).click();
      await expect(page.getByText('Link revoked', { exact: true })).toBeVisible();
      await shared.reload();
      await expect(shared.getByRole('heading', { name: 'This link has expired or was revoked.' })).toBeVisible();
    } finally {
      await visitor.close();
      await api.dispose();
    }
  });

  test('when the summary cannot be loaded the page says why and offers Try Again', async ({ page }) => {
    await page.route(isSummaryCall, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'The database is not answering' } }) }),
    );
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/summary');
    await expect(page.getByText('Error loading the AI summary:')).toBeVisible();
    await expect(page.getByText('The database is not answering')).toBeVisible();
    await expect(page.getByText('Failed to fetch AI summary')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Total Conversations' })).toHaveCount(0);

    await page.unroute(isSummaryCall);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('region', { name: 'Total Conversations' })).toBeVisible();
    await expect(page.getByText('Error loading the AI summary:')).toHaveCount(0);
  });
});
