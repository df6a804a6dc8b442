/**
 * JavaScript the landing page `/` really loads: dist/web is served on loopback and `/` is opened
 * in Debian's Chromium; every script the page fetches until the network is idle is counted — the
 * entry, its static imports and the lazy route chunks the landing page needs. Without Chromium the
 * figure falls back to the static count (entry + static imports only) and says so. Sizes are gzip
 * level 9 (node:zlib), which is what a pre-compressing server or CDN ships; on-the-fly gzip at
 * level 6 is about 1–2 % larger.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import type { BenchContext, BenchGroup } from './lib/context';
import { spawnNode } from './lib/process';
import type { GroupReporter } from './lib/report';
import { kb } from './lib/stats';

const GOAL = { text: '≤ 100 KB gzip', max: 100 * 1024 };

interface Asset {
  file: string;
  raw: number;
  gzip: number;
}

function gzipSize(file: string): Asset {
  const content = fs.readFileSync(file);
  return { file, raw: content.length, gzip: gzipSync(content, { level: 9 }).length };
}

function attributes(tag: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const m of tag.matchAll(/([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/gu)) {
    attrs.set(m[1]!.toLowerCase(), m[2] ?? m[3] ?? m[4] ?? '');
  }
  return attrs;
}

/** Static imports of one ES module, resolved to files (esbuild parses; nothing is bundled). */
async function staticImports(file: string, fromRoot: (url: string) => string): Promise<string[]> {
  const result = await esbuild.build({
    entryPoints: [file],
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    logLevel: 'silent',
    plugins: [{ name: 'externalise', setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'entry-point' ? undefined : { path: a.path, external: true })) }],
  });
  const input = Object.values(result.metafile.inputs)[0];
  return (input?.imports ?? [])
    .filter((i) => i.kind === 'import-statement')
    .map((i) => i.path)
    .filter((p) => !/^[a-z]+:/u.test(p))
    .map((p) => (p.startsWith('/') ? fromRoot(p) : path.resolve(path.dirname(file), p)));
}

export interface InitialLoad {
  scripts: Asset[];
  styles: Asset[];
}

/** What `index.html` in `distDir` makes the browser fetch before first render. */
export async function initialLoad(distDir: string): Promise<InitialLoad> {
  const html = fs.readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const toFile = (url: string) => path.join(distDir, url.replace(/^\//u, '').split(/[?#]/u)[0]!);
  const pending: string[] = [];
  const styles: string[] = [];
  for (const m of html.matchAll(/<(script|link)\b([^>]*)>/giu)) {
    const attrs = attributes(m[2]!);
    if (m[1]!.toLowerCase() === 'script' && attrs.get('type') === 'module' && attrs.get('src')) pending.push(toFile(attrs.get('src')!));
    if (m[1]!.toLowerCase() === 'link') {
      const rel = attrs.get('rel');
      if (rel === 'modulepreload' && attrs.get('href')) pending.push(toFile(attrs.get('href')!));
      if (rel === 'stylesheet' && attrs.get('href')) styles.push(toFile(attrs.get('href')!));
    }
  }
  const seen = new Set<string>();
  try {
    while (pending.length) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      pending.push(...(await staticImports(file, toFile)));
    }
  } finally {
    await esbuild.stop(); // its service process would otherwise live until the bench exits
  }
  return { scripts: [...seen].sort().map(gzipSize), styles: styles.map(gzipSize) };
}

const CHROMIUM = '/usr/bin/chromium';

/** Serves `distDir` (index.html for any path without a file) and records nothing else. */
async function serveStatic(distDir: string): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.html': 'text/html', '.svg': 'image/svg+xml' };
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = path.join(distDir, pathname);
    if (!file.startsWith(distDir) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) file = path.join(distDir, 'index.html');
    res.setHeader('content-type', types[path.extname(file)] ?? 'application/octet-stream');
    fs.createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Every script Chromium fetches for `/` until the network is idle (API calls fail harmlessly). */
async function loadedInBrowser(distDir: string): Promise<Asset[]> {
  const site = await serveStatic(distDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  try {
    const page = await browser.newPage();
    const scripts = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === site.url && url.pathname.endsWith('.js')) scripts.add(path.join(distDir, url.pathname));
    });
    await page.goto(`${site.url}/`, { waitUntil: 'networkidle' });
    return [...scripts].sort().map(gzipSize);
  } finally {
    await browser.close();
    await site.close();
  }
}

const total = (assets: Asset[], key: 'raw' | 'gzip') => assets.reduce((sum, a) => sum + a[key], 0);

/** Baseline: a page that renders one heading with React + ReactDOM, built by the same Vite. */
async function reactBaseline(treeDir: string): Promise<number> {
  const dir = path.join(treeDir, 'bench-baseline-web');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/main.js"></script></body></html>',
  );
  fs.writeFileSync(
    path.join(dir, 'main.js'),
    "import { createElement } from 'react';\nimport { createRoot } from 'react-dom/client';\ncreateRoot(document.getElementById('root')).render(createElement('h1', null, 'Hello'));\n",
  );
  const child = spawnNode(
    [
      '--input-type=module',
      '-e',
      `import { build } from 'vite';
       await build({ root: ${JSON.stringify(dir)}, configFile: false, logLevel: 'silent', build: { outDir: ${JSON.stringify(path.join(dir, 'dist'))}, emptyOutDir: true } });`,
    ],
    { cwd: treeDir },
  );
  const code = await child.exited;
  if (code !== 0) throw new Error(`The React baseline did not build:\n${child.output().slice(-2000)}`);
  return total((await initialLoad(path.join(dir, 'dist'))).scripts, 'gzip');
}

export const bundle: BenchGroup = {
  id: 'bundle',
  title: 'JavaScript shipped for /',
  deterministic: true,
  method: [
    'Built with the project\'s `npm run build` (a copy of the working tree). Counted: every `.js` file Chromium fetches when it opens `/` (dist/web served on loopback) until the network is idle — entry, static imports and the lazy chunks of the landing route. Without Chromium: the entry and its static imports only (marked).',
    'Size: each file gzip-compressed with node:zlib at level 9, summed.',
    'Baseline: a one-heading React + ReactDOM page built by the same Vite in the same run — the floor any React landing page pays.',
  ],
  async run(ctx: BenchContext, report: GroupReporter) {
    const tree = await ctx.tree();
    const baselineBytes = await reactBaseline(tree.dir);
    const baseline = `React + ReactDOM alone ${kb(baselineBytes)}`;
    if (!tree.webBuilt) {
      report.row({ figure: 'JavaScript for / (gzip -9)', measured: 'web app does not build yet', goal: GOAL, baseline, verdict: 'skipped' });
      report.note(`The web build failed, so the bundle was not measured:\n${tree.webError ?? ''}`);
      return;
    }
    const distDir = path.join(tree.dir, 'dist/web');
    const load = await initialLoad(distDir);
    const inBrowser = fs.existsSync(CHROMIUM);
    if (inBrowser) load.scripts = await loadedInBrowser(distDir);
    const gz = total(load.scripts, 'gzip');
    report.row({
      figure: `JavaScript for / (${load.scripts.length} files ${inBrowser ? 'fetched in Chromium' : 'static imports only, no Chromium'}, gzip -9)`,
      measured: `${kb(gz)} (${kb(total(load.scripts, 'raw'))} raw)`,
      value: gz,
      goal: GOAL,
      baseline,
    });
    report.row({
      figure: `CSS for / (${load.styles.length} file${load.styles.length === 1 ? '' : 's'}, gzip -9)`,
      measured: `${kb(total(load.styles, 'gzip'))} (${kb(total(load.styles, 'raw'))} raw)`,
    });
    const largest = [...load.scripts].sort((a, b) => b.gzip - a.gzip);
    report.note(
      `Scripts loaded for /: ${largest.map((a) => `${path.basename(a.file)} ${kb(a.gzip)}`).join(', ')}.`,
    );
  },
};
