// ESLint (`npm run lint`, also a suite of `npm test`): the recommended rules for the web app, and the
// import boundaries that keep its layout as docs/ARCHITECTURE.md describes it:
//   web/src/app -> web/src/features/<name> -> shared (web/src/components, web/src/lib, @shared);
//   a feature never imports another feature (what several use moves down to components or lib, or
//   the route in app composes them); components and lib never import features or app;
//   neither the web app nor the function (supabase/functions) imports platform/ (the local mirror of
//   Supabase is not deployed); the function never imports the web app.
// Core no-restricted-imports is enough: one override per folder, the features' generated from the
// folder list. It checks static imports and re-exports (dynamic import() is not checked).
import fs from 'node:fs';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
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

export default defineConfig([
  globalIgnores(['**/node_modules/', '**/dist/', '.data/', '.cache/', 'test-results/']),

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
    files: ['web/public/**/*.js', 'web/theme-init.js', 'web/scorm-player/*.js'],
    languageOptions: { sourceType: 'script', globals: { window: 'readonly', document: 'readonly' } },
  },
  {
    // The SCORM player's launcher page, served on the content origin (issue 20).
    files: ['web/scorm-player/*.js'],
    languageOptions: { globals: { URL: 'readonly', URLSearchParams: 'readonly' } },
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
]);
