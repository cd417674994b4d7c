// Issue 35 §3 in a scripted session that crosses the compaction threshold: after the automatic compaction, what
// left the context (the messages summarized and the results no longer in front of the model) is derived from the
// journal alone, and each result it names is still stored in full (recallable by its id).
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { contextLeftOf } from '../../core/compaction/contextLeft';
import type { JournalRecord } from '../../core/journal/records';
import { parseScenario } from '../scenario/scenario';
import { compactionSettingsOf, parseHeadlessArgs } from './args';
import { runHeadless } from './runner';

let dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  dirs = [];
});

const FILES = ['parser', 'lexer', 'printer', 'checker', 'emitter'];

it('after an automatic compaction, the journal says which messages were summarized and which results left, each still stored', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-left-'));
  dirs.push(dir);
  const workspace = Object.fromEntries(
    FILES.map((name) => [`${name}.ts`, { lines: 120, text: `export const ${name}Rule{n} = 'the ${name} handles case {n} on its own';` }]),
  );
  const turns = FILES.flatMap((name) => [
    { user: `What does the ${name} do?` },
    { assistant: { tool_calls: [{ name: 'read', input: { path: `${name}.ts` } }] } },
    { assistant: { text: `The ${name} handles each case on its own.` } },
  ]);
  const args = parseHeadlessArgs(['--workspace', join(dir, 'w'), '--scenario', 'x.json', '--threshold', '6000']);
  const result = await runHeadless({
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    scenario: parseScenario({ model: { context_window: 200000, max_output: 4000 }, workspace, turns }),
    compaction: compactionSettingsOf(args),
  });
  const compacted = result.events.find((e) => e.type === 'compacted');
  expect(compacted).toMatchObject({ reason: 'auto' });
  const generation = compacted!.type === 'compacted' ? compacted!.generation : -1;

  const records = (await readFile(join(result.sessionDir, 'journal.jsonl'), 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JournalRecord);
  const left = await contextLeftOf(
    () => records,
    generation,
    (text) => Math.ceil(text.length / 4),
  );
  expect(left).toBeDefined();
  expect(left!.reason).toBe('auto');
  expect(left!.summarizedMessages).toBeGreaterThan(0);
  expect(left!.userMessages[0]).toBe('What does the parser do?');
  // The parser's read was summarized away: it is listed, with its tokens, and its full text is still stored.
  const parser = left!.results.find((r) => r.subject === 'parser.ts');
  expect(parser).toMatchObject({ group: 'file', oneLine: false });
  expect(parser!.tokens).toBeGreaterThan(500);
  const stored = records.find((r) => r.type === 'tool_result' && r.result.id === parser!.id);
  expect(stored?.type === 'tool_result' && stored.result.body).toContain('parserRule120');

  // What left is exactly what the first request after the compaction no longer carries.
  const after = result.server!.requests.filter((r) => r.kind === 'main').at(-1)!;
  const sent = JSON.stringify(after.body);
  for (const gone of left!.results) expect(sent).not.toContain(`[${gone.id} `);
  // Not the compaction's own generation: another generation's number says nothing left.
  expect(
    await contextLeftOf(
      () => records,
      0,
      (text) => text.length,
    ),
  ).toBeUndefined();
});
