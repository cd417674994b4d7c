// `cairn.editAnswer: "lean"` through the real loop and the local server: the model is shown where its edit landed,
// not its own lines or the context; the stored result is the whole diff, and recall shows it. The default is the
// spec's diff.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../../core/config/hygiene';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

const call = (name: string, input: Record<string, unknown>) => ({ assistant: { tool_calls: [{ name, input }] } });

/** The text of every tool result the model was sent, in order, from the last main request. */
function resultsSent(requests: readonly { kind: string; body: unknown }[]): string[] {
  const last = requests.filter((r) => r.kind === 'main').at(-1)!;
  const messages = (last.body as { messages: { content: unknown }[] }).messages;
  return messages.flatMap((m) =>
    Array.isArray(m.content)
      ? (m.content as { type: string; content?: unknown }[]).flatMap((b) =>
          b.type === 'tool_result' && typeof b.content === 'string' ? [b.content] : [],
        )
      : [],
  );
}

async function play(editAnswer: 'diff' | 'lean') {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-lean-edit-'));
  dirs.push(dir);
  const workspaceDir = join(dir, 'w');
  const result = await runHeadless({
    workspaceDir,
    outDir: join(dir, 'out'),
    hygiene: { ...DEFAULT_HYGIENE, 'edit.answer': editAnswer },
    scenario: parseScenario({
      model: { id: 'claude-opus-4-6', context_window: 200000, max_output: 4000 },
      workspace: { 'src/table.ts': { lines: 40, text: "export const row{n} = 'row {n} of the table';" } },
      turns: [
        { user: 'Rename row 20 and show me the change.' },
        call('read', { path: 'src/table.ts' }),
        call('edit', {
          path: 'src/table.ts',
          old_string: "export const row20 = 'row 20 of the table';",
          new_string: "export const row20 = 'row twenty of the table';",
        }),
        call('recall', { id: '{result:2}' }),
        { assistant: { text: 'Done.' } },
      ],
    }),
  });
  expect(result.doneReasons).toEqual(['end_turn']);
  expect(await readFile(join(workspaceDir, 'src/table.ts'), 'utf8')).toContain("export const row20 = 'row twenty of the table';");
  return resultsSent(result.server!.requests);
}

it('lean: the edit answers with its hunk header and no line the model wrote; recall shows the whole diff', async () => {
  const [, edit, recall] = await play('lean');
  expect(edit).toMatch(
    /^\[(#[0-9a-f]+) src\/table\.ts sha [0-9a-f]+\] Applied as you wrote it, \+1 −1 lines; where it landed below \(context and your own lines left out, recall \1 shows the diff\)\.\n@@ -17,7 \+17,7 @@$/,
  );
  expect(recall).toContain("-export const row20 = 'row 20 of the table';");
  expect(recall).toContain("+export const row20 = 'row twenty of the table';");
  expect(recall).toContain(" export const row19 = 'row 19 of the table';");
});

it('by default the edit answers with the spec’s diff, three lines of context', async () => {
  const [, edit] = await play('diff');
  expect(edit!.split('\n')).toEqual([
    expect.stringMatching(/^\[#[0-9a-f]+ src\/table\.ts sha [0-9a-f]+\]$/),
    '@@ -17,7 +17,7 @@',
    " export const row17 = 'row 17 of the table';",
    " export const row18 = 'row 18 of the table';",
    " export const row19 = 'row 19 of the table';",
    "-export const row20 = 'row 20 of the table';",
    "+export const row20 = 'row twenty of the table';",
    " export const row21 = 'row 21 of the table';",
    " export const row22 = 'row 22 of the table';",
    " export const row23 = 'row 23 of the table';",
  ]);
});
