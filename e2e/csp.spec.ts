/**
 * A tour of every page of common/routes.ts, signed out and as an admin. The auto fixture fails the
 * test on any Content-Security-Policy violation or uncaught error; here we also check each page
 * renders with its own title and description.
 */
import { PAGE_ROUTES } from '../common/routes';
import { expect, test } from './support/fixtures';
import { ADMIN, signInPage } from './support/users';

const allPaths = Object.values(PAGE_ROUTES).flatMap((route) => [...route.paths]);
/** The app's root, or the main element of a page the server rendered (the public site has no #root). */
const rendered = '#root, main#main';
const publicPaths = Object.values(PAGE_ROUTES)
  .filter((route) => route.access === 'public')
  .flatMap((route) => [...route.paths])
  .filter((path) => !path.includes('reset-password'));

test.describe('content security policy', () => {
  test('public pages run without a CSP violation', async ({ page }) => {
    test.setTimeout(120_000);
    for (const path of publicPaths) {
      await page.goto(path);
      await expect(page.locator(rendered).first()).not.toBeEmpty();
      await expect(page.locator('head > meta[name="description"]')).toHaveCount(1);
      await expect(page).toHaveTitle(/Parley/u);
    }
  });

  test('every page runs without a CSP violation for an admin', async ({ page }) => {
    // A tour of every page (more than forty, some drawing charts): longer than one test's default.
    test.setTimeout(180_000);
    await signInPage(page, ADMIN.email, ADMIN.password);
    for (const path of allPaths) {
      await page.goto(path);
      await expect(page.locator(rendered).first()).not.toBeEmpty();
      await expect(page).toHaveTitle(/Parley/u);
    }
    // The QR code is a data: image and the avatars are files: both allowed by img-src.
    await page.goto('/profile');
    await page.getByRole('radio', { name: 'Avatar violet' }).click();
    await expect(page.getByText('Avatar Updated')).toBeVisible();
  });
});
