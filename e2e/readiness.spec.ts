/**
 * Production Readiness (issue 16 §4; spec part 2 "Production readiness"): the checklist of this
 * installation as the server measured it — the score and its ring, the counts, the notice below
 * 90 %, action items that open the screen fixing them, the eight categories, Re-check — for
 * administrators only, at 390 px without sideways scrolling, and the error view.
 */
import { expect, test } from './support/fixtures';
import { ADMIN, createUser, signInPage } from './support/users';

const CATEGORIES = ['Security', 'Performance', 'UX', 'Technical', 'Email', 'Content', 'SEO', 'Monitoring'];
const isReadinessCall = (url: URL) => url.pathname === '/api/v1/readiness';

interface ReadinessFigures {
  score: number;
  counts: { complete: number; attention: number; critical: number; total: number };
}

test.describe('Production Readiness', () => {
  test('an admin sees the installation checked now, with the items to fix and where', async ({ page }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    const answer = page.waitForResponse((response) => isReadinessCall(new URL(response.url())));
    await page.goto('/admin/production-status');
    const figures = (await (await answer).json()) as ReadinessFigures;

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Production Readiness');
    await expect(page.getByTestId('readiness-checked-at')).toContainText('Last checked');
    await expect(page.getByRole('img', { name: `Overall score ${figures.score}%` })).toBeVisible();
    // The test server runs without SMTP or HTTPS: far from ready, and it says so.
    expect(figures.score).toBeLessThan(90);
    await expect(page.getByText('Complete remaining items')).toBeVisible();
    await expect(page.getByText('Production Ready', { exact: true })).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Complete', exact: true }).getByTestId('metric-value')).toHaveText(String(figures.counts.complete));
    await expect(page.getByRole('region', { name: 'Critical', exact: true }).getByTestId('metric-value')).toHaveText(String(figures.counts.critical));

    const checklist = page.getByRole('region', { name: 'Checklist' });
    for (const category of CATEGORIES) await expect(checklist.getByRole('heading', { name: category, exact: true })).toBeVisible();
    await expect(checklist.getByText('SMTP_URL is not set', { exact: false })).toBeVisible();

    // An action item opens the screen that fixes it.
    const actions = page.getByRole('region', { name: 'Action items' });
    await actions.getByRole('link', { name: 'Edit the contact details' }).click();
    await expect(page).toHaveURL(/\/admin\?tab=content&section=contact$/u);

    await page.goto('/production-readiness');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Production Readiness');
    const recheck = page.waitForResponse((response) => isReadinessCall(new URL(response.url())));
    await page.getByRole('button', { name: 'Re-check' }).click();
    expect((await recheck).status()).toBe(200);
    await expect(page.getByText('Re-checked')).toBeVisible();
  });

  test('fits a 390 px screen without scrolling sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/production-status');
    await expect(page.getByRole('region', { name: 'Checklist' })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('managers are refused', async ({ page, playwright, baseURL }) => {
    const manager = await createUser(playwright, baseURL!, 'manager');
    await signInPage(page, manager.email, manager.password);
    await page.goto('/admin/production-status');
    await expect(page.getByText("You don't have permission to access this page.", { exact: false })).toBeVisible();
  });

  test('when the check cannot run the page says why and offers Try Again', async ({ page }) => {
    await page.route(isReadinessCall, (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL', message: 'The database is not answering' } }) }),
    );
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin/production-status');
    await expect(page.getByText('Error checking production readiness:')).toBeVisible();
    await expect(page.getByText('The database is not answering')).toBeVisible();
    await page.unroute(isReadinessCall);
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByRole('region', { name: 'Checklist' })).toBeVisible();
  });
});
