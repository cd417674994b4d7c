// Lint: typescript-eslint's recommended rules, and the layer rules of ARCHITECTURE.md as import
// restrictions (see `layers` below). Cycles between folders and between files are checked by
// scripts/check-folder-cycles.mjs, which `npm run lint` runs after ESLint (a per-file rule cannot see a loop).
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

// ---------------------------------------------------------------------------------------------------
// The layers (ARCHITECTURE.md), as import restrictions. ESLint sees an import's specifier, not the file it
// resolves to, so a rule about "leaving src/core" is written per folder depth: from a file N folders below
// src/core, `../` N+1 times reaches src/. The rules:
//   - nothing under src/ (tests aside) imports test/, bench/ or conformance/;
//   - src/core imports no `vscode` at runtime, nothing of src/host or src/node, and no Node I/O module
//     except in a `node/` folder of its area (src/core/<area>/node/); other core files import a `node/`
//     folder's modules only as types;
//   - src/node imports nothing of src/host and no `vscode`;
//   - src/shared (the host ↔ webview protocol) imports only types from src/core, and core/text's pure helpers;
//   - webview-ui imports only src/shared of src/ (its tests may build views with host code).

/** Node's modules that reach outside the process's memory (files, processes, network, the machine). */
const NODE_IO_MODULES = [
  'fs',
  'fs/promises',
  'child_process',
  'http',
  'https',
  'http2',
  'net',
  'tls',
  'dgram',
  'dns',
  'os',
  'worker_threads',
  'cluster',
  'readline',
  'inspector',
  'v8',
  'vm',
  'process',
].flatMap((name) => [name, `node:${name}`]);
/** Packages that do I/O on their own (a file watcher, a bundler). */
const IO_PACKAGES = ['chokidar', 'esbuild'];

const testFiles = ['**/*.test.ts', '**/*.test.tsx'];

/** One layer's rule: the imports its files (tests aside) may not make. */
function restrict(files, options) {
  return { files, ignores: testFiles, rules: { '@typescript-eslint/no-restricted-imports': ['error', options] } };
}

/** Product code never reaches into the tests, the bench or conformance. */
const NO_TEST_IMPORTS = {
  regex: '(^|/)(test|bench|conformance)(/|$)',
  message: 'Product code may not import tests, the bench or conformance.',
};

function ups(count) {
  return `^(\\.\\./){${count}}`;
}

/** The no-restricted-imports options for a core file `depth` folders below src/core. */
function coreRestrictions(depth, inNodeFolder) {
  const toSrc = depth + 1;
  const patterns = [
    {
      regex: `${ups(toSrc)}(host|node|extension)(/|$)`,
      message: 'src/core may not import src/host, src/node or the extension: pass what it needs through a port (src/core/ports.ts).',
    },
    { regex: `${ups(toSrc + 1)}`, message: 'src/core may not import anything outside src/ (tests, bench, conformance).' },
  ];
  const paths = [
    { name: 'vscode', allowTypeImports: true, message: 'src/core runs under plain Node: no runtime vscode import (types are fine).' },
  ];
  if (!inNodeFolder) {
    patterns.push({
      regex: '(^|/)node(/|$)',
      allowTypeImports: true,
      message:
        'A core file outside a node/ folder imports a node/ folder only as types; put the Node I/O behind a port or in the node/ folder.',
    });
    for (const name of [...NODE_IO_MODULES, ...IO_PACKAGES]) {
      paths.push({
        name,
        message: `Node I/O in src/core lives in a node/ folder of its area (src/core/<area>/node/); ${name} is imported outside one.`,
      });
    }
  }
  return { paths, patterns };
}

function coreLayerConfigs() {
  const configs = [];
  for (let depth = 0; depth <= 3; depth++) {
    const below = '*/'.repeat(depth);
    // depth 0: src/core/x.ts; 1: src/core/area/x.ts; 2: src/core/area/node/x.ts or src/core/area/sub/x.ts ...
    const outsideNodeFolders = restrict([`src/core/${below}*.ts`], coreRestrictions(depth, false));
    configs.push({ ...outsideNodeFolders, ignores: [...testFiles, 'src/core/**/node/**'] });
    if (depth >= 2) configs.push(restrict([`src/core/${'*/'.repeat(depth - 1)}node/*.ts`], coreRestrictions(depth, true)));
  }
  return configs;
}

const layers = [
  ...coreLayerConfigs(),
  restrict(['src/node/**/*.ts'], {
    paths: [{ name: 'vscode', message: 'src/node runs without VS Code (the headless runner, the local server): no vscode import.' }],
    patterns: [{ regex: '(^|/)host(/|$)', message: 'src/node may not import src/host.' }, NO_TEST_IMPORTS],
  }),
  restrict(['src/host/**/*.ts', 'src/*.ts'], {
    patterns: [NO_TEST_IMPORTS],
  }),
  restrict(['src/shared/**/*.ts'], {
    paths: [{ name: 'vscode', message: 'src/shared is read by the webview: no vscode import.' }],
    patterns: [
      {
        regex: '^\\.\\./core/(?!text/)',
        allowTypeImports: true,
        message: "src/shared takes only types from src/core (and core/text's pure helpers): the webview bundles it.",
      },
      { regex: '^\\.\\./(host|node)(/|$)', message: 'src/shared may not import src/host or src/node.' },
    ],
  }),
  restrict(['webview-ui/**/*.ts', 'webview-ui/**/*.tsx'], {
    paths: [{ name: 'vscode', message: 'The webview has no vscode module: it talks to the host through src/shared/protocol.ts.' }],
    patterns: [
      {
        regex: '(^|/)src/(?!shared/)',
        message: 'The webview imports only src/shared of src/: what it shows comes over the protocol.',
      },
    ],
  }),
];

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
  ...layers,
);
