/**
 * `npm test`: the whole suite. The app is built first when the sources changed (a few seconds):
 * the tests that start a Parley server or run its command line use the build (test/helpers/processes.ts
 * `parleyEntry`), and the browser tests need it. Then Vitest (unit, HTTP and data-layer tests on
 * PGlite, and on PostgreSQL too when TEST_DATABASE_URL is set), then the Playwright browser tests
 * in Debian's Chromium (/usr/bin/chromium). Exits non-zero on any failure.
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
if (!isBuildFresh()) {
  console.log('\n== Building the app (the browser tests and the tests that start a server use it)');
  await buildAll();
}
console.log(`\n== Vitest: unit, HTTP and data-layer tests on ${engines}\n`);
const unit = run('npx', ['vitest', 'run']);

let e2e = 0;
if (fs.existsSync(CHROMIUM)) {
  if (!isBuildFresh()) {
    // Sources edited while Vitest ran.
    console.log('\n== Building the app again for the browser tests');
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
