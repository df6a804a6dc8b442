/**
 * Building Parley: the web app with Vite into dist/web, the server and CLI with esbuild into
 * dist/server. A fingerprint of the sources (paths, sizes, modification times) is stored in
 * dist/.build-stamp so `npm start` rebuilds only when something changed.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'dist', '.build-stamp');
const SOURCE_DIRS = ['server', 'common', 'web'];
const SOURCE_FILES = ['package.json', 'package-lock.json', 'tsconfig.base.json'];
const SKIP = new Set(['node_modules', 'dist', '.vite']);

function walk(dir, out) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (SKIP.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else if (!/\.test\.tsx?$/u.test(entry.name)) out.push(full);
  }
}

export function sourceFingerprint() {
  const files = [];
  for (const dir of SOURCE_DIRS) walk(path.join(root, dir), files);
  for (const file of SOURCE_FILES) files.push(path.join(root, file));
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    try {
      const stat = fs.statSync(file);
      hash.update(`${path.relative(root, file)}:${stat.size}:${stat.mtimeMs}\n`);
    } catch {
      // vanished while walking
    }
  }
  return hash.digest('hex');
}

export function isBuildFresh() {
  try {
    return (
      fs.readFileSync(stampFile, 'utf8') === sourceFingerprint() &&
      fs.existsSync(path.join(root, 'dist/server/main.js')) &&
      fs.existsSync(path.join(root, 'dist/server/embedded-training.worker.js')) &&
      fs.existsSync(path.join(root, 'dist/web/index.html')) &&
      fs.existsSync(path.join(root, 'dist/web/widget.js')) &&
      fs.existsSync(path.join(root, 'dist/ssr/render.js'))
    );
  } catch {
    return false;
  }
}

export async function buildServer() {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: {
      main: path.join(root, 'server/main.ts'),
      cli: path.join(root, 'server/cli/main.ts'),
      // The agents' training runs in a worker thread, loaded from beside main.js (embedded-trainer.ts).
      'embedded-training.worker': path.join(root, 'server/modules/agents/embedded-training.worker.ts'),
    },
    outdir: path.join(root, 'dist/server'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    // Some dependencies still use require(); give ESM bundles one.
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
}

export async function buildWeb() {
  const vite = await import('vite');
  await vite.build({ configFile: path.join(root, 'web/vite.config.ts'), logLevel: 'warn' });
  // The chat widget goes into the same dist/web, after the app's build has emptied it.
  await vite.build({ configFile: path.join(root, 'web/widget/vite.config.ts'), logLevel: 'warn' });
  await buildSiteRenderer(vite);
}

/** The public site's server renderer (web/src/app/site/render.tsx) as dist/ssr/render.js. */
export async function buildSiteRenderer(vite) {
  await vite.build({
    configFile: path.join(root, 'web/vite.config.ts'),
    logLevel: 'warn',
    build: {
      ssr: path.join(root, 'web/src/app/site/render.tsx'),
      outDir: path.join(root, 'dist/ssr'),
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      sourcemap: true,
    },
  });
}

const COMPRESSIBLE = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt', '.xml', '.webmanifest']);

/**
 * Brotli and gzip copies beside every compressible file of dist/web of at least 1 KB
 * (`app-….js.br`, `app-….js.gz`): the server sends them to browsers that accept them
 * (@fastify/static `preCompressed`), compressed once at the best levels instead of on every request.
 */
export async function precompress(dir) {
  const zlib = await import('node:zlib');
  const files = [];
  walk(dir, files);
  for (const file of files) {
    if (!COMPRESSIBLE.has(path.extname(file)) || file.includes(`${path.sep}.vite${path.sep}`)) continue;
    const content = fs.readFileSync(file);
    if (content.length < 1024) continue;
    fs.writeFileSync(`${file}.br`, zlib.brotliCompressSync(content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(content, { level: 9 }));
  }
}

export async function buildAll() {
  const fingerprint = sourceFingerprint();
  const started = performance.now();
  await Promise.all([buildWeb(), buildServer()]);
  await precompress(path.join(root, 'dist/web'));
  fs.mkdirSync(path.dirname(stampFile), { recursive: true });
  fs.writeFileSync(stampFile, fingerprint);
  return Math.round(performance.now() - started);
}
