// Lint: typescript-eslint's recommended rules, and the layer rules of ARCHITECTURE.md as import
// restrictions (see `layers` below). Folder cycles are checked by scripts/check-folder-cycles.mjs, which
// `npm run lint` runs after ESLint (a per-file rule cannot see a cycle between folders).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The globals of Node scripts (plain .mjs/.cjs/.js files; TypeScript checks its own). */
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'require',
    'module',
    '__dirname',
    'fetch',
    'AbortController',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      'out/',
      'test-output/',
      '.cache/',
      '**/fixtures/',
      '**/samples/',
      // The demo's sample project: someone's ordinary CommonJS code that Cairn is shown working on.
      'scripts/sample-workspace/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Terminal output and file names are matched for control characters on purpose (sanitizing them).
      'no-control-regex': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: { globals: nodeGlobals },
  },
  {
    // CommonJS by necessity: VS Code's test runner and a probe extension load these with require().
    files: ['**/*.cjs', 'test/e2e/probe-extension/**/*.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
