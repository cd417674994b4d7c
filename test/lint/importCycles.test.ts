/**
 * scripts/check-folder-cycles.mjs (run by `npm run lint`) on small trees written for each case: the real
 * script, run as `npm run lint` runs it, with `--root` pointing at the tree. A circle between files (or
 * folders) fails with the files and the import lines that make it; a tree without one passes.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../../scripts/check-folder-cycles.mjs', import.meta.url));
const trees: string[] = [];

/** Writes `files` (path → text) under a new folder and runs the check on it. */
async function check(files: Record<string, string>): Promise<{ code: number; out: string }> {
  const root = await mkdtemp(join(tmpdir(), 'cairn-cycles-'));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return new Promise((resolve) => {
    execFile(process.execPath, [script, '--root', root], { timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, out: `${stdout}${stderr}` });
    });
  });
}

afterEach(async () => {
  await Promise.all(trees.splice(0).map((root) => rm(root, { recursive: true, force: true })));
});

describe('check-folder-cycles: circles between files', () => {
  it('fails on two files that import each other (a type import counts) and names both, with the lines', async () => {
    const { code, out } = await check({
      'src/core/agent/loop.ts': "import { gate } from './gate';\nexport interface LoopDeps { a: number }\nexport const loop = gate;\n",
      'src/core/agent/gate.ts': "// the gate\nimport type { LoopDeps } from './loop';\nexport const gate = (deps: LoopDeps) => deps.a;\n",
    });
    expect(code).toBe(1);
    expect(out).toMatch(/File circles: 1\b/);
    expect(out).toContain('src/core/agent/gate.ts ↔ src/core/agent/loop.ts');
    expect(out).toContain('src/core/agent/loop.ts:1 → src/core/agent/gate.ts');
    expect(out).toContain('src/core/agent/gate.ts:2 → src/core/agent/loop.ts');
  });

  it('finds a loop round three files, a re-export and a .tsx included, and only its members', async () => {
    const { code, out } = await check({
      'src/session/assembly.ts': "import { extras } from './extras';\nexport interface Ports { x: 1 }\nexport const start = extras;\n",
      'src/session/extras.ts': "import { child } from './children';\nexport const extras = child;\n",
      'src/session/children.ts': "export type { Ports } from './assembly';\nexport const child = 1;\n",
      'src/session/leaf.ts': "import { start } from './assembly';\nexport const leaf = start;\n",
      'webview-ui/common/Panel.tsx': "import { Scope } from './Scope';\nexport const Panel = () => Scope;\n",
      'webview-ui/common/Scope.tsx': "import { Panel } from './Panel';\nexport const Scope = () => Panel;\n",
    });
    expect(code).toBe(1);
    expect(out).toMatch(/File circles: 2\b/);
    expect(out).toContain('src/session/assembly.ts ↔ src/session/children.ts ↔ src/session/extras.ts');
    expect(out).toContain('src/session/children.ts:1 → src/session/assembly.ts');
    expect(out).toContain('webview-ui/common/Panel.tsx ↔ webview-ui/common/Scope.tsx');
    expect(out).not.toContain('leaf.ts');
  });

  it('fails on a file that imports itself', async () => {
    const { code, out } = await check({ 'src/a/self.ts': "import { x as y } from './self';\nexport const x = 1;\nexport const z = y;\n" });
    expect(code).toBe(1);
    expect(out).toContain('src/a/self.ts imports itself');
    expect(out).toContain('src/a/self.ts:1 → src/a/self.ts');
  });

  it('finds circles between tests and their helpers too (a circle is one wherever it is)', async () => {
    const { code, out } = await check({
      'test/support/a.ts': "import { b } from './b';\nexport const a = b;\n",
      'test/support/b.ts': "import { a } from './a';\nexport const b = a;\n",
    });
    expect(code).toBe(1);
    expect(out).toContain('test/support/a.ts ↔ test/support/b.ts');
  });

  it('passes a tree whose imports form no loop (shared pieces imported by both, a barrel, a test)', async () => {
    const { code, out } = await check({
      'src/shared/views.ts': 'export interface View { a: number }\n',
      'src/shared/messages.ts': "import type { View } from './views';\nexport type Message = { view: View };\n",
      'src/shared/protocol.ts': "export type * from './views';\nexport * from './messages';\n",
      'src/core/agent/ports.ts': 'export interface Deps { a: number }\n',
      'src/core/agent/gate.ts': "import type { Deps } from './ports';\nexport const gate = (deps: Deps) => deps.a;\n",
      'src/core/agent/loop.ts':
        "import { gate } from './gate';\nimport type { Deps } from './ports';\nexport const loop = (deps: Deps) => gate(deps);\n",
      'src/core/agent/loop.test.ts': "import { loop } from './loop';\nexport const t = loop;\n",
      'webview-ui/chat/View.tsx': "import type { Message } from '../../src/shared/protocol';\nexport const show = (m: Message) => m;\n",
    });
    expect(out).toContain('File circles: none.');
    expect(out).toContain('Folder cycles: none.');
    expect(code).toBe(0);
  });
});

describe('check-folder-cycles: circles between folders (kept)', () => {
  it('fails on two folders of src/ that import each other, and ignores tests reaching across folders', async () => {
    const cyclic = await check({
      'src/ledger/store.ts': "import type { Tool } from '../tools/tool';\nexport type Store = Tool[];\n",
      'src/tools/tool.ts': "import { limit } from '../ledger/limits';\nexport type Tool = { n: typeof limit };\n",
      'src/ledger/limits.ts': 'export const limit = 1;\n',
    });
    expect(cyclic.code).toBe(1);
    expect(cyclic.out).toContain('Folder cycles: 1.');
    expect(cyclic.out).toContain('ledger ↔ tools');
    expect(cyclic.out).toContain('File circles: none.');

    const viaTest = await check({
      'src/ledger/store.ts': "import type { Tool } from '../tools/tool';\nexport type Store = Tool[];\n",
      'src/tools/tool.ts': 'export type Tool = { n: 1 };\n',
      'src/tools/tool.test.ts': "import type { Store } from '../ledger/store';\nexport type T = Store;\n",
    });
    expect(viaTest.out).toContain('Folder cycles: none.');
    expect(viaTest.code).toBe(0);
  });
});
