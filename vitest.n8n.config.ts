/**
 * `npm run test:n8n`: the tests against a real n8n (test/n8n/*.n8n.test.ts). The first run installs
 * n8n into a cache outside the repository (scripts/n8n.mjs: minutes, ~1.8 GB); later runs reuse it.
 * Kept out of the default run (vitest.config.ts excludes test/n8n).
 */
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@common': path.resolve(import.meta.dirname, 'common'),
    },
  },
  test: {
    include: ['test/n8n/**/*.n8n.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 120_000,
    // The first run installs n8n (minutes); a start takes 10–40 s.
    hookTimeout: 900_000,
    reporters: ['default'],
  },
});
