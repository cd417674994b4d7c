/**
 * The layer rules of eslint.config.mjs, pinned: each case is an import a layer forbids (or allows), linted
 * as if it were in that file. A rule loosened by mistake (a regex that no longer matches, a glob that no
 * longer covers a folder) fails here, not silently in review.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function restrictedImports(file: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: file });
  return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports').length;
}

const cases: Array<[string, string, string, boolean]> = [
  // [what, file, code, forbidden]
  ['core: vscode at runtime', 'src/core/agent/x.ts', "import * as vscode from 'vscode'; export const a = vscode;", true],
  ['core: vscode types', 'src/core/agent/x.ts', "import type * as vscode from 'vscode'; export type A = typeof vscode;", false],
  ['core: src/node', 'src/core/agent/x.ts', "import { a } from '../../node/headless/runner'; export const b = a;", true],
  ['core: src/host', 'src/core/ledger/x.ts', "import { a } from '../../host/y'; export const b = a;", true],
  ['core: test/', 'src/core/agent/x.ts', "import { a } from '../../../test/support/x'; export const b = a;", true],
  [
    'core: fs outside a node/ folder',
    'src/core/tools/x.ts',
    "import { readFile } from 'node:fs/promises'; export const b = readFile;",
    true,
  ],
  ['core: child_process outside a node/ folder', 'src/core/x.ts', "import { spawn } from 'child_process'; export const b = spawn;", true],
  [
    'core: path and crypto anywhere',
    'src/core/tools/x.ts',
    "import { join } from 'node:path'; import { createHash } from 'node:crypto'; export const b = [join, createHash];",
    false,
  ],
  ['core: a node/ folder at runtime', 'src/core/agent/x.ts', "import { a } from '../compose/node/prompts'; export const b = a;", true],
  [
    'core: a node/ folder as types',
    'src/core/agent/x.ts',
    "import type { A } from '../journal/node/sessionJournal'; export type B = A;",
    false,
  ],
  [
    'core node/ folder: fs and other node/ folders',
    'src/core/session/node/x.ts',
    "import { a } from '../../compose/node/prompts'; import { readFile } from 'node:fs/promises'; export const b = [a, readFile];",
    false,
  ],
  [
    'core node/ folder: src/node',
    'src/core/session/node/x.ts',
    "import { a } from '../../../node/headless/runner'; export const b = a;",
    true,
  ],
  ['node: src/host', 'src/node/headless/x.ts', "import { a } from '../../host/y'; export const b = a;", true],
  ['node: vscode', 'src/node/x.ts', "import * as vscode from 'vscode'; export const a = vscode;", true],
  ['host: test/', 'src/host/x.ts', "import { a } from '../../test/support/y'; export const b = a;", true],
  [
    'a test beside the code: test/support',
    'src/core/agent/x.test.ts',
    "import { a } from '../../../test/support/x'; export const b = a;",
    false,
  ],
  ['shared: core at runtime', 'src/shared/x.ts', "import { a } from '../core/agent/events'; export const b = a;", true],
  ['shared: core types', 'src/shared/x.ts', "import type { A } from '../core/agent/events'; export type B = A;", false],
  ["shared: core/text's helpers", 'src/shared/x.ts', "import { a } from '../core/text/visibleText'; export const b = a;", false],
  ['webview: src/core', 'webview-ui/chat/x.tsx', "import { a } from '../../src/core/agent/events'; export const b = a;", true],
  ['webview: src/host', 'webview-ui/report/x.ts', "import { a } from '../../src/host/snapshotView'; export const b = a;", true],
  ['webview: src/shared', 'webview-ui/chat/x.tsx', "import { a } from '../../src/shared/protocol'; export const b = a;", false],
];

describe('layer rules (eslint.config.mjs)', () => {
  it.each(cases)('%s', async (_what, file, code, forbidden) => {
    const found = await restrictedImports(file, code);
    if (forbidden) expect(found).toBeGreaterThan(0);
    else expect(found).toBe(0);
  });
});
