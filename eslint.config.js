// Type-aware lint that matters (STYLE.md): no floating promises, exhaustive switches, no `any`.
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', '.tmp/**', 'coverage/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/only-throw-error': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.test.ts', '**/*.test.tsx', 'test/**', 'e2e/**', 'bench/**'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  boundariesConfig(),
);

/**
 * Architecture boundaries (issue 11; docs/ARCHITECTURE.md), checked by eslint-plugin-boundaries.
 * Each file is classified as one element (first matching pattern, full path from the repo root);
 * `boundaries/dependencies` then decides, policy by policy (the last matching policy wins), which
 * imports between elements are allowed. Imports inside one element (a module's own files, a
 * feature's own files) are not checked. Files outside every element (test/, bench/, eval/, e2e/,
 * scripts/, config files) are not checked either. Each policy's message starts with a [tag]
 * naming the rule that fired; test/lint/boundaries.test.ts relies on these tags.
 */
function boundariesConfig() {
  return {
    // All TypeScript files, so the test can lint its fixture tree; `boundaries/include` (relative to the root
    // path) limits the checks to server/, web/ and common/.
    files: ['**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/root-path': import.meta.dirname,
      'boundaries/include': ['server/**', 'web/**', 'common/**'],
      'boundaries/legacy-templates': false,
      'boundaries/elements': [
        { type: 'common', pattern: 'common', partialMatch: false },
        { type: 'server-infra', pattern: 'server/(http|db|jobs|lib|events|config)', capture: ['layer'], partialMatch: false },
        { type: 'server-module', pattern: 'server/modules/*', capture: ['module'], partialMatch: false },
        // The rest of server/ (app.ts, services.ts, main.ts, config.ts, cli/) composes the server: it may import
        // anything on it. A catch-all, so it must stay after the server patterns above.
        { type: 'server-composition', pattern: 'server', partialMatch: false },
        { type: 'web-feature', pattern: 'web/src/features/*', capture: ['feature'], partialMatch: false },
        { type: 'web-shared', pattern: 'web/src/(components|lib|hooks|config)', capture: ['folder'], partialMatch: false },
        // The rest of web/src (app/, main.tsx) composes the web app and may import features. A catch-all, so it
        // must stay after the web/src patterns above.
        { type: 'web-app', pattern: 'web/src', partialMatch: false },
        { type: 'widget', pattern: 'web/widget', partialMatch: false },
      ],
      'boundaries/files': [{ category: 'test', pattern: '**/*.test.{ts,tsx}' }],
      'import/resolver': {
        typescript: {
          project: ['tsconfig.json', 'web/tsconfig.json', 'web/widget/tsconfig.json'].map((p) => `${import.meta.dirname}/${p}`),
          noWarnOnMultipleProjects: true,
        },
      },
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          message: '[boundaries] {{from.type}} may not import {{to.type}} ({{to.filePath}}); see docs/ARCHITECTURE.md',
          policies: [
            {
              from: { element: { type: 'common' } },
              allow: { to: { element: { type: 'common' } } },
            },
            {
              from: { element: { type: 'server-infra' } },
              allow: { to: { element: { types: { anyOf: ['server-infra', 'common'] } } } },
            },
            {
              from: { element: { type: 'server-infra' } },
              disallow: { to: { element: { type: 'server-module' } } },
              message:
                '[infra-imports-module] server/{{from.captured.layer}} is infrastructure and may not import the {{to.captured.module}} module; have the module register with it, or pass what it needs in from app.ts',
            },
            {
              from: { element: { type: 'server-module' } },
              allow: { to: { element: { types: { anyOf: ['server-infra', 'common'] } } } },
            },
            {
              from: { element: { type: 'server-module' } },
              allow: { to: { element: { type: 'server-module', fileInternalPath: 'index.ts' } } },
            },
            {
              from: { element: { type: 'server-module' } },
              disallow: { to: { element: { type: 'server-module', fileInternalPath: '!index.ts' } } },
              message:
                '[module-entry] the {{from.captured.module}} module may import the {{to.captured.module}} module only through its public index.ts (not {{to.internalPath}}); modules talk through their public index.ts, so export it there or pass the service in from app.ts',
            },
            {
              from: { element: { types: { anyOf: ['server-infra', 'server-module'] } } },
              disallow: { to: { element: { type: 'server-composition' } } },
              message:
                '[imports-composition] server/{{to.internalPath}} composes the server (app.ts, services.ts, main.ts, config.ts, cli/) and may not be imported by {{from.elementPath}}; take what it provides as a parameter passed in from app.ts',
            },
            {
              from: { element: { type: 'server-composition' } },
              allow: { to: { element: { types: { anyOf: ['server-*', 'common'] } } } },
            },
            {
              from: { element: { type: 'web-feature' } },
              allow: { to: { element: { types: { anyOf: ['web-shared', 'common'] } } } },
            },
            {
              from: { element: { type: 'web-feature' } },
              disallow: { to: { element: { type: 'web-feature' } } },
              message:
                '[feature-imports-feature] the {{from.captured.feature}} feature may not import the {{to.captured.feature}} feature; move what both need to web/src/components, lib or hooks, or compose them in web/src/app',
            },
            {
              from: { element: { type: 'web-shared' } },
              allow: { to: { element: { types: { anyOf: ['web-shared', 'common'] } } } },
            },
            {
              from: { element: { type: 'web-shared' } },
              disallow: { to: { element: { type: 'web-feature' } } },
              message:
                '[shared-imports-feature] web/src/{{from.captured.folder}} is shared and may not import the {{to.captured.feature}} feature; move the code into the shared folder, or pass it in as a prop from the feature',
            },
            {
              from: { element: { type: 'web-app' } },
              allow: { to: { element: { types: { anyOf: ['web-*', 'common'] } } } },
            },
            {
              from: { element: { type: 'widget' } },
              allow: { to: { element: { type: 'common' } } },
            },
            // Tests compose the app: a server test may import any server file (modules included).
            {
              from: { element: { type: 'server-*' }, file: { categories: 'test' } },
              allow: { to: { element: { types: { anyOf: ['server-*', 'common'] } } } },
            },
            // Last, so no policy above (tests included) can allow them.
            {
              from: { element: { type: 'common' } },
              disallow: { to: { element: { type: '!common' } } },
              message:
                '[common-imports-app] common/ is shared by the server and the web and may import only common/, not {{to.type}} ({{to.elementPath}}); move the code into common/',
            },
            {
              from: { element: { type: 'server-*' } },
              disallow: { to: { element: { types: { anyOf: ['web-*', 'widget'] } } } },
              message: '[server-imports-web] the server may not import the web app ({{to.elementPath}}); share it through common/',
            },
            {
              from: { element: { types: { anyOf: ['web-*', 'widget'] } } },
              disallow: { to: { element: { type: 'server-*' } } },
              message: '[web-imports-server] the web app may not import the server ({{to.elementPath}}); share it through common/',
            },
          ],
        },
      ],
    },
  };
}
