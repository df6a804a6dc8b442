/**
 * Zod 4 builds object parsers with `new Function` when it can, and probes for that when a schema
 * is created; the CSP (`script-src 'self'`, no 'unsafe-eval') refuses it and reports a violation.
 * Its `jitless` setting turns both off, but it must be in place before the first schema module
 * (common/api/*) is evaluated, in whichever lazy chunk that happens. Zod keeps its settings on
 * `globalThis.__zod_globalConfig` (so that copies of zod share them), which lets main.tsx set it
 * before any chunk loads without shipping zod on the landing page. The browser tests guard this: every
 * test fails on a CSP violation (e2e/support/fixtures.ts), and e2e/narrow-screens.spec.ts visits
 * every page.
 */
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

export function configureZod(): void {
  globalThis.__zod_globalConfig = { ...globalThis.__zod_globalConfig, jitless: true };
}
