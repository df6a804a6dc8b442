/**
 * The pre-rendered auth pages (server/http/web-app.ts): the document of /login, /register,
 * /forgot-password and /reset-password carries the page's markup, title and description, the boot
 * data its first render needs and the loader script in place of the app's (which it names), on
 * both engines; a request's query string arrives escaped; without what it needs the server sends
 * the bare app document.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers/app';
import { ENGINES } from '../../test/helpers/database';
import { chunksOf, templateOf } from './web-app';

/** index.html as Vite builds it (web/index.html). */
const INDEX_HTML = `<!doctype html>
<html lang="en" class="dark">
  <head>
    <meta charset="UTF-8" />
    <title>Parley</title>
    <meta name="description" content="Parley connects your channels to AI agents." />
    <script type="module" crossorigin src="/assets/app-test.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/runtime-test.js">
    <link rel="stylesheet" crossorigin href="/assets/app-test.css">
  </head>
  <body>
    <div id="root"></div>
    <noscript>Parley needs JavaScript to run.</noscript>
  </body>
</html>
`;

const MANIFEST = {
  'index.html': { file: 'assets/app-test.js', name: 'app', isEntry: true, imports: ['_runtime.js'] },
  '_runtime.js': { file: 'assets/runtime-test.js' },
  'src/app/prerender-boot.ts': { file: 'assets/boot-test.js', name: 'boot', isEntry: true },
  'src/app/layouts/auth-layout.tsx': { file: 'assets/auth-layout-test.js', imports: ['index.html', '_card.js'] },
  '_card.js': { file: 'assets/card-test.js', imports: ['_runtime.js'] },
  'src/app/routes/auth/sign-in.tsx': { file: 'assets/sign-in-test.js', imports: ['_card.js', '_form.js'] },
  '_form.js': { file: 'assets/form-test.js' },
  'src/app/routes/auth/sign-up.tsx': { file: 'assets/sign-up-test.js', imports: ['_form.js'] },
  'src/app/routes/auth/forgot-password.tsx': { file: 'assets/forgot-test.js' },
  'src/app/routes/auth/reset-password.tsx': { file: 'assets/reset-test.js' },
};

function writeDist(indexHtml: string): string {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-prerender-'));
  fs.mkdirSync(path.join(dist, '.vite'));
  fs.writeFileSync(path.join(dist, 'index.html'), indexHtml);
  fs.writeFileSync(path.join(dist, '.vite', 'manifest.json'), JSON.stringify(MANIFEST));
  return dist;
}

const rootOf = (html: string) => /<div id="root" data-prerendered="">([\s\S]*)<\/div>\s*<noscript>/u.exec(html)?.[1] ?? '';
const bootOf = (html: string) => JSON.parse(/<script type="application\/json" id="parley-boot">([^<]*)<\/script>/u.exec(html)?.[1] ?? 'null') as unknown;
const loaderOf = (html: string) => /<script type="module" crossorigin src="([^"]+)" data-app="([^"]+)" data-preload="([^"]*)"><\/script>/u.exec(html);

describe('the pre-render template', () => {
  it('finds the parts of index.html it writes into, and refuses one that lacks a part', () => {
    const template = templateOf(INDEX_HTML);
    expect(template?.appSrc).toBe('/assets/app-test.js');
    expect([...(template?.named ?? [])]).toEqual(['/assets/runtime-test.js']);
    expect(templateOf(INDEX_HTML.replace('<div id="root"></div>', '<div id="app"></div>'))).toBeNull();
    expect(templateOf(INDEX_HTML.replace(/<script[^>]*><\/script>/u, ''))).toBeNull();
  });

  it('lists a page’s chunks once each, following imports, without the app’s entry', () => {
    expect(chunksOf(MANIFEST, ['src/app/layouts/auth-layout.tsx', 'src/app/routes/auth/sign-in.tsx'])).toEqual([
      '/assets/auth-layout-test.js',
      '/assets/card-test.js',
      '/assets/runtime-test.js',
      '/assets/sign-in-test.js',
      '/assets/form-test.js',
    ]);
  });
});

describe.each(ENGINES)('the pre-rendered auth pages (%s)', (engine) => {
  let app: TestApp;
  let dist: string;

  beforeAll(async () => {
    dist = writeDist(INDEX_HTML);
    app = await createTestApp(engine, { env: { WEB_DIST_DIR: dist, GOOGLE_CLIENT_ID: 'parley-test', GOOGLE_CLIENT_SECRET: 'secret' }, startJobs: false });
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  const get = async (url: string, headers: Record<string, string> = {}) => {
    const response = await app.inject({ method: 'GET', url, headers });
    return { status: response.statusCode, html: response.body, headers: response.headers, raw: response.rawPayload };
  };

  it('sends /login with the form in its HTML, its own title, the boot data and the loader in place of the app’s script', async () => {
    const { status, html, headers } = await get('/login');
    expect(status).toBe(200);
    expect(headers['cache-control']).toBe('no-cache');
    expect(html).toContain('<title>Sign In | Parley</title>');
    expect(html).toContain('<meta name="description" content="Sign in to your Parley account." />');
    expect(html).not.toContain('<title>Parley</title>');
    const root = rootOf(html);
    expect(root).toContain('<h1 class="text-2xl font-semibold tracking-tight">Welcome back</h1>');
    expect(root).toMatch(/<input type="email"[^>]*name="email"/u);
    expect(root).toMatch(/<input[^>]*name="password"/u);
    // Nothing can be sent before the app runs: the button is disabled while the fields are empty.
    expect(root).toMatch(/<button[^>]*type="submit"[^>]*disabled=""[^>]*>Sign In<\/button>/u);
    expect(root).toContain('href="/forgot-password"');
    expect(root).toContain('href="/register"');
    // Google is configured, so its button is there, and the boot data says so (the app keeps it in place).
    expect(root).toContain('href="/api/v1/auth/social/google?redirectTo=%2Fdashboard"');
    expect(bootOf(html)).toEqual({ providers: { google: true } });

    const loader = loaderOf(html);
    expect(loader?.[1]).toBe('/assets/boot-test.js');
    expect(loader?.[2]).toBe('/assets/app-test.js');
    // The page's chunks, but not what the document already preloads.
    expect(loader?.[3]?.split(' ')).toEqual(['/assets/auth-layout-test.js', '/assets/card-test.js', '/assets/sign-in-test.js', '/assets/form-test.js']);
    expect(html).not.toContain('<script type="module" crossorigin src="/assets/app-test.js">');
    expect(html).toContain('<link rel="stylesheet" crossorigin href="/assets/app-test.css">');
  });

  it('renders each auth page and alias as the app would, from the query string it was asked with', async () => {
    expect(rootOf((await get('/auth/sign-in')).html)).toContain('Welcome back');
    expect(rootOf((await get('/login?step=two-factor')).html)).toContain('Two-Factor Authentication');
    const register = await get('/register');
    expect(register.html).toContain('<title>Create Account | Parley</title>');
    expect(loaderOf(register.html)?.[3]).toContain('/assets/sign-up-test.js');
    expect(rootOf(register.html)).toMatch(/name="confirmPassword"/u);
    expect(rootOf((await get('/auth/forgot-password')).html)).toMatch(/name="email"/u);
    expect(rootOf((await get('/reset-password?token=abc')).html)).toContain('Checking your reset link...');
  });

  it('escapes a hostile query string in the markup', async () => {
    const { html } = await get(`/login?redirectTo=${encodeURIComponent('/x"><script>alert(1)</script>')}`);
    expect(html).not.toContain('<script>alert(1)</script>');
    // safeRedirect turns a value it does not trust into the default.
    expect(rootOf(html)).toContain('href="/api/v1/auth/social/google?redirectTo=%2F');
  });

  it('compresses the page for a browser that accepts it', async () => {
    const plain = await get('/login');
    const br = await get('/login', { 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(brotliDecompressSync(br.raw).toString('utf8')).toBe(plain.html);
  });

  it('sends the app document itself for its other pages, and an unknown path with 404', async () => {
    const dashboard = await get('/dashboard');
    expect(dashboard.html).toBe(INDEX_HTML);
    const missing = await get('/no-such-page');
    expect(missing.status).toBe(404);
    expect(missing.html).toBe(INDEX_HTML);
  });
});

describe.each(ENGINES)('the pre-rendered auth pages without Google (%s)', (engine) => {
  it('shows no Google button, and the boot data tells the app so', async () => {
    const dist = writeDist(INDEX_HTML);
    const app = await createTestApp(engine, { env: { WEB_DIST_DIR: dist }, startJobs: false });
    try {
      const { body } = await app.inject({ method: 'GET', url: '/register' });
      expect(rootOf(body)).toContain('Create your account');
      expect(body).not.toContain('Continue with Google');
      expect(bootOf(body)).toEqual({ providers: { google: false } });
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});

describe.each(ENGINES)('an auth page that cannot be pre-rendered (%s)', (engine) => {
  it('is sent as the bare app document when index.html lacks #root', async () => {
    const odd = INDEX_HTML.replace('<div id="root"></div>', '<div id="app"></div>');
    const dist = writeDist(odd);
    const app = await createTestApp(engine, { env: { WEB_DIST_DIR: dist }, startJobs: false });
    try {
      const response = await app.inject({ method: 'GET', url: '/login' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe(odd);
    } finally {
      await app.close();
      fs.rmSync(dist, { recursive: true, force: true });
    }
  });
});
