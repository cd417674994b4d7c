import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/events';
import type { PermissionMode } from '../../core/agent/permissionMode';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';

/**
 * Issue 32 §1 through the real loop, tools, sandbox and the local server: one scripted user turn makes the
 * same four calls in every mode (a read, an edit in the workspace, an edit of a protected path, a command the
 * sandbox holds) and, in auto, a command that needs the network. Which ran, which asked (the headless runner
 * approves every ask, as `ask` would be approved) and which were refused is read from the session's events;
 * what ran is checked on disk.
 */
const CALLS = [
  { name: 'read', input: { path: 'notes.txt' } },
  { name: 'edit', input: { path: 'notes.txt', old_string: 'one', new_string: 'two' } },
  { name: 'write', input: { path: '.vscode/settings.json', content: '{}\n' } },
  { name: 'bash', input: { command: 'echo ran > out.txt' } },
  { name: 'bash', input: { command: 'curl -s http://127.0.0.1:9/x' } },
];

function scenario(turns: number) {
  const script: unknown[] = [];
  for (let t = 0; t < turns; t++) {
    script.push({ user: `Turn ${t + 1}: make the change.` });
    script.push({ assistant: { tool_calls: CALLS } });
    script.push({ assistant: { text: 'Done.' } });
  }
  return parseScenario({ workspace: { 'notes.txt': 'one\n' }, turns: script }, 'permission modes');
}

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

interface Outcome {
  readonly ran: string[];
  readonly asked: string[];
  readonly refused: string[];
}

/** Each call of the run, by its order in `CALLS`, sorted into ran / asked-then-ran / refused. */
function outcomes(events: readonly AgentEvent[]): Outcome[] {
  const turns: Outcome[] = [];
  const names = new Map<string, string>();
  const asked = new Set<string>();
  for (const event of events) {
    if (event.type === 'user_message') turns.push({ ran: [], asked: [], refused: [] });
    const turn = turns.at(-1)!;
    if (event.type === 'tool_started')
      names.set(event.callId, `${event.tool}:${CALLS.findIndex((c) => JSON.stringify(c.input) === JSON.stringify(event.input))}`);
    if (event.type === 'approval_requested') asked.add(event.callId);
    if (event.type === 'tool_finished') {
      const name = names.get(event.callId)!;
      if (asked.has(event.callId)) turn.asked.push(name);
      else if (event.result.isError && /plan mode|not trusted/.test(event.result.text)) turn.refused.push(name);
      else turn.ran.push(name);
    }
  }
  return turns;
}

async function run(modes: readonly PermissionMode[]) {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-modes-'));
  dirs.push(dir);
  let turn = 0;
  const result = await runHeadless({
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    scenario: scenario(modes.length),
    // The mode the user set before each message: switched between turns, as the chat's control does.
    permissionMode: () => modes[Math.min(turn, modes.length - 1)]!,
    onEvent: (event) => {
      if (event.type === 'done') turn++;
    },
    sandbox: { mode: 'auto', network: false },
    onNotice: () => undefined,
  });
  return { result, workspace: join(dir, 'w') };
}

const sandboxed = process.platform === 'linux';

describe('permission modes through the real loop and the local server', () => {
  it('ask: the read runs; edits, the protected write and both commands ask', async () => {
    const { result, workspace } = await run(['ask']);
    expect(outcomes(result.events)).toEqual([{ ran: ['read:0'], asked: ['edit:1', 'write:2', 'bash:3', 'bash:4'], refused: [] }]);
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('two\n');
  });

  it('plan: the read runs; every edit and command is refused without asking, and the result says how to leave plan mode', async () => {
    const { result, workspace } = await run(['plan']);
    expect(outcomes(result.events)).toEqual([{ ran: ['read:0'], asked: [], refused: ['edit:1', 'write:2', 'bash:3', 'bash:4'] }]);
    expect(await readFile(join(workspace, 'notes.txt'), 'utf8')).toBe('one\n');
    const refusal = result.events.find((e) => e.type === 'tool_finished' && e.result.isError);
    expect(refusal?.type === 'tool_finished' && refusal.result.text).toMatch(/plan mode.*Shift\+Tab.*Start it/s);
    // The model was told the mode in the user's message, ahead of the user's text.
    const first = result.server!.requests.find((r) => r.kind === 'main')!.body as { messages: { content: { text?: string }[] }[] };
    expect(first.messages[0]!.content.map((b) => b.text?.split('\n')[0]).slice(-2)).toEqual([
      '<cairn-permission-mode mode="plan">',
      'Turn 1: make the change.',
    ]);
  });

  it('acceptEdits: the edit runs without asking; the protected write and the commands still ask', async () => {
    const { result } = await run(['acceptEdits']);
    expect(outcomes(result.events)).toEqual([{ ran: ['read:0', 'edit:1'], asked: ['write:2', 'bash:3', 'bash:4'], refused: [] }]);
  });

  it.skipIf(!sandboxed)('auto: the edit and the sandboxed command run; the protected write and the network command ask', async () => {
    const { result, workspace } = await run(['auto']);
    expect(outcomes(result.events)).toEqual([{ ran: ['read:0', 'edit:1', 'bash:3'], asked: ['write:2', 'bash:4'], refused: [] }]);
    expect(await readFile(join(workspace, 'out.txt'), 'utf8')).toBe('ran\n');
  });

  it('switching modes keeps the system and tools blocks byte-identical; each switch is one envelope in the next user message', async () => {
    const modes: PermissionMode[] = ['ask', 'plan', 'acceptEdits', 'auto', 'ask'];
    const { result } = await run(modes);
    const main = result.server!.requests.filter((r) => r.kind === 'main').map((r) => r.body as Record<string, unknown>);
    expect(main.length).toBe(modes.length * 2);
    const prefix = (body: Record<string, unknown>) => JSON.stringify({ system: body.system, tools: body.tools });
    for (const body of main) expect(prefix(body)).toBe(prefix(main[0]!));
    const last = main.at(-1)! as { messages: { role: string; content: { type: string; text?: string }[] }[] };
    const envelopes = last.messages
      .filter((m) => m.role === 'user')
      .flatMap((m) =>
        m.content.flatMap((b) => (b.type === 'text' && b.text!.startsWith('<cairn-permission-mode') ? [b.text!.split('"')[1]] : [])),
      );
    // Nothing for the first ask (the prompt's own default); then one envelope per switch.
    expect(envelopes).toEqual(['plan', 'acceptEdits', 'auto', 'ask']);
    const turns = outcomes(result.events);
    expect(turns[1]!.refused).toEqual(['edit:1', 'write:2', 'bash:3', 'bash:4']);
    expect(turns[2]!.ran).toEqual(['read:0', 'edit:1']);
  });

  it('a sub-agent runs under the session mode and cannot widen it: in plan its edit and command are refused, and it is told the mode', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cairn-modes-'));
    dirs.push(dir);
    const child = parseScenario(
      {
        workspace: { 'notes.txt': 'one\n' },
        turns: [
          { user: 'Change notes.txt through a helper.' },
          {
            assistant: {
              tool_calls: [{ name: 'task', input: { description: 'edit notes', prompt: 'Make notes.txt say two.', kind: 'general' } }],
            },
          },
          { assistant: { agent: 'general-1', tool_calls: [CALLS[1], CALLS[3]] } },
          { assistant: { agent: 'general-1', text: 'Both were refused: plan mode.' } },
          { assistant: { text: 'The helper could not change anything in plan mode.' } },
        ],
      },
      'child in plan mode',
    );
    const result = await runHeadless({
      workspaceDir: join(dir, 'w'),
      outDir: join(dir, 'out'),
      scenario: child,
      permissionMode: 'plan',
      onNotice: () => undefined,
    });
    const childResults = result.events.flatMap((e) =>
      e.type === 'subagent_event' && e.event.type === 'tool_finished' ? [e.event.result] : [],
    );
    expect(childResults.map((r) => [r.isError, /plan mode/.test(r.text)])).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(result.events.some((e) => e.type === 'approval_requested')).toBe(false);
    expect(await readFile(join(dir, 'w', 'notes.txt'), 'utf8')).toBe('one\n');
    const childRequest = result.server!.requests.find((r) => r.kind === 'main' && r.agent === 'general-1')!.body as {
      messages: { content: { text?: string }[] }[];
    };
    expect(childRequest.messages[0]!.content.some((b) => b.text?.startsWith('<cairn-permission-mode mode="plan">'))).toBe(true);
  });
});
