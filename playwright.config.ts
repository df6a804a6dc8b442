/**
 * Browser tests (Playwright) in Debian's Chromium against the built app: `npm run build` first
 * (`npm test` does it), then `npx playwright test`. The server starts on port 4173 with a fresh
 * embedded database in a temporary directory; e-mails go to the outbox (/admin/outbox).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { E2E_GOOGLE_ENV } from './e2e/support/google';

// E2E_PORT lets two checkouts run their browser tests side by side.
const PORT = Number(process.env.E2E_PORT ?? 4173);
const BASE_URL = `http://localhost:${PORT}`;

// Evaluated in the runner and again in each worker: create the data directory once and let the
// workers inherit it through the environment.
process.env.PARLEY_E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'parley-e2e-'));

export default defineConfig({
  testDir: 'e2e',
  // The OpenID Connect provider that plays Google (port 4790), for e2e/google-sign-in.spec.ts.
  globalSetup: './e2e/support/oidc-global-setup.ts',
  // Two cores: one worker keeps the server responsive and the lockout counters predictable.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list'], ['html', { open: 'never' }]] : [['list']],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: {
    command: 'node dist/server/main.js',
    url: `${BASE_URL}/api/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: process.env.PARLEY_E2E_DATA_DIR,
      ADMIN_EMAIL: 'admin@parley.test',
      ADMIN_PASSWORD: 'Adm1n!Passw0rd#',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // Every test signs in from 127.0.0.1; the per-IP limit is tested over HTTP, not here.
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      // e2e/automations.spec.ts runs a workflow on a loopback receiver.
      OUTBOUND_ALLOWED_HOSTS: '127.0.0.1',
      ...E2E_GOOGLE_ENV,
    },
  },
});
