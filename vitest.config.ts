import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      '@': path.resolve(import.meta.dirname, 'web/src'),
      '@common': path.resolve(import.meta.dirname, 'common'),
    },
  },
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000,
    reporters: ['default'],
    projects: [
      {
        // The root's test options (pool, workers, time limits, reporters) apply here too.
        extends: true,
        test: {
          name: 'server',
          include: ['server/**/*.test.ts', 'bench/**/*.test.ts', 'eval/**/*.test.ts', 'common/**/*.test.ts', 'scripts/**/*.test.ts', 'test/**/*.test.ts'],
          // Against a real n8n: `npm run test:n8n` (vitest.n8n.config.ts).
          exclude: [...configDefaults.exclude, 'test/n8n/**'],
          globalSetup: ['test/global-setup.ts'],
          // One module graph per worker, not per file: importing the server's graph again for each
          // of ~190 files cost about a third of the suite's time (3–4 s a file on 2 cores). Every
          // file builds its own app and database, mocks no module and restores what it changes in
          // the environment, so files do not depend on each other's module state.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'web',
          include: ['web/src/**/*.test.{ts,tsx}'],
          // Some of these mock modules (vi.mock): each file keeps its own module graph.
          isolate: true,
        },
      },
    ],
  },
});
