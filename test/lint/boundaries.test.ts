// The architecture boundaries in eslint.config.js (issue 11): a fixture breaks each rule and each must be
// reported under its own [tag]; allowed imports must not be reported. The project's real config is used,
// with its root moved to test/lint/boundaries-fixture (a tree shaped like the repository, holding only the
// import targets) and only the boundaries rules run, without type information, to keep the test fast.
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const fixtureRoot = path.join(import.meta.dirname, 'boundaries-fixture');

const eslint = new ESLint({
  cwd: repoRoot,
  overrideConfig: [
    tseslint.configs.disableTypeChecked,
    { settings: { 'boundaries/root-path': fixtureRoot } },
  ] as Linter.Config[],
  ruleFilter: ({ ruleId }) => ruleId.startsWith('boundaries/'),
});

/** Lints `code` as if it were the file `file` (relative to the fixture root); returns the boundaries messages. */
async function boundaryMessages(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(fixtureRoot, file) });
  if (!result) throw new Error(`no lint result for ${file}`);
  const fatal = result.messages.filter((m) => m.fatal);
  expect(fatal, `${file} did not parse`).toEqual([]);
  return result.messages.filter((m) => m.ruleId === 'boundaries/dependencies').map((m) => m.message);
}

/** The [tag] each policy message starts with: it names the rule that fired. */
function tags(messages: string[]): string[] {
  return messages.map((m) => /^\[([a-z-]+)\]/.exec(m)?.[1] ?? `untagged: ${m}`);
}

/** A file that imports each of `specifiers` and uses what it imports. */
function importing(...specifiers: string[]): string {
  const imports = specifiers.map((s, i) => `import * as target${i} from '${s}';`);
  return [...imports, `export const used = [${specifiers.map((_s, i) => `target${i}`).join(', ')}];`].join('\n');
}

describe('architecture boundaries (eslint-plugin-boundaries)', () => {
  it.each([
    ['common/bad.ts', '../server/lib/util', 'common-imports-app'],
    ['common/bad.ts', '../web/src/components/button', 'common-imports-app'],
    // Tests are exempt from the module rules, not from the common one.
    ['common/bad.test.ts', '../server/lib/util', 'common-imports-app'],
    ['server/http/bad.ts', '../modules/alpha/index', 'infra-imports-module'],
    ['server/jobs/bad.ts', '../modules/alpha', 'infra-imports-module'],
    ['server/modules/beta/bad.ts', '../alpha/internal', 'module-entry'],
    ['server/modules/beta/bad.ts', '../../config', 'imports-composition'],
    ['server/lib/bad.ts', '../config', 'imports-composition'],
    ['web/src/features/two/bad.ts', '../one/thing', 'feature-imports-feature'],
    ['web/src/components/bad.ts', '../features/one/thing', 'shared-imports-feature'],
    ['web/src/hooks/bad.ts', '../features/one/thing', 'shared-imports-feature'],
    ['server/lib/bad.ts', '../../web/src/components/button', 'server-imports-web'],
    // Server tests may import any server file, never the web.
    ['server/modules/beta/bad.test.ts', '../../../web/src/components/button', 'server-imports-web'],
    ['web/src/components/bad.ts', '../../../server/lib/util', 'web-imports-server'],
  ])('%s importing %s is reported as [%s]', async (file, specifier, tag) => {
    expect(tags(await boundaryMessages(file, importing(specifier)))).toEqual([tag]);
  });

  it('re-exports and dynamic imports are checked too', async () => {
    const code = "export { alphaInternal } from '../alpha/internal';\nexport const later = () => import('../alpha/internal');";
    expect(tags(await boundaryMessages('server/modules/beta/index.ts', code))).toEqual(['module-entry', 'module-entry']);
  });

  it.each([
    // A module may use another module through its index.ts, server infrastructure and common.
    ['server/modules/beta/good.ts', ['../alpha/index', '../alpha', '../../lib/util', '../../../common/shared']],
    // A module's test may import another module's files: tests compose the app.
    ['server/modules/beta/good.test.ts', ['../alpha/internal', '../../config']],
    // The composition root (server/*.ts, server/cli) may import any server file.
    ['server/app.ts', ['./modules/alpha/internal', './lib/util']],
    ['server/cli/good.ts', ['../modules/alpha/internal']],
    // A feature may use the shared web folders and common.
    ['web/src/features/two/good.ts', ['../../components/button', '../../../../common/shared']],
    // The web app shell composes features.
    ['web/src/app/good.ts', ['../features/one/thing', '../components/button']],
    ['common/good.ts', ['./shared']],
  ])('%s importing %j is allowed', async (file, specifiers) => {
    expect(await boundaryMessages(file, importing(...specifiers))).toEqual([]);
  });
});
