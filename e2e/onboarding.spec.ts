/**
 * From "Get Started" to a client's own dashboard (issue 17 §4): a visitor picks WhatsApp Business
 * AI and sends the Business Information form; an admin approves the request; the visitor creates
 * an account from the invitation e-mail, signs in, sees the business with its template, pauses the
 * automation, and downloads the first invoice (the rest of this month, issued at the approval) as
 * a PDF whose text is checked.
 */
import fs from 'node:fs/promises';
import { PAYMENT_METHOD } from '../common/api/billing';
import { pdfText } from '../test/helpers/pdf-text';
import { expect, test } from './support/fixtures';
import { unique } from './support/messaging';
import { ADMIN, latestEmailLink, signInPage, uniqueEmail } from './support/users';

test.describe('onboarding', () => {
  test('a visitor picks WhatsApp Business AI, an admin approves, and the visitor lands on their dashboard, pauses it and downloads the invoice', async ({ page, browser, playwright, baseURL }) => {
    const business = unique('Lima Bikes');
    const email = uniqueEmail('onboarding');
    const password = 'Onboard!ng-Pass-2026';

    // 1. The visitor's request.
    await page.goto('/client-signup');
    const submit = page.getByRole('button', { name: 'Get Started' });
    await expect(submit).toBeDisabled();
    const offer = page.getByRole('radio', { name: 'WhatsApp Business AI, $499/month' });
    await offer.click();
    await expect(offer).toHaveAttribute('aria-checked', 'true');
    await page.getByLabel('Business Name').fill(business);
    await page.getByLabel('Contact Name').fill('Ana Lima');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Phone').fill('+1 555 010 0200');
    await page.getByRole('combobox', { name: 'Industry' }).click();
    await page.getByRole('option', { name: 'Retail' }).click();
    // A person takes a few seconds over the form; faster than 3 s is taken for a bot.
    await page.waitForTimeout(3_100);
    await expect(submit).toBeEnabled();
    await submit.click();
    await expect(page.getByRole('region', { name: 'Request sent' })).toBeVisible();

    // 2. An admin approves it.
    const adminContext = await browser.newContext();
    try {
      const admin = await adminContext.newPage();
      await signInPage(admin, ADMIN.email, ADMIN.password);
      await admin.goto('/admin/clients?tab=requests');
      const card = admin.getByRole('list', { name: 'Onboarding requests' }).getByRole('listitem').filter({ hasText: business });
      await expect(card).toContainText('WhatsApp Business AI');
      await expect(card).toContainText(email);
      await card.getByRole('button', { name: 'Approve' }).click();
      await admin.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
      await expect(admin.getByText('Request Approved')).toBeVisible();
    } finally {
      await adminContext.close();
    }

    // 3. The visitor creates an account from the e-mailed invitation and signs in.
    const link = new URL(await latestEmailLink(playwright, baseURL!, email, '/invite/'));
    await page.goto(link.pathname);
    await page.getByLabel('Full Name').fill('Ana Lima');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Confirm Password').fill(password);
    await page.getByRole('button', { name: 'Create Account and Join' }).click();
    await expect(page.locator('main').getByText(`Your account is ready. Sign in with ${email}`)).toBeVisible();
    await signInPage(page, email, password);

    // 4. Their home is the client dashboard: the business, its template, and the pause switch.
    await page.goto('/dashboard');
    const main = page.locator('main');
    await expect(main.getByRole('heading', { name: business })).toBeVisible();
    await expect(main).toContainText('WhatsApp Business AI');
    await expect(main).toContainText('Active since');
    // What stands between the business and a live agent, from real data: nothing is done yet.
    const goLive = main.getByRole('region', { name: 'Get your AI agent live' });
    await expect(goLive).toContainText('0 of 3 steps done');
    await expect(goLive).toContainText('Your Parley team connects your WhatsApp');
    await expect(goLive.getByRole('button', { name: 'Turn On Auto-Response' })).toBeDisabled();
    await main.getByRole('button', { name: 'Pause Automation' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Pause Automation' }).click();
    await expect(page.getByRole('region', { name: /Notifications/u }).getByText('Automation Paused', { exact: true })).toBeVisible();
    await expect(main.getByRole('button', { name: 'Resume Automation' })).toBeVisible();
    await expect(main.getByRole('status').filter({ hasText: 'Automation paused' })).toBeVisible();

    // 5. Billing: the plan as the spec has it, and the first invoice as a PDF.
    await main.getByRole('tab', { name: 'Billing' }).click();
    await expect(page).toHaveURL(/[?&]tab=billing/u);
    await expect(main).toContainText('WhatsApp Business AI · $499/month');
    await expect(main).toContainText(PAYMENT_METHOD);
    // One invoice so far, issued at the approval; its link is named after its number.
    const downloadLink = main.getByRole('link', { name: /^Download Invoice PARLEY-\d{4}-\d{6}$/u });
    await expect(downloadLink).toHaveCount(1);
    const number = (await downloadLink.getAttribute('download'))!.replace(/\.pdf$/u, '');
    expect(number).toMatch(/^PARLEY-\d{4}-\d{6}$/u);
    const downloading = page.waitForEvent('download');
    await downloadLink.click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const pdf = await fs.readFile(await download.path());
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = pdfText(pdf);
    for (const expected of [number, business, 'Ana Lima', email, 'WhatsApp Business AI', 'Monthly subscription', 'Status: Open', PAYMENT_METHOD]) {
      expect(text).toContain(expected);
    }
  });
});
