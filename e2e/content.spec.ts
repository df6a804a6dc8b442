/**
 * The Content Management Panel (/admin; issue 15 §1, spec part 2 "Content management"): an admin
 * edits the hero and its stats, resets to defaults, writes and publishes a post, meets a conflict
 * when two tabs save the same section, and reads and answers a contact message that arrives live.
 */
import type { Page } from '@playwright/test';
import { conflictMessage, resetToast } from '../common/api/content';
import { DEFAULT_ABOUT, DEFAULT_HERO } from '../common/marketing/defaults';
import { expect, test } from './support/fixtures';
import { apiAs, literal, unique } from './support/messaging';
import { ADMIN, signInPage, uniqueEmail } from './support/users';

async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, 'horizontal overflow in px').toBeLessThanOrEqual(0);
}

/** Resolves once the page's WebSocket received a frame containing every one of `parts`. */
function frameReceived(page: Page, ...parts: string[]): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) => {
      ws.on('framereceived', (frame) => {
        const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
        if (parts.every((part) => text.includes(part))) resolve();
      });
    });
  });
}

/** A toast with this title (sonner keeps several on screen). */
const toast = (page: Page, title: string) => page.locator('[data-sonner-toast]').filter({ hasText: title }).first();

test.describe('the Content Management Panel', () => {
  test('an admin edits the hero heading, sees it after a reload, and resets it to the default', async ({ page, playwright, baseURL }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Content Management Panel');
    for (const name of ['Blog Posts', 'Page Content', 'N8N Integration']) await expect(page.getByRole('tab', { name })).toBeVisible();

    await page.getByRole('tab', { name: 'Page Content' }).click();
    await expect(page).toHaveURL(/\/admin\?tab=content$/u);
    const heading = page.getByLabel('Heading', { exact: true });
    await expect(heading).toHaveValue(/.+/u);
    const text = unique('Every customer answered');
    await heading.fill(text);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'Hero content updated')).toBeVisible();

    await page.reload();
    await expect(page.getByLabel('Heading', { exact: true })).toHaveValue(text);
    await expect(page.getByTestId('saved-line').first()).toContainText('saved by');
    // What the public pages read.
    const api = await apiAs(playwright, baseURL!);
    try {
      expect((await api.get<{ hero: { heading: string } }>('/api/v1/public/content')).hero.heading).toBe(text);
    } finally {
      await api.dispose();
    }

    // The history: this save is the current version; the view shows what it stored.
    await page.getByRole('button', { name: 'Show History' }).first().click();
    const revisions = page.getByRole('list', { name: 'Hero revisions' }).getByTestId('revision');
    await expect(revisions.first()).toContainText('Saved');
    await expect(revisions.first()).toContainText('Current');
    await revisions.first().getByRole('button', { name: /^View version/u }).click();
    await expect(page.getByRole('dialog')).toContainText(text);
    await page.keyboard.press('Escape');

    await page.getByRole('button', { name: 'Reset to Defaults' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Reset to Defaults' }).click();
    await expect(toast(page, resetToast('hero'))).toBeVisible();
    await expect(page.getByLabel('Heading', { exact: true })).toHaveValue(DEFAULT_HERO.heading);
    await page.reload();
    await expect(page.getByLabel('Heading', { exact: true })).toHaveValue(DEFAULT_HERO.heading);
  });

  test('an admin hides, shows, moves and edits the hero stats', async ({ page }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin?tab=content');
    const stats = page.getByRole('list', { name: 'Hero stats' }).getByTestId('hero-stat');
    await expect(stats.first()).toBeVisible();
    const count = await stats.count();
    expect(count).toBeGreaterThan(1);
    const firstLabel = await stats.first().getByLabel('Label', { exact: true }).inputValue();

    await stats.first().getByRole('button', { name: `Hide ${firstLabel}` }).click();
    await expect(toast(page, 'Stat Hidden')).toBeVisible();
    await expect(stats.first()).toContainText('Hidden');
    await stats.first().getByRole('button', { name: `Show ${firstLabel}` }).click();
    await expect(toast(page, 'Stat Shown')).toBeVisible();
    await expect(stats.first()).toContainText('Shown');

    await stats.first().getByRole('button', { name: `Move ${firstLabel} down` }).click();
    await expect(toast(page, 'Stats Reordered')).toBeVisible();
    await expect(stats.nth(1).getByLabel('Label', { exact: true })).toHaveValue(firstLabel);
    await stats.nth(1).getByRole('button', { name: `Move ${firstLabel} up` }).click();
    await expect(stats.first().getByLabel('Label', { exact: true })).toHaveValue(firstLabel);

    // Edits wait for Save Stats; moving is held until then.
    const label = unique('Countries');
    await page.getByRole('button', { name: 'Add Stat' }).click();
    await stats.last().getByLabel('Number', { exact: true }).fill('40+');
    await stats.last().getByLabel('Label', { exact: true }).fill(label);
    await expect(page.getByText('Unsaved changes. Save or undo them to show, hide or move stats.')).toBeVisible();
    await expect(stats.first().getByRole('button', { name: `Move ${firstLabel} down` })).toBeDisabled();
    await page.getByRole('button', { name: 'Save Stats' }).click();
    await expect(toast(page, 'Stats Updated')).toBeVisible();
    await page.reload();
    await expect(stats).toHaveCount(count + 1);
    await expect(stats.last().getByLabel('Label', { exact: true })).toHaveValue(label);
    await stats.last().getByRole('button', { name: `Remove ${label}` }).click();
    await page.getByRole('button', { name: 'Save Stats' }).click();
    await expect(toast(page, 'Stats Updated')).toBeVisible();
    await expect(stats).toHaveCount(count);
  });

  test('an admin writes a post, previews it, publishes it and sees it in the list', async ({ page, playwright, baseURL }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    await page.goto('/admin');
    await page.getByRole('button', { name: 'New Post' }).click();
    const form = page.getByRole('form', { name: 'Create New Post' });
    await expect(form).toBeVisible();
    await expect(form).toContainText('Images are hosted externally: enter the full https:// URL of the image.');
    await form.getByRole('button', { name: 'Create Post' }).click();
    await expect(form.getByText('Title is required')).toBeVisible();
    await expect(form.getByText('Excerpt is required')).toBeVisible();
    await expect(form.getByText('Choose one of the six categories')).toBeVisible();
    await expect(form.getByText('Image URL is required')).toBeVisible();

    const title = unique('Hand the hard conversations to people');
    await form.getByLabel('Title').fill(title);
    await form.getByLabel('Excerpt').fill('When the AI agent should step aside.');
    await form.getByLabel('Read time').fill('4 min read');
    await form.getByLabel('Category').click();
    await page.getByRole('option', { name: 'Tutorial' }).click();
    await form.getByLabel('Image URL').fill('http://images.example.com/cover.jpg');
    await form.getByLabel('Body', { exact: true }).fill('## Refunds\n\nMoney questions deserve a **person**.');
    await form.getByRole('button', { name: 'Create Post' }).click();
    await expect(form.getByText('Please enter a full https:// URL')).toBeVisible();
    await form.getByLabel('Image URL').fill('https://images.example.com/cover.jpg');

    await form.getByRole('tab', { name: 'Preview' }).click();
    await expect(form.getByTestId('post-preview').locator('h2')).toHaveText('Refunds');
    await expect(form.getByTestId('post-preview').locator('strong')).toHaveText('person');
    await form.getByRole('tab', { name: 'Write' }).click();

    await form.getByRole('button', { name: 'Create Post' }).click();
    await expect(toast(page, 'Post created')).toContainText('Blog post has been created successfully');
    const item = page.getByTestId('blog-post').filter({ hasText: title });
    await expect(item).toContainText('Draft');

    await item.getByRole('button', { name: `Edit ${title}` }).click();
    const edit = page.getByRole('form', { name: 'Edit Post' });
    await expect(edit.getByLabel('Title')).toHaveValue(title);
    await edit.getByLabel('Status').click();
    await page.getByRole('option', { name: 'Published' }).click();
    await edit.getByRole('button', { name: 'Update Post' }).click();
    await expect(toast(page, 'Post updated')).toContainText('Blog post has been updated successfully');
    await expect(item).toContainText('Published');
    const link = item.getByRole('link', { name: /\/blog\// });
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/blog\/hand-the-hard-conversations-to-people/u);

    const api = await apiAs(playwright, baseURL!);
    try {
      const published = await api.get<{ posts: { slug: string }[] }>('/api/v1/public/blog-posts');
      expect(published.posts.map((p) => `/blog/${p.slug}`)).toContain(href);
    } finally {
      await api.dispose();
    }

    await item.getByRole('button', { name: `Delete ${title}` }).click();
    await expect(page.getByRole('alertdialog')).toContainText(`Are you sure you want to delete "${title}"?`);
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Post deleted')).toContainText('Blog post has been deleted successfully');
    await expect(item).toHaveCount(0);
  });

  test('the second of two tabs saving the same section gets the conflict message, and Reload shows the first one’s text', async ({ page, context }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    const second = await context.newPage();
    await page.goto('/admin?tab=content&section=about');
    await second.goto('/admin?tab=content&section=about');
    const mission = (p: Page) => p.getByLabel('Mission');
    await expect(mission(page)).toHaveValue(/.+/u);
    await expect(mission(second)).toHaveValue(/.+/u);

    const first = unique('We answer every message');
    await mission(page).fill(first);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(toast(page, 'About content updated')).toBeVisible();

    const late = unique('Our own mission');
    await mission(second).fill(late);
    await second.getByRole('button', { name: 'Save Changes' }).click();
    const conflict = second.getByTestId('conflict');
    await expect(conflict).toContainText(conflictMessage('about'));
    // Nothing was overwritten: the second tab keeps its text, the stored one is the first's.
    await expect(mission(second)).toHaveValue(late);
    await page.reload();
    await expect(mission(page)).toHaveValue(first);

    await conflict.getByRole('button', { name: 'Reload' }).click();
    await expect(mission(second)).toHaveValue(first);
    await expect(second.getByTestId('conflict')).toHaveCount(0);

    // Put the default back for other tests.
    await second.getByRole('button', { name: 'Reset to Defaults' }).click();
    await second.getByRole('alertdialog').getByRole('button', { name: 'Reset to Defaults' }).click();
    await expect(toast(second, resetToast('about'))).toBeVisible();
    await expect(mission(second)).toHaveValue(DEFAULT_ABOUT.mission);
  });

  test('a contact message arrives live, is read, answered by e-mail and deleted; the panel fits a phone', async ({ page, playwright, baseURL }) => {
    await signInPage(page, ADMIN.email, ADMIN.password);
    const subscribed = frameReceived(page, '"subscribed"', '"contact-messages"');
    const pushed = frameReceived(page, '"contact_message.created"');
    await page.goto('/admin?tab=content&section=messages');
    await subscribed;
    await expect(page.getByRole('heading', { name: 'Messages', level: 2, exact: true })).toBeVisible();
    await expect(page.getByTestId('unread-count')).toBeVisible();

    // A visitor sends the contact form (its CSRF token from its own cookie, as the page does).
    const visitor = await playwright.request.newContext({ baseURL: baseURL! });
    const email = uniqueEmail('visitor');
    const lastName = unique('Hopper');
    const name = `Grace ${lastName}`;
    const text = unique('Can Parley answer our customers on WhatsApp at night?');
    try {
      await visitor.get('/api/v1/auth/session');
      const csrf = (await visitor.storageState()).cookies.find((c) => c.name === 'parley_csrf')?.value ?? '';
      const sent = await visitor.post('/api/v1/public/contact', {
        data: { firstName: 'Grace', lastName, email, company: 'Harbour Bakery', message: text, website: '', shownAt: Date.now() - 10_000 },
        headers: { 'x-csrf-token': csrf },
      });
      expect(sent.status(), await sent.text()).toBe(201);
    } finally {
      await visitor.dispose();
    }

    // Live: pushed over the WebSocket, no reload.
    await pushed;
    const item = page.getByTestId('contact-message').filter({ hasText: text });
    await expect(item).toBeVisible();
    await expect(item).toHaveAttribute('data-unread', 'true');
    await expect(item).toContainText(name);
    const unreadBefore = Number((await page.getByTestId('unread-count').innerText()).split(' ')[0]);
    expect(unreadBefore).toBeGreaterThan(0);

    await item.getByRole('button').click();
    const open = page.getByRole('article', { name });
    await expect(open).toContainText(text);
    await expect(open).toContainText('Harbour Bakery');
    await expect(item).not.toHaveAttribute('data-unread', 'true');
    await expect(page.getByTestId('unread-count')).toHaveText(`${unreadBefore - 1} unread`);
    await expect(open.getByRole('link', { name: 'Reply by e-mail' })).toHaveAttribute('href', new RegExp(`^${literal(`mailto:${email}?subject=`).source}`, 'u'));

    await open.getByRole('button', { name: 'Send Reply' }).click();
    await expect(open.getByText('Reply is required')).toBeVisible();
    const reply = unique('Yes: the AI agent answers around the clock.');
    await open.getByLabel('Reply', { exact: true }).fill(reply);
    await open.getByRole('button', { name: 'Send Reply' }).click();
    await expect(toast(page, 'Reply sent')).toBeVisible();
    await expect(open.getByTestId('contact-reply')).toContainText(reply);

    // The e-mail went out from Parley (no SMTP here: the outbox).
    const api = await apiAs(playwright, baseURL!);
    try {
      await expect
        .poll(async () => (await api.get<{ emails: { to: string }[] }>('/api/v1/admin/outbox')).emails.some((e) => e.to === email), { timeout: 15_000 })
        .toBe(true);
    } finally {
      await api.dispose();
    }

    // A phone: the list and the open message stack, nothing scrolls sideways.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(open).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.goto('/admin');
    await page.getByRole('button', { name: 'New Post' }).click();
    await expect(page.getByRole('form', { name: 'Create New Post' })).toBeVisible();
    await expectNoHorizontalScroll(page);
    await page.goto('/admin?tab=content&section=messages');
    await item.getByRole('button').click();

    await open.getByRole('button', { name: `Delete the message from ${name}` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await expect(toast(page, 'Message deleted')).toBeVisible();
    await expect(item).toHaveCount(0);
    await expect(page.getByText('Select a message to read it and reply.').or(page.getByText('No messages yet'))).toBeVisible();
  });
});
