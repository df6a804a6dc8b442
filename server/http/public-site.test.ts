/**
 * The server-rendered public site on both engines (issue 15 §2, §4): every page answers with its
 * stored content in the HTML itself — no script runs here — with its title, description,
 * canonical URL and Open Graph tags; a save shows at the next request; ETag revalidation answers
 * 304; published posts (and only they) reach /blog, their own URL, the sitemap and the RSS feed;
 * a post body's hostile HTML arrives neutralised.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlogPostDetail, ContentSectionView } from '../../common/api/content';
import { DEFAULT_CONTACT, DEFAULT_HERO, DEFAULT_HERO_STATS, DEFAULT_SERVICES } from '../../common/marketing/defaults';
import { createTestApp, signedInClient, TEST_PUBLIC_URL, TEST_SITE_ASSETS, type TestApp, type TestClient } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { expectJson } from '../../test/helpers/inbox';
import { pickEncoding } from './public-site';

describe('pickEncoding', () => {
  it('prefers brotli, then gzip, honours q=0 and the wildcard, and sends plain text otherwise', () => {
    expect(pickEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(pickEncoding('gzip')).toBe('gzip');
    expect(pickEncoding('br;q=0, gzip;q=0.5')).toBe('gzip');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('*, br;q=0')).toBe('gzip');
    expect(pickEncoding('identity')).toBeNull();
    expect(pickEncoding(undefined)).toBeNull();
    expect(pickEncoding('gzip;q=0, br;q=0')).toBeNull();
  });
});

/** The text content of the HTML, entities decoded, so assertions read like the page. */
function text(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/giu, ' ')
    .replace(/<[^>]+>/gu, ' ')
    .replace(/&#x27;|&#39;/gu, "'")
    .replace(/&quot;/gu, '"')
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&amp;/gu, '&')
    .replace(/\s+/gu, ' ');
}

const meta = (html: string, attr: 'name' | 'property', key: string) => new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`, 'u').exec(html)?.[1];

describe.each(ENGINES)('the public site (%s)', (engine) => {
  let app: TestApp;
  let admin: TestClient;

  const page = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, html: response.body, headers: response.headers };
  };
  const section = async (key: string) =>
    expectJson<{ sections: ContentSectionView[] }>(await admin.get('/api/v1/content'), 200).sections.find((s) => s.section === key)!;
  const post = (overrides: Record<string, unknown> = {}) => ({
    title: 'Five conversations to hand to a person',
    excerpt: 'Refunds, complaints and anything urgent.',
    author: 'Ada Admin',
    date: 'March 15, 2024',
    readTime: '5 min read',
    category: 'Automation',
    image: 'https://images.example.com/handoff.png',
    body: '## Refunds\n\nMoney questions deserve a person.',
    status: 'published',
    ...overrides,
  });

  beforeAll(async () => {
    app = await createTestApp(engine, { startJobs: false });
    admin = (await signedInClient(app, 'admin', { name: 'Ada Admin' })).client;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('renders the landing page with the default content in the HTML, the head tags and only the site script', async () => {
    const { status, html, headers } = await page('/');
    expect(status).toBe(200);
    expect(headers['content-type']).toContain('text/html');
    const body = text(html);
    expect(body).toContain(DEFAULT_HERO.heading);
    expect(body).toContain(DEFAULT_HERO.subheading);
    expect(body).toContain(DEFAULT_HERO.ctaPrimary);
    for (const stat of DEFAULT_HERO_STATS) expect(body).toContain(`${stat.label} ${stat.number}`);
    expect(html).toContain('<title>Parley — AI customer messaging, around the clock</title>');
    expect(meta(html, 'name', 'description')).toMatch(/AI agents/u);
    expect(html).toContain(`<link rel="canonical" href="${TEST_PUBLIC_URL}/">`);
    expect(meta(html, 'property', 'og:url')).toBe(`${TEST_PUBLIC_URL}/`);
    expect(html).toContain('<html lang="en" class="dark">');
    const scripts = [...html.matchAll(/<script\b[^>]*>/gu)].map((m) => m[0]);
    expect(scripts).toEqual([`<script type="module" src="${TEST_SITE_ASSETS.scripts[0]}">`]);
    expect(html).toContain(`<link rel="stylesheet" href="${TEST_SITE_ASSETS.styles[0]}">`);
    expect(html).toContain('data-island="menu-toggle"');
  });

  it('shows a saved hero at the next request, and answers 304 to a revalidation while nothing changed', async () => {
    const first = await page('/');
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/u);
    expect((await page('/', { 'if-none-match': String(first.headers.etag) })).status).toBe(304);

    const hero = await section('hero');
    const saved = await admin.put('/api/v1/content/hero', { version: hero.version, data: { ...DEFAULT_HERO, heading: 'Bikes fixed while you wait,' } });
    expect(saved.statusCode).toBe(200);
    const after = await page('/', { 'if-none-match': String(first.headers.etag) });
    expect(after.status).toBe(200);
    expect(text(after.html)).toContain('Bikes fixed while you wait,');
    expect(text(after.html)).not.toContain(DEFAULT_HERO.heading);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(Date.parse(String(after.headers['last-modified']))).toBeGreaterThan(0);

    // A hidden stat leaves the page.
    const stats = expectJson<{ stats: { id: string; label: string }[] }>(await admin.get('/api/v1/content/hero-stats'), 200).stats;
    const uptime = stats.find((s) => s.label === 'Uptime')!;
    expect((await admin.patch(`/api/v1/content/hero-stats/${uptime.id}`, { isActive: false })).statusCode).toBe(200);
    expect(text((await page('/')).html)).not.toContain('Uptime');
  });

  it('renders services, about, contact and features from their content, aliases with the canonical path', async () => {
    const services = await page('/our-services');
    expect(services.status).toBe(200);
    for (const card of DEFAULT_SERVICES.services) expect(text(services.html)).toContain(card.price);
    expect(text(services.html)).toContain('Most Popular');
    expect(services.html).toContain(`<link rel="canonical" href="${TEST_PUBLIC_URL}/services">`);

    const contactSection = await section('contact');
    const saved = await admin.put('/api/v1/content/contact', {
      version: contactSection.version,
      data: { ...DEFAULT_CONTACT, phone: '+44 20 7946 0000', hours: { ...DEFAULT_CONTACT.hours, sunday: 'By appointment' } },
    });
    expect(saved.statusCode).toBe(200);
    const contact = await page('/contact-us');
    expect(text(contact.html)).toContain('+44 20 7946 0000');
    expect(text(contact.html)).toContain('Sunday By appointment');
    expect(contact.html).toContain('data-island="contact-form"');
    expect(contact.html).toMatch(/<label for="contact-firstName"[^>]*>First name/u);

    const about = await page('/about');
    expect(about.html).toContain(`href="mailto:${DEFAULT_CONTACT.email}"`);
    expect(text(about.html)).toContain('Our values');

    const features = text((await page('/features')).html);
    expect(features).toContain('WhatsApp Business Live');
    expect(features).not.toContain('Coming Soon');
  });

  it('lists published posts only, each at its own URL, in the sitemap and the RSS feed, with hostile HTML neutralised', async () => {
    const published = expectJson<BlogPostDetail>(
      await admin.post(
        '/api/v1/blog-posts',
        post({ body: '## Refunds\n\n<img src=x onerror="alert(1)"> [click](javascript:alert(2)) <a href="https://example.com" onclick="x()">ok</a>' }),
      ),
      201,
    );
    const draft = expectJson<BlogPostDetail>(await admin.post('/api/v1/blog-posts', post({ title: 'A draft nobody may see', status: 'draft' })), 201);

    const blog = await page('/blog');
    expect(text(blog.html)).toContain(published.title);
    expect(text(blog.html)).not.toContain(draft.title);
    expect(blog.html).toContain(`href="/blog/${published.slug}"`);
    expect(blog.html).toContain('data-island="newsletter"');

    const own = await page(`/blog/${published.slug}`);
    expect(own.status).toBe(200);
    expect(own.html).toContain(`<title>${published.title} | Parley</title>`);
    expect(meta(own.html, 'property', 'og:type')).toBe('article');
    expect(meta(own.html, 'property', 'og:image')).toBe(published.image);
    expect(own.html).toMatch(/<h2[^>]*>Refunds<\/h2>/u);
    expect(own.html).not.toMatch(/onerror|onclick|javascript:/iu);

    expect((await page(`/blog/${draft.slug}`)).status).toBe(404);
    expect((await page('/blog/no-such-post')).status).toBe(404);

    const sitemap = await page('/sitemap.xml');
    expect(sitemap.headers['content-type']).toContain('application/xml');
    expect(sitemap.html).toContain(`<loc>${TEST_PUBLIC_URL}/blog/${published.slug}</loc>`);
    expect(sitemap.html).toContain(`<loc>${TEST_PUBLIC_URL}/services</loc>`);
    expect(sitemap.html).not.toContain(draft.slug);

    const rss = await page('/blog/rss.xml');
    expect(rss.html).toContain(`<link>${TEST_PUBLIC_URL}/blog/${published.slug}</link>`);
    expect(rss.html).not.toContain(draft.title);
  });

  it('filters the blog by a category of the page content and ignores one it does not list', async () => {
    expectJson<BlogPostDetail>(await admin.post('/api/v1/blog-posts', post({ title: 'Signed webhooks, explained', category: 'Security' })), 201);
    const security = text((await page('/blog?category=Security')).html);
    expect(security).toContain('Signed webhooks, explained');
    expect(security).not.toContain('Five conversations to hand to a person');
    const unknown = text((await page('/blog?category=Nonsense')).html);
    expect(unknown).toContain('Signed webhooks, explained');
    expect(unknown).toContain('Five conversations to hand to a person');
  });

  it('sends each page compressed as the browser accepts, the same HTML once decompressed', async () => {
    const plain = await app.inject({ method: 'GET', url: '/about' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    const br = await app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString('utf8')).toBe(plain.body);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    const gzip = await app.inject({ method: 'GET', url: '/about', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString('utf8')).toBe(plain.body);
    expect(gzip.headers.etag).toBe(plain.headers.etag);
  });

  it('tells robots where the sitemap is, and keeps the API out', async () => {
    const robots = await page('/robots.txt');
    expect(robots.html).toContain('Disallow: /api/');
    expect(robots.html).toContain(`Sitemap: ${TEST_PUBLIC_URL}/sitemap.xml`);
  });
});

describe.each(ENGINES)('the built web app’s files (%s)', (engine) => {
  it('sends the build’s brotli or gzip copy of an asset to a browser that accepts it, with the asset’s own headers', async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-precompressed-'));
    const script = `console.log(${JSON.stringify('x'.repeat(4_000))});\n`;
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Parley</title>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc.js.br'), brotliCompressSync(script));
    fs.writeFileSync(path.join(dist, 'widget.js'), script);
    fs.writeFileSync(path.join(dist, 'widget.js.br'), brotliCompressSync(script));
    const served = await createTestApp(engine, { env: { WEB_DIST_DIR: dist }, startJobs: false });
    try {
      const asset = await served.inject({ method: 'GET', url: '/assets/app-abc.js', headers: { 'accept-encoding': 'gzip, br' } });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['content-encoding']).toBe('br');
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(brotliDecompressSync(asset.rawPayload).toString('utf8')).toBe(script);
      // No copy in that encoding: the file itself.
      const identity = await served.inject({ method: 'GET', url: '/assets/app-abc.js', headers: { 'accept-encoding': 'gzip' } });
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.body).toBe(script);
      const widget = await served.inject({ method: 'GET', url: '/widget.js', headers: { 'accept-encoding': 'br' } });
      expect(widget.headers['content-encoding']).toBe('br');
      expect(widget.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(widget.headers['cache-control']).toBe('public, max-age=300');
    } finally {
      await served.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
