/// <reference lib="dom" />
/**
 * Every test fails if a page it opened hit a Content-Security-Policy violation or threw an uncaught
 * error: the server's CSP must be one the app actually passes, on every screen the tests visit.
 */
import { test as base, expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';

declare global {
  interface Window {
    __reportCspViolation?: (text: string) => void;
  }
}

export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ context }, use) => {
      const problems: string[] = [];
      await watchContext(context, problems);
      await use(problems);
      expect(problems, 'CSP violations or uncaught page errors').toEqual([]);
    },
    { auto: true },
  ],
});

/** Report CSP violations and uncaught errors of every page of `context` into `problems`. */
export async function watchContext(context: BrowserContext, problems: string[]): Promise<void> {
  await context.exposeFunction('__reportCspViolation', (text: string) => problems.push(`CSP: ${text}`));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation?.(`${event.violatedDirective} blocked ${event.blockedURI || 'inline code'} in ${event.documentURI}`);
    });
  });
  context.on('page', (page) => watch(page, problems));
  for (const page of context.pages()) watch(page, problems);
}

/** A second browser (another person) whose pages are checked like the test's own. */
export async function newWatchedContext(browser: Browser, problems: string[], options: BrowserContextOptions = {}): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  await watchContext(context, problems);
  return context;
}

function watch(page: Page, problems: string[]): void {
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    const text = message.text();
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/iu.test(text)) problems.push(`console: ${text}`);
    // A render error the app's error boundary caught ("Something went wrong"): never a pageerror.
    if (message.type() === 'error' && text.startsWith('Unhandled error in the page')) problems.push(`console: ${text.split('\n')[0]}`);
  });
}

export { expect };
