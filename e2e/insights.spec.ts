/**
 * Analytics and Insights (issue 16 §2; spec part 1 §2.16): the figures of conversations that really
 * arrived (signed WhatsApp deliveries), the period and client in the URL, each tab, the CSV export,
 * live reloading, a client user's own business only, and the error view.
 */
import fs from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { expect, newWatchedContext, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, createWhatsAppChannel, deliverWhatsAppText, unique, waId, type Api, type WhatsAppChannel } from './support/messaging';
import { ADMIN, createUser, signInPage } from './support/users';

interface InsightsFigures {
  metrics: { conversations: { value: number | null } };
  trends: { month: string; conversations: number }[];
}

/** `count` new conversations of `channel`'s client: one message each from a new customer. */
async function startConversations(api: Api, channel: WhatsAppChannel, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    await deliverWhatsAppText(api.request, channel, { from: waId(), name: unique('Insights Customer'), text: `Hello, question ${i + 1}` });
  }
}

/** Waits until the service levels (kept by a background job) count `expected` conversations of the client this period. */
async function waitForConversations(api: Api, clientId: string, expected: number): Promise<void> {
  await expect
    .poll(async () => (await api.get<InsightsFigures>(`/api/v1/insights?period=24h&clientId=${clientId}`)).metrics.conversations.value, { timeout: 30_000 })
    .toBe(expected);
}

const metric = (page: Page, title: string) => page.getByRole('region', { name: title }).getByTestId('metric-value');

async function choose(page: Page, combobox: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: combobox }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The row headers (first column) of a table body, top to bottom. */
async function rowNames(table: Locator): Promise<string[]> {
  return table.locator('tbody tr th').allInnerTexts();
}

const isInsightsCall = (url: URL) => url.pathname === '/api/v1/insights';

test.describe('Analytics and Insights', () => {
  test('an admin sees the conversations that arrived, per period, client and tab, live, and downloads them as CSV', async ({ page, playwright, baseURL }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const bakery = await createClient(api, unique('Insights Bakery'));
      const bakeryChannel = await createWhatsAppChannel(api, bakery.id);
      const zephyr = await createClient(api, unique('Insights Zephyr Cafe'));
      const zephyrChannel = await createWhatsAppChannel(api, zephyr.id);
      await startConversations(api, bakeryChannel, 3);
      await startConversations(api, zephyrChannel, 1);
      await waitForConversations(api, bakery.id, 3);
      await waitForConversations(api, zephyr.id, 1);

      await signInPage(page, ADMIN.email, ADMIN.password);
      await page.goto('/insights');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Analytics & Insights');
      await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText('Last 7 days');
      await choose(page, 'Client', bakery.companyName);
      await expect(page).toHaveURL(new RegExp(`client=${bakery.id}`, 'u'));
      await expect(metric(page, 'Total Conversations')).toHaveText('3');
      await expect(page.getByRole('region', { name: 'Median First Response' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Automated Resolution' })).toBeVisible();
      // Nothing collects ratings yet: the card says so instead of a number.
      // Customers are asked for ratings; nobody rated these conversations.
      await expect(metric(page, 'Customer Satisfaction')).toHaveText('—');
      await expect(page.getByRole('region', { name: 'Customer Satisfaction' })).toContainText('No ratings in this period');

      // The period is kept in the URL across a reload.
      await choose(page, 'Period', 'Last 24 hours');
      await expect(page).toHaveURL(/period=24h/u);
      await page.reload();
      await expect(page.getByRole('combobox', { name: 'Period' })).toHaveText('Last 24 hours');
      await expect(page.getByRole('combobox', { name: 'Client' })).toHaveText(bakery.companyName);
      await expect(metric(page, 'Total Conversations')).toHaveText('3');

      // A custom range starts as the last 7 days; one that ends before it starts gets the server's message.
      await choose(page, 'Period', 'Custom range');
      await expect(page).toHaveURL(/period=custom&from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/u);
      await expect(metric(page, 'Total Conversations')).toHaveText('3');
      await page.getByLabel('First day').fill('2021-02-10');
      await page.getByLabel('Last day').fill('2021-02-01');
      await expect(page.getByText('The period must end after it starts')).toBeVisible();
      await expect(page.getByLabel('Last day')).toHaveAttribute('aria-invalid', 'true');
      await page.getByLabel('Last day').fill('2021-02-28');
      await expect(metric(page, 'Total Conversations')).toHaveText('0');
      await expect(page.getByTestId('insights-period')).toContainText('2021');
      await choose(page, 'Period', 'Last 30 days');
      await expect(metric(page, 'Total Conversations')).toHaveText('3');
      await expect(page.getByLabel('First day')).toHaveCount(0);

      // Performance: the agents and where the conversations came from.
      await expect(page.getByRole('tab', { name: 'Performance', selected: true })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Top Performing Agents' })).toBeVisible();
      const byChannel = page.getByRole('table', { name: 'Conversations by channel' });
      await expect(byChannel.getByRole('row', { name: /WhatsApp/u }).getByRole('cell').first()).toHaveText('3');

      // Trends: this month's conversations in the chart's data table.
      await page.getByRole('tab', { name: 'Trends' }).click();
      await expect(page).toHaveURL(/tab=trends/u);
      const monthly = page.getByRole('figure', { name: 'Conversations and messages by month' });
      await monthly.getByRole('button', { name: 'Show as table' }).click();
      const months = monthly.getByRole('table', { name: 'Conversations and messages by month' });
      await expect(months).toBeVisible();
      await expect(months.locator('tbody tr')).toHaveCount(6);
      await expect(months.locator('tbody tr').last().getByRole('cell').first()).toHaveText('3');

      // Live: a new conversation shows without a reload.
      await startConversations(api, bakeryChannel, 1);
      await expect(metric(page, 'Total Conversations')).toHaveText('4', { timeout: 20_000 });
      await expect(months.locator('tbody tr').last().getByRole('cell').first()).toHaveText('4');

      // Refresh reloads and says so.
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(page.getByText('Refreshed', { exact: true })).toBeVisible();

      // Reports: the CSV and the PDF of the period and client on screen (Export Data offers both too).
      await page.getByRole('tab', { name: 'Reports' }).click();
      const csvLink = page.getByRole('link', { name: 'Download CSV' });
      await expect(csvLink).toHaveAttribute('href', `/api/v1/insights/export.csv?period=30d&clientId=${bakery.id}`);
      const pdfLink = page.getByRole('link', { name: 'Download PDF' });
      await expect(pdfLink).toHaveAttribute('href', new RegExp(`^/api/v1/insights/report\\.pdf\\?period=30d&clientId=${bakery.id}&timeZone=`, 'u'));
      await page.getByRole('button', { name: 'Export Data' }).click();
      await expect(page.getByRole('menuitem', { name: 'CSV (spreadsheet)' })).toHaveAttribute('href', `/api/v1/insights/export.csv?period=30d&clientId=${bakery.id}`);
      await expect(page.getByRole('menuitem', { name: 'PDF report' })).toHaveAttribute('href', new RegExp('^/api/v1/insights/report\\.pdf\\?', 'u'));
      await page.keyboard.press('Escape');
      const pdfDownloading = page.waitForEvent('download');
      await pdfLink.click();
      const pdf = await pdfDownloading;
      expect(pdf.suggestedFilename()).toMatch(/^insights-report-.+\.pdf$/u);
      expect((await fs.readFile(await pdf.path())).subarray(0, 5).toString('latin1')).toBe('%PDF-');
      await expect(page.getByRole('link', { name: 'choose them in your notification preferences' })).toHaveAttribute('href', '/profile?tab=notifications');
      const downloading = page.waitForEvent('download');
      await csvLink.click();
      const download = await downloading;
      expect(download.suggestedFilename()).toMatch(/^insights-.+\.csv$/u);
      const csv = await fs.readFile(await download.path(), 'utf8');
      expect(csv).toContain('Metric,Value,Previous period');
      expect(csv).toMatch(/Total conversations,4,/u);
      expect(csv).toContain(bakery.companyName);
      expect(csv).not.toContain(zephyr.companyName);

      // Clients, over every client: sortable by any column.
      await choose(page, 'Client', 'All clients');
      await expect(page).not.toHaveURL(/client=/u);
      await page.getByRole('tab', { name: 'Clients' }).click();
      const clients = page.getByRole('table', { name: 'Clients', exact: true });
      // Cells after the name: status, then conversations.
      await expect(clients.getByRole('row', { name: new RegExp(bakery.companyName, 'u') }).getByRole('cell').nth(1)).toHaveText('4');
      await expect(clients.getByRole('row', { name: new RegExp(zephyr.companyName, 'u') })).toBeVisible();
      const conversationsHeader = clients.getByRole('columnheader', { name: 'Conversations', exact: true });
      await expect(conversationsHeader).toHaveAttribute('aria-sort', 'descending');
      await clients.getByRole('button', { name: 'Client', exact: true }).click();
      const nameHeader = clients.getByRole('columnheader', { name: 'Client', exact: true });
      await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
      await expect(conversationsHeader).toHaveAttribute('aria-sort', 'none');
      let names = await rowNames(clients);
      expect(names.indexOf(bakery.companyName)).toBeLessThan(names.indexOf(zephyr.companyName));
      await clients.getByRole('button', { name: 'Client', exact: true }).click();
      await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
      names = await rowNames(clients);
      expect(names.indexOf(zephyr.companyName)).toBeLessThan(names.indexOf(bakery.companyName));

      // The admin's own entry, /admin/insights, is the same page.
      await page.goto(`/admin/insights?client=${zephyr.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Insights');
      await expect(metric(page, 'Total Conversations')).toHaveText('1');
    } finally {
      await api.dispose();
    }
  });

  test('a client user sees only their own business, without a client filter; a manager has /analytics', async ({
    page,
    browser,
    playwright,
    baseURL,
    problems,
  }) => {
    const api = await apiAs(playwright, baseURL!);
    try {
      const own = await createClient(api, unique('Insights Own Shop'));
      const ownChannel = await createWhatsAppChannel(api, own.id);
      const other = await createClient(api, unique('Insights Other Shop'));
      const otherChannel = await createWhatsAppChannel(api, other.id);
      await startConversations(api, ownChannel, 2);
      await startConversations(api, otherChannel, 3);
      await waitForConversations(api, own.id, 2);
      await waitForConversations(api, other.id, 3);
      const user = await createClientUser(api, own.id);

      await signInPage(page, user.email, user.password);
      // Naming another client in the URL changes nothing for a client user.
      await page.goto(`/insights?client=${other.id}`);
      await expect(metric(page, 'Total Conversations')).toHaveText('2');
      await expect(page.getByRole('combobox', { name: 'Period' })).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Client' })).toHaveCount(0);
      await page.getByRole('tab', { name: 'Clients' }).click();
      const clients = page.getByRole('table', { name: 'Clients', exact: true });
      await expect(clients.locator('tbody tr th')).toHaveText([own.companyName]);
      await page.getByRole('tab', { name: 'Trends' }).click();
      const months = page.getByRole('table', { name: 'Conversations and messages by month' });
      await expect(months.locator('tbody tr').last().getByRole('cell').first()).toHaveText('2');

      const managerContext = await newWatchedContext(browser, problems, { baseURL: baseURL! });
      try {
        const manager = await createUser(playwright, baseURL!, 'manager');
        const managerPage = await managerContext.newPage();
        await signInPage(managerPage, manager.email, manager.password);
        await managerPage.goto(`/analytics?client=${other.id}`);
        await expect(managerPage.getByRole('heading', { level: 1 })).toHaveText('Analytics');
        await expect(managerPage.getByRole('combobox', { name: 'Client' })).toHaveText(other.companyName);
        await expect(metric(managerPage, 'Total Conversations')).toHaveText('3');
      } finally {
        await managerContext.close();
      }
    } finally {
      await api.dispose();
    }
  });

  test('when the figures cannot be loaded the page says why and offers Try Again', async ({ page }) => {
    await page.route(isInsightsCall, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'The database is not answering' } }) }),
    );
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/insights');
    await expect(page.getByText('Error loading insights:')).toBeVisible();
    await expect(page.getByText('The database is not answering')).toBeVisible();
    await expect(page.getByText('Failed to fetch insights data')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Total Conversations' })).toHaveCount(0);

    await page.unroute(isInsightsCall);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('region', { name: 'Total Conversations' })).toBeVisible();
    await expect(page.getByText('Error loading insights:')).toHaveCount(0);
  });
});
