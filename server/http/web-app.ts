/**
 * Serves the built web app: hashed assets under /assets (cached for a year; the build's brotli or
 * gzip copy when the browser accepts it), index.html for every
 * page path of common/routes.ts but the server-rendered site's (./public-site.ts), and for any other path the same index.html with a real 404 status
 * (the app renders its 404 page) after logging the unknown path.
 *
 * The auth pages (sign in, sign up, forgot and reset password) are pre-rendered: their document
 * carries the page's markup inside #root, its title and description, and the boot data its first
 * render needs (common/prerender.ts); its one script starts the app after the first paint, with the
 * page's own chunks in parallel (web/src/app/prerender-boot.ts). A phone paints the form from the
 * first response instead of after the whole app has loaded; the app then takes the markup over in
 * one commit, keeping what was typed (web/src/lib/prerender-handoff.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { constants as zlibConstants, brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_PAGES, BOOT_DATA_ID, PRERENDERED, type AuthPageName, type BootData } from '../../common/prerender';
import { isSitePage, isUnlistedPage, PAGE_ROUTES, type PageName } from '../../common/routes';
import type { SiteRenderer } from '../../common/site';
import { escapeHtml } from '../lib/html';
import { pickEncoding } from './public-site';

/** The website chat widget's bundle (web/widget), embedded by businesses' own sites. */
export const WIDGET_SCRIPT = 'widget.js';

export interface WebAppOptions {
  distDir: string;
  /** Pre-renders the auth pages; without it (development, tests) they get the bare app document. */
  prerender?: {
    loadRenderer: () => Promise<SiteRenderer>;
    boot: () => BootData;
  };
}

/** The source file of each auth page's screen, as Vite's manifest names it. */
const AUTH_SCREEN_SOURCE: Record<AuthPageName, string> = {
  signIn: 'src/app/routes/auth/sign-in.tsx',
  signUp: 'src/app/routes/auth/sign-up.tsx',
  forgotPassword: 'src/app/routes/auth/forgot-password.tsx',
  resetPassword: 'src/app/routes/auth/reset-password.tsx',
};
const AUTH_LAYOUT_SOURCE = 'src/app/layouts/auth-layout.tsx';

type Manifest = Record<string, { file: string; name?: string; imports?: string[]; isEntry?: boolean }>;

/** The chunks (scripts) a manifest entry loads, itself included, without the app's entry (already in the document). */
export function chunksOf(manifest: Manifest, sources: readonly string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk || chunk.isEntry) return;
    files.add(`/${chunk.file}`);
    for (const next of chunk.imports ?? []) visit(next);
  };
  for (const source of sources) visit(source);
  return [...files];
}

/** `</script>` and `<!--` cannot end or break a JSON data block. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</gu, '\\u003c');
}

/** index.html cut around its title, its description, the app's script tag and #root. */
interface Template {
  beforeTitle: string;
  betweenTitleAndDescription: string;
  betweenDescriptionAndScript: string;
  /** From after the app's script tag to #root. */
  beforeRoot: string;
  afterRoot: string;
  /** The app's entry script. */
  appSrc: string;
  /** Scripts the document already names (its modulepreload links). */
  named: Set<string>;
}

/** null when index.html lacks one of those parts (then nothing is pre-rendered). */
export function templateOf(indexHtml: string): Template | null {
  const title = /<title>[^<]*<\/title>/u.exec(indexHtml);
  const description = /<meta name="description" content="[^"]*"\s*\/?>/u.exec(indexHtml);
  const script = /<script type="module"(?: crossorigin)? src="([^"]+)"><\/script>/u.exec(indexHtml);
  const root = '<div id="root"></div>';
  const rootAt = indexHtml.indexOf(root);
  if (!title || !description || !script || !(title.index < description.index && description.index < script.index && script.index < rootAt)) return null;
  return {
    beforeTitle: indexHtml.slice(0, title.index),
    betweenTitleAndDescription: indexHtml.slice(title.index + title[0].length, description.index),
    betweenDescriptionAndScript: indexHtml.slice(description.index + description[0].length, script.index),
    beforeRoot: indexHtml.slice(script.index + script[0].length, rootAt),
    afterRoot: indexHtml.slice(rootAt + root.length),
    appSrc: script[1]!,
    named: new Set([...indexHtml.matchAll(/<link rel="modulepreload"(?: crossorigin)? href="([^"]+)"/gu)].map((m) => m[1]!)),
  };
}

export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const indexFile = path.join(options.distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  let indexHtml: string | undefined;
  const readIndex = (): string => {
    indexHtml ??= fs.readFileSync(indexFile, 'utf8');
    return indexHtml;
  };

  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: options.distDir,
      prefix: '/',
      index: false,
      wildcard: false,
      // The build writes brotli and gzip copies beside the assets (scripts/build-lib.mjs precompress).
      preCompressed: true,
      setHeaders(res, filePath) {
        const logical = filePath.replace(/\.(br|gz)$/u, '');
        if (logical.includes(`${path.sep}assets${path.sep}`)) {
          res.header('cache-control', 'public, max-age=31536000, immutable');
        } else if (path.basename(logical) === WIDGET_SCRIPT) {
          // Loaded by <script> tags on other sites (helmet's CORP default, same-origin, would block
          // it there); its name carries no hash, so caches revalidate it within minutes.
          res.header('cross-origin-resource-policy', 'cross-origin');
          res.header('cache-control', 'public, max-age=300');
        }
      },
    });
  }

  const prerender = hasBuild ? options.prerender : undefined;
  let renderer: Promise<SiteRenderer> | undefined;
  let prepared: { template: Template; boot: string; preloads: Record<AuthPageName, string[]> } | null | undefined;
  const prepare = () => {
    if (prepared !== undefined) return prepared;
    const template = templateOf(readIndex());
    const manifestFile = path.join(options.distDir, '.vite', 'manifest.json');
    const manifest = fs.existsSync(manifestFile) ? (JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest) : {};
    const boot = Object.values(manifest).find((chunk) => chunk.isEntry && chunk.name === 'boot');
    if (!template || !boot) {
      app.log.warn('the auth pages are not pre-rendered: index.html or the build manifest lacks what they need');
      prepared = null;
      return prepared;
    }
    const preloads = Object.fromEntries(
      AUTH_PAGES.map((page) => [page, chunksOf(manifest, [AUTH_LAYOUT_SOURCE, AUTH_SCREEN_SOURCE[page]]).filter((href) => !template.named.has(href))]),
    ) as Record<AuthPageName, string[]>;
    prepared = { template, boot: `/${boot.file}`, preloads };
    return prepared;
  };

  /** The auth page pre-rendered; the bare app document when it cannot be (logged). */
  const sendAuthPage = async (request: FastifyRequest, reply: FastifyReply, page: AuthPageName) => {
    const parts = prerender ? prepare() : null;
    if (!prerender || !parts) return sendIndex(reply, 200);
    let html: string;
    try {
      renderer ??= prerender.loadRenderer();
      const boot = prerender.boot();
      const result = (await renderer).renderAuth({ page, url: request.url, boot });
      const t = parts.template;
      // The boot script starts the app (and the page's chunks) once the page has painted (web/src/app/prerender-boot.ts).
      const bootTag = `<script type="module" crossorigin src="${escapeHtml(parts.boot)}" data-app="${escapeHtml(t.appSrc)}" data-preload="${escapeHtml(parts.preloads[page].join(' '))}"></script>`;
      html = [
        t.beforeTitle,
        `<title>${escapeHtml(result.title)}</title>`,
        t.betweenTitleAndDescription,
        `<meta name="description" content="${escapeHtml(result.description)}" />`,
        t.betweenDescriptionAndScript,
        bootTag,
        `\n    <script type="application/json" id="${BOOT_DATA_ID}">${jsonForScript(boot)}</script>`,
        t.beforeRoot,
        `<div id="root" ${PRERENDERED}="">${result.body}</div>`,
        t.afterRoot,
      ].join('');
    } catch (error) {
      renderer = undefined;
      request.log.error({ err: error, page }, 'pre-rendering an auth page failed; sending the bare app document');
      return sendIndex(reply, 200);
    }
    reply.status(200).header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding === 'br') return reply.header('content-encoding', 'br').send(brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }));
    if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(html));
    return reply.send(html);
  };

  const sendIndex = (reply: FastifyReply, status: number) => {
    if (!hasBuild) {
      return reply
        .status(status === 200 ? 503 : status)
        .type('text/plain; charset=utf-8')
        .send(status === 200 ? 'The web app is not built. Run `npm run build` (npm start does it for you).' : 'Not found');
    }
    return reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(readIndex());
  };

  // The public site's pages are rendered on the server (./public-site.ts), not by the app.
  const isAuthPage = (name: PageName): name is AuthPageName => (AUTH_PAGES as readonly PageName[]).includes(name);
  for (const [name, route] of Object.entries(PAGE_ROUTES) as [PageName, (typeof PAGE_ROUTES)[PageName]][]) {
    if (isSitePage(name)) continue;
    for (const url of route.paths) {
      app.get(url, { config: { access: 'public' }, schema: { hide: true } }, (request, reply) => {
        // A share link's page: its address is a secret, so no search engine should keep it.
        if (isUnlistedPage(name)) reply.header('x-robots-tag', 'noindex, nofollow');
        return isAuthPage(name) ? sendAuthPage(request, reply, name) : sendIndex(reply, 200);
      });
    }
  }

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? request.url;
    const isApi = pathname.startsWith('/api/') || pathname.startsWith('/webhooks/');
    if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.status(404).send({ error: { code: 'NOT_FOUND', message: 'Route not found' } });
    }
    request.log.warn({ path: pathname }, 'page not found');
    return sendIndex(reply, 404);
  });
}
