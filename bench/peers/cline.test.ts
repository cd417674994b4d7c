import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { validateRequest } from '../../src/node/localServer/validateRequest';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn, ScriptedToolCall } from '../../src/node/scenario/types';
import { clineRetrieval, isClineSide, translateForCline } from './cline';
import { needsGate } from './needs';
import { callProblems } from './schemaCheck';

/** Real requests of cline 3.0.65, recorded from this harness (see the fixture's "about"). */
const FIXTURE = resolve(__dirname, '../../test/fixtures/peers/cline-requests.json');
const [first, last] = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { requests: unknown[] }).requests.map(
  (body) => validateRequest(body, { countTokens: false }) as WireRequest,
);
const tools = first!.tools as unknown as { name: string; input_schema?: unknown }[];
const turn = (...toolCalls: ScriptedToolCall[]): AssistantTurn => ({ kind: 'assistant', index: 7, toolCalls });

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('cline translation, against its recorded requests', () => {
  it('turns every scripted tool into a call its own tool schemas accept', () => {
    const translated = translateForCline(
      turn(
        { name: 'read', input: { path: 'src/a.js' } },
        { name: 'read', input: { path: 'src/a.js', offset: 40, limit: 26 } },
        { name: 'bash', input: { command: 'node --test' } },
        { name: 'grep', input: { pattern: 'leadingWs|trailingWs', path: 'src' } },
        { name: 'glob', input: { pattern: 'src/**/*.js' } },
        { name: 'list', input: { path: 'src' } },
        { name: 'edit', input: { path: 'a.js', old_string: 'a', new_string: 'b' } },
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
        { name: 'write', input: { path: 'x.mjs', content: 'x\n' } },
        { name: 'recall', input: { id: '{result:2}', offset: 300, limit: 40 } },
      ),
      last!,
      '/SCRATCH/workspace',
    ).toolCalls;
    for (const call of translated) expect(callProblems(call, tools)).toEqual([]);
    expect(translated[1]!.input).toEqual({ files: [{ path: '/SCRATCH/workspace/src/a.js', start_line: 40, end_line: 65 }] });
    expect(translated.at(-1)!.input).toEqual({ commands: ["(seq 1 20000 | sed 's/^/log line /') 2>&1 | sed -n '300,339p'"] });
  });

  it('does a replace-all through the shell, literally', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-cline-'));
    dirs.push(dir);
    await writeFile(join(dir, 'a.js'), 'f(x.y); g(x.y); // x.y$\n');
    const [call] = translateForCline(
      turn({ name: 'edit', input: { path: 'a.js', old_string: 'x.y', new_string: "a'$b", replace_all: true } }),
      last!,
      dir,
    ).toolCalls;
    execFileSync('bash', ['-c', (call!.input as { commands: string[] }).commands[0]!], { cwd: dir });
    expect(await readFile(join(dir, 'a.js'), 'utf8')).toBe("f(a'$b); g(a'$b); // a'$b$\n");
  });

  it('rewrites an existing file by naming its whole text as old_text (its editor refuses otherwise), and creates a new one without', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-cline-'));
    dirs.push(dir);
    await writeFile(join(dir, 'old.ts'), 'export const a = 1\n');
    const [rewrite, create] = translateForCline(
      turn(
        { name: 'write', input: { path: 'old.ts', content: 'export const a = 2\n' } },
        { name: 'write', input: { path: 'new.ts', content: 'x\n' } },
      ),
      last!,
      dir,
    ).toolCalls;
    expect(rewrite!.input).toEqual({ path: join(dir, 'old.ts'), old_text: 'export const a = 1\n', new_text: 'export const a = 2\n' });
    expect(create!.input).toEqual({ path: join(dir, 'new.ts'), new_text: 'x\n' });
  });

  it('answers its requests without tools apart', () => {
    expect(isClineSide(first!, 'claude-sonnet-4-5')).toBe(false);
    expect(isClineSide({ ...first!, tools: [] }, 'claude-sonnet-4-5')).toBe(true);
  });
});

describe('a need cline cut from an output (it saves nothing)', () => {
  it('runs the cut command again, filtered, before the step', async () => {
    const step: AssistantTurn = { kind: 'assistant', index: 9, text: 'Line 15000 says so.', toolCalls: [] };
    const gate = needsGate(new Map([[9, ['log line 15000']]]), clineRetrieval, () => undefined);
    expect((await gate.hook!(last!, step))?.toolCalls).toEqual([
      {
        name: 'run_commands',
        input: { commands: ["(seq 1 20000 | sed 's/^/log line /') 2>&1 | grep -F -e 'log line 15000' -B 5 -A 14 | head -n 20"] },
      },
    ]);
  });
});
