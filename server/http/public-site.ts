/**
 * The public site, rendered on the server (issue 15 §4): the pages of common/routes.ts SITE_PAGES
 * answer with their stored content in the HTML of the first response — nothing waits for a
 * script — then one small script (web/src/app/site/islands.ts) adds what is interactive. Also
 * `sitemap.xml`, `robots.txt` and the blog's RSS feed (`/blog/rss.xml`).
 *
 * - Content comes from `SiteSource` (the content module's service, passed in by app.ts); the
 *   markup from the renderer (web/src/app/site/render.tsx, built to dist/ssr/render.js).
 * - Rendered pages are cached per path and query, keyed by the content's version, which every
 *   request reads (one primary-key read): a save is visible at the next request, on every instance
 *   sharing the database.
 * - ETag and Last-Modified on every page, with `Cache-Control: no-cache`: a browser revalidates
 *   each time and gets a 304 while nothing changed. The HTML is compressed (brotli or gzip, as the
 *   browser accepts) once per render, not per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PublicBlogPost } from '../../common/api/content';
import { PAGE_ROUTES, SITE_PAGES, type SitePageName } from '../../common/routes';
import type { SiteContent, SiteRenderer, SiteRenderResult } from '../../common/site';
import { escapeHtml } from '../lib/html';
import { etagOf, notModified } from './conditional-get';

/** At most this many rendered pages are kept (each path and query is an entry). */
const CACHE_MAX = 500;
/** Query parameters the pages read; any other is ignored (and not part of the cache key). */
const PAGE_QUERY: Partial<Record<SitePageName, readonly string[]>> = { blog: ['category', 'newsletter'] };

export interface SiteSource {
  /** A cheap token that changes whenever anything the site shows changes, and when it changed. */
  version(): Promise<{ token: string; updatedAt: Date | null }>;
  /** Every section (defaults where unsaved), the active hero stats and the published posts. */
  site(): Promise<SiteContent>;
  /** A published post by slug, or null. */
  post(slug: string): Promise<PublicBlogPost | null>;
}

export interface PublicSiteOptions {
  /** dist/web (its .vite/manifest.json names the site script and stylesheet). */
  distDir: string;
  publicUrl: string;
  source: SiteSource;
  /** Loads the renderer once (dist/ssr/render.js in production; the source in tests). */
  loadRenderer: () => Promise<SiteRenderer>;
  /** `dev`: assets from the Vite dev server (npm run dev) instead of the manifest. */
  dev?: boolean;
  /** The script and stylesheets to link (tests, which run without a build); default: the manifest. */
  assets?: Assets;
}

export interface Assets {
  scripts: string[];
  styles: string[];
}

/**
 * Loads the built renderer (dist/ssr/render.js). With `reload` (development) a rebuilt file is
 * imported again: the URL carries its modification time.
 */
export function rendererFromFile(file: string, options: { reload?: boolean } = {}): () => Promise<SiteRenderer> {
  return async () => {
    if (!fs.existsSync(file)) throw new Error(`The public site renderer is not built (${file}). Run \`npm run build\`.`);
    const url = pathToFileURL(file).href + (options.reload ? `?v=${fs.statSync(file).mtimeMs}` : '');
    const module = (await import(url)) as { default?: SiteRenderer } & Partial<SiteRenderer>;
    const renderer = module.default ?? module;
    if (typeof renderer.renderSite !== 'function') throw new Error(`${file} does not export renderSite`);
    return renderer as SiteRenderer;
  };
}

interface CachedPage {
  version: string;
  status: number;
  html: string;
  /** The HTML compressed once, when rendered (a page is sent many times per render). */
  br: Buffer;
  gzip: Buffer;
  etag: string;
  lastModified: Date | null;
}

/** The encoding to send: brotli, else gzip, when the request accepts it (q=0 refuses). */
export function pickEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/u.exec(p)?.[1]).find((v) => v !== undefined);
    if (name) accepted.set(name, q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** The site script and its stylesheet, from Vite's manifest (`site` entry of web/vite.config.ts). */
function readAssets(distDir: string, dev: boolean): Assets | null {
  if (dev) return { scripts: ['/@vite/client', '/src/app/site/islands.ts'], styles: [] };
  const file = path.join(distDir, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return null;
  const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, { file: string; name?: string; isEntry?: boolean; css?: string[] }>;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry && chunk.name === 'site');
  if (!entry) return null;
  return { scripts: [`/${entry.file}`], styles: (entry.css ?? []).map((css) => `/${css}`) };
}

function documentHtml(page: SiteRenderResult, assets: Assets, publicUrl: string): string {
  const canonical = `${publicUrl}${page.canonicalPath}`;
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="dark">',
    '<meta name="theme-color" content="#0b0d14">',
    `<title>${escapeHtml(page.title)}</title>`,
    `<meta name="description" content="${escapeHtml(page.description)}">`,
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    '<link rel="icon" type="image/svg+xml" href="/favicon.svg">',
    `<link rel="alternate" type="application/rss+xml" title="Parley blog" href="${escapeHtml(`${publicUrl}/blog/rss.xml`)}">`,
    '<meta property="og:site_name" content="Parley">',
    `<meta property="og:type" content="${page.type}">`,
    `<meta property="og:title" content="${escapeHtml(page.title)}">`,
    `<meta property="og:description" content="${escapeHtml(page.description)}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    ...(page.image ? [`<meta property="og:image" content="${escapeHtml(page.image)}">`, '<meta name="twitter:card" content="summary_large_image">'] : ['<meta name="twitter:card" content="summary">']),
    ...(page.publishedTime ? [`<meta property="article:published_time" content="${escapeHtml(page.publishedTime)}">`] : []),
    ...assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`),
    ...assets.scripts.map((src) => `<script type="module" src="${escapeHtml(src)}"></script>`),
  ];
  return `<!doctype html>\n<html lang="en" class="dark">\n<head>\n${head.join('\n')}\n</head>\n<body>\n${page.body}\n</body>\n</html>\n`;
}

export async function registerPublicSite(app: FastifyInstance, options: PublicSiteOptions): Promise<void> {
  const { source, publicUrl } = options;
  const cache = new Map<string, CachedPage>();
  let assets: Assets | null | undefined;
  let renderer: Promise<SiteRenderer> | undefined;

  const notBuilt = (reply: FastifyReply) =>
    reply.status(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('The public site is not built. Run `npm run build` (npm start does it for you).');

  const serve = async (request: FastifyRequest, reply: FastifyReply, page: SitePageName, slug: string | null) => {
    assets ??= options.assets ?? readAssets(options.distDir, options.dev ?? false);
    if (!assets) return notBuilt(reply);
    const url = new URL(request.url, 'http://site');
    const query: Record<string, string> = {};
    for (const key of PAGE_QUERY[page] ?? []) {
      const value = url.searchParams.get(key);
      if (value !== null && value.length <= 100) query[key] = value;
    }
    const key = `${url.pathname}?${new URLSearchParams(query).toString()}`;
    const v = await source.version();
    let cached = cache.get(key);
    if (!cached || cached.version !== v.token) {
      try {
        // In development the loader is asked every time (it reloads a rebuilt renderer).
        if (options.dev) renderer = options.loadRenderer();
        else renderer ??= options.loadRenderer();
        const render = await renderer;
        const content = await source.site();
        const post = page === 'blogPost' && slug !== null ? await source.post(slug) : undefined;
        const result = render.renderSite({ page, path: url.pathname, query, content, ...(post === undefined ? {} : { post }) });
        const html = documentHtml(result, assets, publicUrl);
        cached = {
          version: v.token,
          status: result.status,
          html,
          br: brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }),
          gzip: gzipSync(html, { level: 9 }),
          etag: etagOf(html),
          lastModified: v.updatedAt,
        };
      } catch (error) {
        renderer = undefined;
        throw error;
      }
      if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
      cache.set(key, cached);
    }
    reply.header('vary', 'accept-encoding');
    if (notModified(request, reply, cached) && cached.status === 200) return reply.status(304).send();
    reply.status(cached.status).type('text/html; charset=utf-8');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === null) return reply.send(cached.html);
    return reply.header('content-encoding', encoding).send(encoding === 'br' ? cached.br : cached.gzip);
  };

  const config = { access: 'public' as const };
  for (const page of SITE_PAGES) {
    for (const pattern of PAGE_ROUTES[page].paths) {
      app.get(pattern, { config, schema: { hide: true } }, async (request, reply) => {
        const params = request.params as { slug?: string };
        return serve(request, reply, page, params.slug ?? null);
      });
    }
  }

  app.get('/robots.txt', { config, schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(`User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${publicUrl}/sitemap.xml\n`),
  );

  app.get('/sitemap.xml', { config, schema: { hide: true } }, async (_request, reply) => {
    const content = await source.site();
    const pages = SITE_PAGES.filter((page) => page !== 'blogPost').map((page) => ({ loc: `${publicUrl}${PAGE_ROUTES[page].paths[0]}`, lastmod: null as string | null }));
    const posts = content.posts.map((post) => ({ loc: `${publicUrl}/blog/${post.slug}`, lastmod: post.updatedAt }));
    const urls = [...pages, ...posts]
      .map(({ loc, lastmod }) => `  <url><loc>${escapeHtml(loc)}</loc>${lastmod ? `<lastmod>${escapeHtml(lastmod)}</lastmod>` : ''}</url>`)
      .join('\n');
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`);
  });

  app.get('/blog/rss.xml', { config, schema: { hide: true } }, async (_request, reply) => {
    const content = await source.site();
    const items = content.posts
      .slice(0, 50)
      .map((post) => {
        const link = `${publicUrl}/blog/${post.slug}`;
        const date = new Date(post.publishedAt ?? post.updatedAt).toUTCString();
        return [
          '    <item>',
          `      <title>${escapeHtml(post.title)}</title>`,
          `      <link>${escapeHtml(link)}</link>`,
          `      <guid isPermaLink="true">${escapeHtml(link)}</guid>`,
          `      <pubDate>${date}</pubDate>`,
          `      <category>${escapeHtml(post.category)}</category>`,
          `      <description>${escapeHtml(post.excerpt)}</description>`,
          '    </item>',
        ].join('\n');
      })
      .join('\n');
    const channel = [
      `    <title>${escapeHtml(content.blog.title)} | Parley</title>`,
      `    <link>${escapeHtml(`${publicUrl}/blog`)}</link>`,
      `    <description>${escapeHtml(content.blog.subtitle)}</description>`,
      '    <language>en</language>',
      `    <atom:link href="${escapeHtml(`${publicUrl}/blog/rss.xml`)}" rel="self" type="application/rss+xml"/>`,
    ].join('\n');
    return reply
      .type('application/rss+xml; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(`<?xml version="1.0" encoding="UTF-8"?>\n<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n  <channel>\n${channel}\n${items}\n  </channel>\n</rss>\n`);
  });
}
