/**
 * `npm test`: the whole suite. Vitest (unit, HTTP and data-layer tests on PGlite, and on
 * PostgreSQL too when TEST_DATABASE_URL is set) and the Playwright browser tests against a
 * freshly built app in Debian's Chromium (/usr/bin/chromium). Exits non-zero on any failure.
 *
 * The two run side by side: the browser tests spend much of their time waiting on a page, which
 * leaves CPU that Vitest's workers use. Vitest's output streams; the browser tests' output is kept
 * and printed whole when they end (it would otherwise interleave line by line).
 * `PARLEY_TEST_SEQUENTIAL=1` runs them one after the other, each printing as it goes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildAll, isBuildFresh, root } from './build-lib.mjs';

const CHROMIUM = '/usr/bin/chromium';

/** Runs a command; its output goes to the terminal, or to `logFile` when one is given. Resolves to its exit code. */
function run(command, args, logFile) {
  return new Promise((resolve) => {
    const out = logFile ? fs.openSync(logFile, 'w') : 'inherit';
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', out, out], env: process.env });
    child.on('error', () => resolve(1));
    child.on('close', (code) => {
      if (typeof out === 'number') fs.closeSync(out);
      resolve(code ?? 1);
    });
  });
}

const engines = process.env.TEST_DATABASE_URL ? 'PGlite and PostgreSQL' : 'PGlite (set TEST_DATABASE_URL to add PostgreSQL)';
const browser = fs.existsSync(CHROMIUM);
if (!browser && process.env.REQUIRE_BROWSER) {
  console.error(`\n${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium).`);
  process.exit(1);
}
if (browser && !isBuildFresh()) {
  console.log('\n== Building the app for the browser tests');
  await buildAll();
}

const sequential = Boolean(process.env.PARLEY_TEST_SEQUENTIAL) || !browser;
let unit;
let e2e = 0;
if (sequential) {
  console.log(`\n== Vitest: unit, HTTP and data-layer tests on ${engines}\n`);
  unit = await run('npx', ['vitest', 'run']);
  if (browser) {
    console.log('\n== Playwright: browser tests in Debian Chromium\n');
    e2e = await run('npx', ['playwright', 'test']);
  }
} else {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-log-')), 'playwright.log');
  console.log(`\n== Vitest (unit, HTTP and data-layer tests on ${engines}) and Playwright (browser tests in Debian Chromium) side by side`);
  console.log(`   Playwright's output follows Vitest's; meanwhile it is written to ${log}\n`);
  const started = Date.now();
  const browserRun = run('npx', ['playwright', 'test'], log).then((code) => {
    console.log(`\n   (Playwright finished after ${Math.round((Date.now() - started) / 1000)} s)`);
    return code;
  });
  unit = await run('npx', ['vitest', 'run']);
  console.log('\n== Playwright: browser tests in Debian Chromium (waiting for them to finish)\n');
  e2e = await browserRun;
  process.stdout.write(fs.readFileSync(log, 'utf8'));
}
if (!browser) {
  console.warn(`\n!! Browser tests SKIPPED: ${CHROMIUM} is not installed (apt-get install -y chromium). CI always runs them.\n`);
}

console.log(`\n== Summary: vitest ${unit === 0 ? 'passed' : 'FAILED'}, playwright ${e2e === 0 ? (browser ? 'passed' : 'skipped') : 'FAILED'}`);
process.exit(unit !== 0 || e2e !== 0 ? 1 : 0);
