import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/node/localServer/validateRequest';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn, ScriptedToolCall } from '../../src/node/scenario/types';
import { needsGate } from './needs';
import { isOpencodeSide, opencodeRetrieval, readBeforeEdit, savedOutputPath, translateForOpencode } from './opencode';
import { shownResults } from './shownResults';
import { callProblems } from './schemaCheck';

/** Real requests of opencode 1.18.33 (kilo is its fork with the same tools), recorded from this harness. */
const FIXTURE = resolve(__dirname, '../../test/fixtures/peers/opencode-requests.json');

function recorded(scratch = '/SCRATCH'): WireRequest[] {
  const text = readFileSync(FIXTURE, 'utf8').replaceAll('/SCRATCH', scratch);
  return (JSON.parse(text) as { requests: unknown[] }).requests.map((body) => {
    const wire = validateRequest(body, { countTokens: false });
    if (!('messages' in wire)) throw new Error(`the fixture no longer validates: ${wire.message}`);
    return wire;
  });
}

const turn = (...toolCalls: ScriptedToolCall[]): AssistantTurn => ({ kind: 'assistant', index: 7, toolCalls });

const SCRIPTED: ScriptedToolCall[] = [
  { name: 'read', input: { path: 'src/diff/line.js' } },
  { name: 'read', input: { path: 'src/diff/line.js', offset: 40, limit: 26 } },
  { name: 'bash', input: { command: 'node --test' } },
  { name: 'grep', input: { pattern: 'leadingWs|trailingWs', path: 'src' } },
  { name: 'grep', input: { pattern: 'x', path: 'src', glob: '*.js' } },
  { name: 'glob', input: { pattern: 'src/**/*.js' } },
  { name: 'list', input: { path: 'src' } },
  { name: 'edit', input: { path: 'a.js', old_string: 'a', new_string: 'b', replace_all: true } },
  {
    name: 'multiedit',
    input: {
      path: 'a.js',
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd' },
      ],
    },
  },
  { name: 'write', input: { path: 'scripts/x.mjs', content: 'x\n' } },
  { name: 'recall', input: { id: '{result:3}', offset: 2, limit: 3 } },
];

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('opencode translation, against its recorded requests', () => {
  const [first, last] = recorded();
  const tools = first!.tools as unknown as { name: string; input_schema?: unknown }[];
  const workspace = '/SCRATCH/workspace';

  it('turns every scripted tool into a call its own tool schemas accept', () => {
    const translated = translateForOpencode(turn(...SCRIPTED), last!, workspace).toolCalls;
    expect(translated.map((c) => c.name)).toEqual([
      'read',
      'read',
      'bash',
      'grep',
      'grep',
      'glob',
      'bash',
      'edit',
      'edit',
      'edit',
      'write',
      'bash',
    ]);
    for (const call of translated) expect(callProblems(call, tools)).toEqual([]);
    expect(translated[1]!.input).toEqual({ filePath: `${workspace}/src/diff/line.js`, offset: 40, limit: 26 });
    expect(translated[4]!.input).toEqual({ pattern: 'x', path: `${workspace}/src`, include: '*.js' });
    expect(translated[7]!.input).toEqual({ filePath: `${workspace}/a.js`, oldString: 'a', newString: 'b', replaceAll: true });
    // The third result (a grep) was not saved anywhere: the recall runs the tool's command again.
    expect(translated[11]!.input).toMatchObject({ command: "(true) 2>&1 | sed -n '2,4p'" });
  });

  it('reads a file before the first edit of it, and not again', () => {
    expect(
      readBeforeEdit(last!, turn({ name: 'edit', input: { path: 'src/other.js', old_string: 'a', new_string: 'b' } }), workspace)
        ?.toolCalls,
    ).toEqual([{ name: 'read', input: { filePath: `${workspace}/src/other.js` } }]);
    expect(
      readBeforeEdit(last!, turn({ name: 'edit', input: { path: 'notes.txt', old_string: 'a', new_string: 'b' } }), workspace),
    ).toBeUndefined();
  });

  it('answers its requests without tools, or for another model, apart', () => {
    expect(isOpencodeSide(first!, 'claude-sonnet-4-5')).toBe(false);
    expect(isOpencodeSide({ ...first!, tools: [] }, 'claude-sonnet-4-5')).toBe(true);
  });
});

describe('kilo translation, against its recorded requests', () => {
  it('turns every scripted tool into a call its own tool schemas accept', () => {
    const text = readFileSync(resolve(__dirname, '../../test/fixtures/peers/kilo-requests.json'), 'utf8');
    const [first, last] = (JSON.parse(text) as { requests: { tools: { name: string; input_schema?: unknown }[] }[] }).requests;
    const wire = validateRequest(last, { countTokens: false }) as WireRequest;
    const translated = translateForOpencode(turn(...SCRIPTED), wire, '/SCRATCH/workspace', true).toolCalls;
    for (const call of translated) expect(callProblems(call, first!.tools)).toEqual([]);
    expect(translated[2]!.input).toEqual({ command: 'node --test', description: 'Run node --test' });
  });
});

describe('a need opencode cut from a long output', () => {
  it('is read from the file opencode saved the output to before the step is served', async () => {
    const scratch = await mkdtemp(join(tmpdir(), 'cairn-oc-fixture-'));
    dirs.push(scratch);
    const [, last] = recorded(scratch);
    const preview = shownResults(last!).find((r) => r.text.includes('...output truncated...'))!;
    const saved = /Full output saved to: (\S+)/.exec(preview.text)![1]!;
    await mkdir(dirname(saved), { recursive: true });
    await writeFile(saved, Array.from({ length: 20000 }, (_, i) => `log line ${i + 1}`).join('\n'));
    expect(savedOutputPath(preview.text)).toBe(saved);
    const step: AssistantTurn = { kind: 'assistant', index: 9, text: 'Line 15000 says so.', toolCalls: [] };
    const gate = needsGate(new Map([[9, ['log line 15000']]]), opencodeRetrieval, () => undefined);
    expect((await gate.hook!(last!, step))?.toolCalls).toEqual([{ name: 'read', input: { filePath: saved, offset: 14995, limit: 20 } }]);
    const shown = needsGate(new Map([[9, ['log line 19990']]]), opencodeRetrieval, () => undefined);
    expect(await shown.hook!(last!, step)).toBeUndefined();
  });
});
