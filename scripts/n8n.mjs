/**
 * The real n8n the `npm run test:n8n` tests start, installed ONCE into a cache folder outside
 * the repository (never a dependency of Parley):
 *
 *   ${PARLEY_N8N_CACHE:-${XDG_CACHE_HOME:-~/.cache}/parley-n8n}/<version>/node_modules/.bin/n8n
 *
 * `node scripts/n8n.mjs install` installs it when missing (about 3 minutes, ~1.8 GB) and prints
 * the binary's path; `node scripts/n8n.mjs path` prints where it is (or would be). Installs are
 * made in a staging folder and renamed into place when complete, under a lock folder, so two
 * processes never install at once and nobody sees a half-installed tree. Two overrides are needed
 * on Node 20 (see the shared n8n notes): `xlsx` (n8n pins a tarball on a host that may be
 * unreachable) and `isolated-vm@5` (6.x does not compile against Node 20's V8 headers).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const N8N_VERSION = '1.123.81';
const LOCK_STALE_MS = 30 * 60_000;

export function n8nCacheRoot() {
  if (process.env.PARLEY_N8N_CACHE) return process.env.PARLEY_N8N_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'parley-n8n');
}

export function n8nInstallDir(version = N8N_VERSION) {
  return path.join(n8nCacheRoot(), version);
}

export function n8nBinary(version = N8N_VERSION) {
  return path.join(n8nInstallDir(version), 'node_modules', '.bin', 'n8n');
}

/** Installed = the marker written after a complete install is there, and so is the binary. */
export function isN8nInstalled(version = N8N_VERSION) {
  const dir = n8nInstallDir(version);
  return fs.existsSync(path.join(dir, '.installed')) && fs.existsSync(n8nBinary(version));
}

function packageJson(version) {
  return {
    private: true,
    name: 'parley-n8n-cache',
    description: `n8n ${version} for Parley's real-n8n tests (scripts/n8n.mjs)`,
    dependencies: { n8n: version },
    overrides: { xlsx: '0.18.5', 'isolated-vm': '5.0.4' },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** mkdir is atomic: the lock is a folder holding the owner's pid; a dead owner's or an old lock is taken over. */
async function withLock(lockDir, log, fn) {
  for (let waited = 0; ; waited += 2000) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      let stale = false;
      try {
        const pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
        const age = Date.now() - fs.statSync(lockDir).mtimeMs;
        stale = age > LOCK_STALE_MS || (pid > 0 && !isAlive(pid));
      } catch {
        // the pid file is not written yet: the owner is between mkdir and write
        stale = Date.now() - safeMtime(lockDir) > 60_000;
      }
      if (stale) {
        log(`n8n: removing a stale install lock ${lockDir}`);
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (waited % 30_000 === 0) log('n8n: another process is installing n8n; waiting for it');
      await sleep(2000);
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

function safeMtime(file) {
  try {
    return fs.statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

function run(command, args, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, options);
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code})`))));
  });
}

/** The install itself: npm, in the staging folder holding the package.json with the overrides. */
function npmInstall(staging) {
  return run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: staging, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Installs n8n when missing; returns the binary's path. `install` replaces npm (tests). */
export async function ensureN8n({ version = N8N_VERSION, log = (line) => console.error(line), install = npmInstall } = {}) {
  if (isN8nInstalled(version)) return n8nBinary(version);
  const root = n8nCacheRoot();
  fs.mkdirSync(root, { recursive: true });
  return withLock(path.join(root, `${version}.lock`), log, async () => {
    if (isN8nInstalled(version)) return n8nBinary(version); // installed by the process we waited for
    const finalDir = n8nInstallDir(version);
    const staging = path.join(root, `${version}.staging-${process.pid}`);
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, 'package.json'), `${JSON.stringify(packageJson(version), null, 2)}\n`);
    log(`n8n: installing n8n@${version} into ${finalDir} (about 3 minutes, ~1.8 GB; once)`);
    const started = Date.now();
    try {
      await install(staging);
    } catch (error) {
      fs.rmSync(staging, { recursive: true, force: true });
      throw error;
    }
    fs.writeFileSync(path.join(staging, '.installed'), `${new Date().toISOString()}\n`);
    fs.rmSync(finalDir, { recursive: true, force: true });
    fs.renameSync(staging, finalDir);
    log(`n8n: installed in ${Math.round((Date.now() - started) / 1000)} s`);
    return n8nBinary(version);
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? 'install';
  if (command === 'path') {
    console.log(n8nBinary());
  } else if (command === 'install') {
    try {
      console.log(await ensureN8n());
    } catch (error) {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    }
  } else {
    console.error('usage: node scripts/n8n.mjs [install|path]');
    process.exit(2);
  }
}
