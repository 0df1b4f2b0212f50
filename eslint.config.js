// ESLint (`npm run lint`, also a suite of `npm test`) over the whole repository: the recommended rules
// (and React's hooks rules for web/src), no import cycle anywhere, and the import boundaries that keep
// the layout as docs/ARCHITECTURE.md describes it:
//   web/src/app -> web/src/features/<name> -> shared (web/src/components, web/src/lib, @shared);
//   a feature never imports another feature (what several use moves down to components or lib, or
//   the route in app composes them); components and lib never import features or app;
//   neither the web app nor the function (supabase/functions) imports platform/ (the local mirror of
//   Supabase is not deployed); the function never imports the web app.
// Core no-restricted-imports is enough: one override per folder, the features' generated from the
// folder list. It checks static imports and re-exports (dynamic import() is not checked).
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

const features = fs
  .readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

const notPlatform = {
  regex: '^(\\.{1,2}/)+(.*/)?platform(/|$)',
  message: 'platform/ is the local mirror of Supabase, not part of what is deployed: the web app and the function never import it.',
};

/** The rule with these patterns and the one every file has (a later override replaces, not adds). */
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [notPlatform, ...patterns] }] });

const sharedRule = restrict({
  regex: '^(@/|(\\.{1,2}/)+)(features|app)(/|$)',
  message: 'Shared code (web/src/components, web/src/lib) never imports a feature or the app: pass what it needs in (props, arguments).',
});

const featureRule = (name) =>
  restrict(
    {
      regex: `^@/features/(?!${name}/)`,
      message: `A feature never imports another feature: move what both use to web/src/components or web/src/lib, or let the route in web/src/app compose them.`,
    },
    { regex: '^@/app(/|$)', message: 'A feature never imports the app (app -> features -> shared); a test of the route table lives in web/src/app.' },
    { regex: '^(\\.\\./){2,}', message: 'Outside its own folder a feature imports through the @/ alias (web/src/...), never ../../.' },
  );

// Node's own globals (the scripts, the platform and the tests run on Node): read from the Node that
// runs ESLint, so the list needs no package and follows the Node version.
const nodeGlobals = Object.fromEntries(
  Object.getOwnPropertyNames(globalThis).filter((name) => /^[A-Za-z_$][\w$]*$/.test(name)).map((name) => [name, 'readonly']),
);

export default defineConfig([
  globalIgnores(['**/node_modules/', '**/dist/', 'web/dist-render/', '.data/', '.cache/', 'test-results/']),

  // No import cycle, in any folder: a cycle makes the order modules initialise in matter and ties two
  // files into one. Imports resolve as Vite and Deno resolve them (the `@/` and `@shared/` aliases,
  // `.ts` extensions); packages are not followed (ignoreExternal), which keeps the check fast.
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.mjs', '.js'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'],
          alias: {
            '@shared': [fileURLToPath(new URL('./supabase/functions/_shared', import.meta.url))],
            '@': [fileURLToPath(new URL('./web/src', import.meta.url))],
          },
        }),
      ],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },

  // The web app: recommended rules, and the boundaries of each layer.
  {
    files: ['web/**/*.{ts,tsx,js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      ...restrict(),
      // `_name` marks a value left out on purpose (a rest sibling, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Every query key comes from its factory in web/src/lib/query-keys.ts, so one URL is cached under
    // one key and a write invalidates what it changed; an array written where a key is used is not.
    files: ['web/src/**/*.{ts,tsx}'],
    ignores: ['web/src/lib/query-keys.ts'],
    rules: {
      'no-restricted-syntax': ['error', ...[
        "Property[key.name='queryKey'] > ArrayExpression",
        "Property[key.name='queryKey'] > TSAsExpression > ArrayExpression",
        "CallExpression[callee.property.name=/^(getQueryData|setQueryData|getQueryState|setQueriesData)$/] > ArrayExpression.arguments:first-child",
      ].map((selector) => ({ selector, message: 'A query key comes from its factory in web/src/lib/query-keys.ts, never an array written here.' }))],
    },
  },
  // Every word a person reads comes from the message catalogues (web/src/locales, docs/welsh-glossary.md):
  // no text written in JSX, nor in the attributes people read or hear (labels, titles, placeholders,
  // alternative text, messages), so nothing new slips in in English only. Tests may write text.
  {
    files: ['web/src/**/*.tsx'],
    ignores: ['web/src/**/*.test.tsx', 'web/src/test/**'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': ['error', {
        mode: 'jsx-only',
        'should-validate-template': true,
        'jsx-attributes': {
          include: ['^(aria-label|aria-description|aria-valuetext|alt|title|label|placeholder|description|error|message|tooltip|[a-z]+(Label|Text|Title|Message|Description))$'],
        },
        // Calls whose strings are keys, not text.
        callees: { exclude: ['i18n(ext)?', 't', 'labelOf', 'getInputProps', 'key', 'translateMessage', 'require', 'includes', 'indexOf', 'startsWith', 'endsWith', 'getElementById', 'querySelector', 'addEventListener', 'removeEventListener'] },
        // Punctuation, symbols and numbers written between translated words are not words.
        words: { exclude: ['^[\\s\\d!-/:-@[-`{-~ ·–—•…×→←©]+$'] },
      }],
    },
  },
  // React's rules of hooks, and the rules of its compiler that catch effects and renders that misbehave.
  { files: ['web/src/**/*.{ts,tsx}'], extends: [reactHooks.configs.flat.recommended] },
  {
    files: ['web/public/**/*.js', 'web/theme-init.js', 'web/scorm-player/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly', navigator: 'readonly' } },
  },
  {
    // The SCORM player's launcher page, served on the content origin.
    files: ['web/scorm-player/*.js'],
    languageOptions: { globals: { URL: 'readonly', URLSearchParams: 'readonly' } },
  },
  {
    // Its offline page and service worker: Cache Storage and WebCrypto.
    files: ['web/scorm-player/offline.js', 'web/scorm-player/offline-sw.js'],
    languageOptions: { globals: { self: 'readonly', caches: 'readonly', crypto: 'readonly', fetch: 'readonly', Response: 'readonly', TextEncoder: 'readonly', atob: 'readonly', console: 'readonly' } },
  },
  {
    files: ['web/*.{ts,mjs}'],
    languageOptions: { globals: { process: 'readonly', URL: 'readonly', Buffer: 'readonly', console: 'readonly' } },
  },
  { files: ['web/src/components/**', 'web/src/lib/**'], rules: sharedRule },
  ...features.map((name) => ({ files: [`web/src/features/${name}/**`], rules: featureRule(name) })),

  // The function (Deno): only the boundaries; its own checks are `deno check` and its tests.
  {
    files: ['supabase/functions/**/*.ts'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 2023, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: restrict(
      { regex: '^(\\.{1,2}/)+(.*/)?web(/|$)', message: 'The function never imports the web app; what both use lives in supabase/functions/_shared.' },
      { regex: '^@/', message: 'The function never imports the web app (@/ is the web app\'s alias).' },
    ),
  },

  // What a hosted deployment runs besides Supabase (deploy/): the content host runs on Deno.
  {
    files: ['deploy/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...nodeGlobals, Deno: 'readonly' } },
    rules: restrict(),
  },

  // What runs on Node (the local platform, the scripts, the database and browser tests, the config
  // files): the recommended rules and Node's globals.
  {
    files: ['platform/**/*.{ts,mjs,js}', 'scripts/**/*.{ts,mjs,js}', 'e2e/**/*.ts', 'supabase/tests/**/*.ts', '*.{ts,js,mjs}'],
    extends: [js.configs.recommended, tseslint.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
]);
