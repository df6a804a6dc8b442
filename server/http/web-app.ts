/**
 * Serves the built web app: hashed assets under /assets (cached for a year; the build's brotli or
 * gzip copy when the browser accepts it), index.html for every
 * page path of common/routes.ts but the server-rendered site's (./public-site.ts), and for any other path the same index.html with a real 404 status
 * (the app renders its 404 page) after logging the unknown path.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isSitePage, PAGE_ROUTES, type PageName } from '../../common/routes';

/** The website chat widget's bundle (web/widget), embedded by businesses' own sites. */
export const WIDGET_SCRIPT = 'widget.js';

export interface WebAppOptions {
  distDir: string;
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
  const pagePaths = new Set(
    (Object.entries(PAGE_ROUTES) as [PageName, (typeof PAGE_ROUTES)[PageName]][]).filter(([name]) => !isSitePage(name)).flatMap(([, r]) => r.paths),
  );
  for (const url of pagePaths) {
    app.get(url, { config: { access: 'public' }, schema: { hide: true } }, (_request, reply) => sendIndex(reply, 200));
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
