/**
 * `npm test`: the whole suite. Vitest (unit, HTTP and data-layer tests on PGlite, and on
 * PostgreSQL too when TEST_DATABASE_URL is set), then the Playwright browser tests against a
 * freshly built app in Debian's Chromium (/usr/bin/chromium). Exits non-zero on any failure.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { buildAll, isBuildFresh, root } from './build-lib.mjs';

const CHROMIUM = '/usr/bin/chromium';

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: process.env });
  return result.status ?? 1;
}

const engines = process.env.TEST_DATABASE_URL ? 'PGlite and PostgreSQL' : 'PGlite (set TEST_DATABASE_URL to add PostgreSQL)';
console.log(`\n== Vitest: unit, HTTP and data-layer tests on ${engines}\n`);
const unit = run('npx', ['vitest', 'run']);

let e2e = 0;
if (fs.existsSync(CHROMIUM)) {
  if (!isBuildFresh()) {
    console.log('\n== Building the app for the browser tests');
    await buildAll();
  }
  console.log('\n== Playwright: browser tests in Debian Chromium\n');
  e2e = run('npx', ['playwright', 'test']);
} else if (process.env.REQUIRE_BROWSER) {
  console.error(`\n${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium).`);
  e2e = 1;
} else {
  console.warn(`\n!! Browser tests SKIPPED: ${CHROMIUM} is not installed (apt-get install -y chromium). CI always runs them.\n`);
}

console.log(`\n== Summary: vitest ${unit === 0 ? 'passed' : 'FAILED'}, playwright ${e2e === 0 ? (fs.existsSync(CHROMIUM) ? 'passed' : 'skipped') : 'FAILED'}`);
process.exit(unit !== 0 || e2e !== 0 ? 1 : 0);
