import { expect, type Page } from '@playwright/test';

/**
 * Waits until the app has taken over an auth page the server pre-rendered (server/http/web-app.ts).
 * Before that, the page's fields are the server's: typing is carried over, but a test that checks
 * what the app does on focus or blur must act on the app's own fields.
 */
export async function appTookOver(page: Page): Promise<void> {
  await expect(page.locator('#root[data-prerendered]')).toHaveCount(0);
}
