/**
 * The tree the process-level figures run against: a copy of the working tree's sources in a
 * temporary directory (node_modules linked, not copied), built there with the project's own
 * `scripts/build.mjs`. Other engineers edit and build in /work/main while the bench runs; the
 * copy keeps their edits from triggering a rebuild inside a timed `npm start`, and keeps the bench
 * from overwriting their dist/.
 *
 * When the web app does not build (work in progress), the server is still built, dist/web gets a
 * one-line placeholder index.html so `/` can answer 200, and the build stamp is written so
 * `scripts/start.mjs` does not try to rebuild: the server figures stay measurable and the output
 * says the web figures are missing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnNode } from './process';
import { tempDir } from './tmp';

const COPY = ['scripts', 'server', 'common', 'web', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.base.json', '.gitignore'];
const SKIP = new Set(['node_modules', 'dist', '.vite', '.tmp']);

export interface BuiltTree {
  dir: string;
  /** Wall time of the build (both halves, in parallel as `npm run build` does). */
  buildMs: number;
  webBuilt: boolean;
  /** The first lines of the web build's error when it failed. */
  webError?: string;
  remove(): void;
}

async function runNode(cwd: string, args: string[]): Promise<{ code: number | string; output: string }> {
  const child = spawnNode(args, { cwd });
  const code = await child.exited;
  return { code, output: child.output() };
}

export async function prepareTree(repoRoot: string): Promise<BuiltTree> {
  const dir = tempDir('tree');
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    for (const entry of COPY) {
      const from = path.join(repoRoot, entry);
      if (!fs.existsSync(from)) continue;
      fs.cpSync(from, path.join(dir, entry), {
        recursive: true,
        filter: (source) => !SKIP.has(path.basename(source)),
      });
    }
    fs.symlinkSync(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');

    const started = performance.now();
    const full = await runNode(dir, ['scripts/build.mjs']);
    const buildMs = performance.now() - started;
    if (full.code === 0) return { dir, buildMs, webBuilt: true, remove };

    // Find out which half failed: build the server alone, then stand in for the web app.
    const fallback = await runNode(dir, [
      '--input-type=module',
      '-e',
      `import fs from 'node:fs';
       import { buildServer, isBuildFresh, sourceFingerprint } from './scripts/build-lib.mjs';
       await buildServer();
       fs.mkdirSync('dist/web', { recursive: true });
       fs.writeFileSync('dist/web/index.html', '<!doctype html><title>Parley</title><p>web build failed; bench placeholder</p>');
       fs.writeFileSync('dist/.build-stamp', sourceFingerprint());
       if (!isBuildFresh()) throw new Error('the build stamp format changed; update bench/lib/tree.ts');`,
    ]);
    if (fallback.code !== 0) {
      throw new Error(`The server does not build:\n${fallback.output.slice(-3000)}\n(full build output:\n${full.output.slice(-3000)})`);
    }
    const webError = full.output
      .split('\n')
      .filter((line) => line.trim() !== '')
      .slice(0, 6)
      .join('\n');
    return { dir, buildMs, webBuilt: false, webError, remove };
  } catch (error) {
    remove();
    throw error;
  }
}
