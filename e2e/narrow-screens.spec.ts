/// <reference lib="dom" />
/**
 * Every page of common/routes.ts at 390 × 844 (a phone), signed out and as each role, with real data
 * present (and the states that live in the URL: an open conversation, client, tab): the page must
 * not scroll sideways. A failure names the elements that stick out past the
 * viewport (the innermost ones, where the fix usually belongs).
 *
 * It is also the tour of every page for the Content-Security-Policy check (the auto fixture fails a
 * test on any violation or uncaught error): each page must render something, under its own title
 * (and a public page with its description). Signed out and as an admin every path is visited,
 * aliases included; a manager and a client visit each of their own pages once (the public pages
 * and the aliases show them nothing the admin's tour has not).
 */
import type { Page } from '@playwright/test';
import { canOpen, PAGE_ROUTES, type PageRoute } from '../common/routes';
import type { Role } from '../common/roles';
import { expect, test } from './support/fixtures';
import { apiAs, createClient, createClientUser, createWhatsAppChannel, deliverWhatsAppText, unique, waId } from './support/messaging';
import { ADMIN, createUser, signInPage } from './support/users';

const WIDTH = 390;
test.use({ viewport: { width: WIDTH, height: 844 } });

interface Overflow {
  scrollWidth: number;
  offenders: string[];
}

/** How wide the document is, and the innermost visible elements whose right edge passes the viewport. */
async function measure(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const viewport = document.documentElement.clientWidth;
    const scrollWidth = document.scrollingElement?.scrollWidth ?? 0;
    const describe = (el: Element): string => {
      const id = el.id ? `#${el.id}` : '';
      const classes = typeof el.className === 'string' ? el.className.trim().split(/\s+/u).filter(Boolean).slice(0, 4) : [];
      const testid = el.getAttribute('data-slot');
      return `${el.tagName.toLowerCase()}${id}${testid ? `[data-slot=${testid}]` : ''}${classes.map((c) => `.${c}`).join('')}`;
    };
    const path = (el: Element): string => {
      const parts: string[] = [];
      for (let node: Element | null = el; node && node !== document.body && parts.length < 4; node = node.parentElement) parts.unshift(describe(node));
      return parts.join(' > ');
    };
    const sticksOut = (el: Element): boolean => {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0 || rect.right <= viewport + 0.5) return false;
      // Content scrolled inside a box that itself fits does not widen the page, nor does a fixed layer.
      for (let node: Element | null = el; node && node !== document.body; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (style.position === 'fixed') return false;
        if (node !== el && style.overflowX !== 'visible' && node.getBoundingClientRect().right <= viewport + 0.5) return false;
      }
      return true;
    };
    // An icon's paths say nothing: an <svg> stands for its insides.
    const out = Array.from(document.body.querySelectorAll('*')).filter((el) => !el.parentElement?.closest('svg') && sticksOut(el));
    const innermost = out.filter((el) => !Array.from(el.children).some((child) => out.includes(child)));
    // The widest of them first: usually the box that forces the others out (a table, an unbreakable line).
    const byWidth = [...innermost].sort((a, b) => b.getBoundingClientRect().width - a.getBoundingClientRect().width);
    const offenders = byWidth.slice(0, 6).map((el) => {
      const rect = el.getBoundingClientRect();
      return `${path(el)} (${Math.round(rect.width)} px wide, right edge at ${Math.round(rect.right)} px)`;
    });
    return { scrollWidth, offenders };
  });
}

/** Every path of every page `role` may open (null: signed out), aliases included; `:slug` is a blog post's, `:token` a share link's (unknown here). */
function pathsFor(role: Role | null, slug = 'no-such-post'): string[] {
  return (Object.values(PAGE_ROUTES) as PageRoute[])
    .filter((route) => canOpen(route.access, role))
    .flatMap((route) => route.paths.map((path) => path.replace(':slug', slug).replace(':token', 'no-such-share-link')));
}

/** The first path of each page only `role`'s signed-in users may open (no public pages, no aliases). */
function ownPagesOf(role: Role): string[] {
  return (Object.values(PAGE_ROUTES) as PageRoute[]).filter((route) => route.access !== 'public' && canOpen(route.access, role)).map((route) => route.paths[0]!);
}

/** The app's root, or the main element of a page the server rendered (the public site has no #root). */
const RENDERED = '#root, main#main';

/**
 * Resolves once no request of the page has been in flight for `quietMs`: the lazy screen's chunk
 * and its queries have loaded (Playwright's `networkidle` waits 500 ms after the last one).
 */
function quietNetwork(page: Page): (quietMs?: number) => Promise<void> {
  let inFlight = 0;
  let lastChange = Date.now();
  const started = () => {
    inFlight += 1;
    lastChange = Date.now();
  };
  const ended = () => {
    inFlight = Math.max(0, inFlight - 1);
    lastChange = Date.now();
  };
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  return async (quietMs = 250) => {
    const deadline = Date.now() + 20_000;
    while ((inFlight > 0 || Date.now() - lastChange < quietMs) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
}

/** A published post with a long unbroken title, a wide table and a long link in its body. */
async function publishLongPost(playwright: Parameters<typeof apiAs>[0], baseURL: string): Promise<string> {
  const api = await apiAs(playwright, baseURL);
  try {
    const post = await api.post<{ slug: string }>('/api/v1/blog-posts', {
      title: unique('Supercalifragilisticexpialidocious-automation-for-international-bakeries'),
      excerpt: 'A post whose parts are all longer than a phone is wide.',
      author: 'Narrow Screens',
      date: 'March 15, 2024',
      readTime: '5 min read',
      category: 'Tutorial',
      image: 'https://images.example.com/narrow.png',
      body: `# Heading\n\n| a | b | c | d | e | f |\n|---|---|---|---|---|---|\n| ${'wide '.repeat(20)} | 2 | 3 | 4 | 5 | 6 |\n\nhttps://example.com/${'x'.repeat(150)}\n\n\`\`\`\n${'code '.repeat(60)}\n\`\`\`\n`,
      status: 'published',
    });
    return post.slug;
  } finally {
    await api.dispose();
  }
}

async function expectNoSidewaysScroll(page: Page, paths: readonly string[], who: string): Promise<void> {
  const settled = quietNetwork(page);
  for (const path of paths) {
    await page.goto(path);
    await settled();
    // Lazy screens and their queries settle; give layout two frames after the last response.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await expect.soft(page.locator(RENDERED).first(), `${path} as ${who} renders`).not.toBeEmpty();
    await expect.soft(page, `${path} as ${who} has its own title`).toHaveTitle(/Parley/u);
    if (who === 'a visitor' && !path.includes('reset-password')) {
      await expect.soft(page.locator('head > meta[name="description"]'), `${path} has a description`).toHaveCount(1);
    }
    const { scrollWidth, offenders } = await measure(page);
    const landed = new URL(page.url()).pathname;
    expect
      .soft(scrollWidth, `${path}${landed === path.split('?')[0] ? '' : ` (landed on ${landed})`} as ${who} is ${scrollWidth} px wide:\n  ${offenders.join('\n  ')}`)
      .toBeLessThanOrEqual(WIDTH);
  }
}

test.describe('at 390 px no page scrolls sideways', () => {
  test.describe.configure({ timeout: 300_000 });

  /** A client with a WhatsApp channel, a conversation with long messages and a user of that client. */
  async function seed(playwright: Parameters<typeof apiAs>[0], baseURL: string) {
    const api = await apiAs(playwright, baseURL);
    try {
      const client = await createClient(api, unique('Narrow Screens Bakery and Pastry Company International'));
      const channel = await createWhatsAppChannel(api, client.id);
      const from = waId();
      const name = unique('Maximiliana Fernández-Oyelaran');
      await deliverWhatsAppText(api.request, channel, {
        from,
        name,
        text: `Urgent problem with my order: the app crashes when I pay. Order reference https://shop.example.com/orders/${'x'.repeat(120)}`,
      });
      await deliverWhatsAppText(api.request, channel, { from, name, text: 'Thank you, great service! Could you also tell me your opening hours on Saturday?' });
      const conversations = await api.get<{ conversations: { id: string }[] }>(`/api/v1/conversations?clientId=${client.id}`);
      const conversationId = conversations.conversations[0]?.id;
      if (!conversationId) throw new Error('The delivered messages made no conversation');
      const clientUser = await createClientUser(api, client.id, 'Carla Narrow-Screen Client');
      // A webhook subscription with a long name and URL (loopback, paused: nothing is delivered to it).
      await api.post('/api/v1/webhook-subscriptions', {
        name: unique('Narrow Screens CRM synchronisation endpoint'),
        url: `http://127.0.0.1:9/hooks/${'x'.repeat(120)}`,
        events: 'all',
        client_id: client.id,
        status: 'inactive',
      });
      return { clientId: client.id, conversationId, clientUser };
    } finally {
      await api.dispose();
    }
  }

  test('signed out: every public page', async ({ page, playwright, baseURL }) => {
    const slug = await publishLongPost(playwright, baseURL!);
    await expectNoSidewaysScroll(page, [...pathsFor(null, slug), '/blog?category=Tutorial', '/blog?newsletter=invalid'], 'a visitor');
  });

  /** States of pages that live in the URL: an open conversation, client or tab. */
  const opened = (clientId: string, conversationId: string) => [
    `/conversations?id=${conversationId}`,
    `/clients?client=${clientId}`,
    '/profile?tab=security',
    '/profile?tab=notifications',
    '/profile?tab=account',
    '/webhooks?tab=test',
    '/webhooks?tab=guide',
    // Analytics and Insights: each tab, with the seeded client's figures and a custom range.
    `/insights?client=${clientId}`,
    '/insights?tab=clients',
    `/insights?period=30d&client=${clientId}&tab=trends`,
    '/insights?tab=trends&period=custom&from=2025-01-01&to=2025-01-31',
    '/insights?tab=reports',
    // The AI Summary: each tab, with the seeded client's figures.
    `/summary?client=${clientId}`,
    `/summary?period=7d&client=${clientId}&tab=performance`,
    '/summary?tab=performance&period=custom&from=2025-01-01&to=2025-01-31',
    `/summary?client=${clientId}&tab=trends`,
  ];

  test('as an admin: every page an admin may open, aliases and public pages included', async ({ page, playwright, baseURL }) => {
    await seed(playwright, baseURL!);
    await signInPage(page, ADMIN.email, ADMIN.password);
    await expectNoSidewaysScroll(page, pathsFor('admin'), 'admin');
  });

  test('as an admin: the states in the URL, with data', async ({ page, playwright, baseURL }) => {
    const { clientId, conversationId } = await seed(playwright, baseURL!);
    await signInPage(page, ADMIN.email, ADMIN.password);
    await expectNoSidewaysScroll(
      page,
      [
        ...opened(clientId, conversationId),
        `/admin/clients?client=${clientId}`,
        `/settings?tab=agents&client=${clientId}`,
        `/settings?tab=agents&client=${clientId}&section=knowledge`,
        `/agents?client=${clientId}&days=30`,
        '/settings?tab=security',
        // The Content Management Panel's tabs and Page Content sections (the blog posts list is /admin).
        '/admin?tab=content',
        ...['services', 'blog', 'about', 'contact', 'features', 'messages', 'newsletter'].map((section) => `/admin?tab=content&section=${section}`),
        '/admin?tab=n8n',
      ],
      'admin',
    );
  });

  test('as a manager: every page a manager may open', async ({ page, playwright, baseURL }) => {
    const { clientId, conversationId } = await seed(playwright, baseURL!);
    const manager = await createUser(playwright, baseURL!, 'manager');
    await signInPage(page, manager.email, manager.password);
    await expectNoSidewaysScroll(page, [...ownPagesOf('manager'), ...opened(clientId, conversationId)], 'manager');
  });

  test('as a client: every page a client may open', async ({ page, playwright, baseURL }) => {
    const { clientId, conversationId, clientUser } = await seed(playwright, baseURL!);
    await signInPage(page, clientUser.email, clientUser.password);
    await expectNoSidewaysScroll(page, [...ownPagesOf('client'), ...opened(clientId, conversationId)], 'client');
  });
});
