import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_CONTINUE_PROMPT } from '../../src/core/agent/agentLoop';
import type { Approver } from '../../src/core/agent/approval';
import { INTERRUPTION_NOTE } from '../../src/core/conversation/projection';
import { EventProjection } from '../../src/host/eventProjection';
import { applyTurnEvent, isTurnEvent, type Turns } from '../../src/shared/transcript';
import { mainRequests, startScenarioSession, toolResultTexts, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

function lastToolResults(s: ScenarioSession): string[] {
  const bodies = mainRequests(s.server);
  return toolResultTexts(bodies[bodies.length - 1]);
}

describe('the agent loop against the local server, with the real SDK and real files', () => {
  it('runs multi-turn tool use and sees a change made from outside between two reads', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.ts': { lines: 30, text: 'const a{n} = {n};' } },
      turns: [
        { user: 'read a twice' },
        { assistant: { text: 'Reading.', tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
        { fs: { append: { path: 'a.ts', content: 'const extra = 1;\n' } } },
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts', offset: 31 } }] } },
        { assistant: { text: 'Done.' } },
      ],
    });
    const reason = await open.assembled.session.send('read a twice');
    expect(reason).toBe('end_turn');
    const results = lastToolResults(open);
    expect(results).toHaveLength(3);
    expect(results[0]).toMatch(/^\[#[0-9a-f]{4,} a\.ts lines 1-30 of 30 sha [0-9a-f]{8}\]\n1: const a1 = 1;/);
    expect(results[1]).toMatch(/Unchanged since #[0-9a-f]{4,}, which already shows lines 1-30\.$/);
    // The append happened between the second and third read: a new hash, so a full read.
    expect(results[2]).toMatch(/^\[#[0-9a-f]{4,} a\.ts lines 31-31 of 31 sha [0-9a-f]{8}\]\n31: const extra = 1;$/);
    expect(mainRequests(open.server)).toHaveLength(4);
  });

  it('asks before edits and commands: an allowed command runs, a denied edit changes nothing and says why', async () => {
    const asked: string[] = [];
    const approver: Approver = {
      request: async (r) => {
        asked.push(r.tool);
        return r.tool === 'bash' ? { kind: 'allow' } : { kind: 'deny', reason: 'not that file' };
      },
    };
    open = await startScenarioSession(
      {
        model,
        workspace: { 'a.txt': 'one\n' },
        turns: [
          { user: 'go' },
          {
            assistant: {
              tool_calls: [
                { name: 'read', input: { path: 'a.txt' } },
                { name: 'bash', input: { command: 'echo ran' } },
                { name: 'edit', input: { path: 'a.txt', old_string: 'one', new_string: 'two' } },
              ],
            },
          },
          { assistant: { text: 'ok' } },
        ],
      },
      { approver },
    );
    await open.assembled.session.send('go');
    expect(asked).toEqual(['bash', 'edit']);
    const results = lastToolResults(open);
    expect(results[1]).toMatch(/\nran$/);
    expect(results[2]).toContain('The user declined to run edit. Their reason: not that file');
    expect(await readFile(join(open.workspaceDir, 'a.txt'), 'utf8')).toBe('one\n');
    expect(open.events.some((e) => e.type === 'approval_requested' && e.tool === 'edit')).toBe(true);
  });

  it('an untrusted workspace refuses edits without asking', async () => {
    const approver: Approver = { request: async () => ({ kind: 'allow' }) };
    open = await startScenarioSession(
      {
        model,
        workspace: { 'a.txt': 'one\n' },
        turns: [{ assistant: { tool_calls: [{ name: 'write', input: { path: 'b.txt', content: 'x' } }] } }, { assistant: { text: 'ok' } }],
      },
      { approver, approvals: { alwaysAllow: new Set(['write']), workspaceTrusted: false } },
    );
    await open.assembled.session.send('go');
    expect(lastToolResults(open)[0]).toContain('not trusted');
    await expect(readFile(join(open.workspaceDir, 'b.txt'), 'utf8')).rejects.toThrow();
  });

  it('cancel during a stream keeps what arrived, marked as interrupted, and the next request is valid', async () => {
    open = await startScenarioSession({
      model,
      workspace: {},
      turns: [
        { fault: { delay_ms: 150 } },
        { assistant: { text: 'This is a long answer that streams slowly, word by word, so there is time to cancel it.' } },
        { assistant: { text: 'Second answer.' } },
      ],
    });
    const session = open.assembled.session;
    const sub = session.onEvent((e) => {
      if (e.type === 'text_delta') session.cancel();
    });
    expect(await session.send('first')).toBe('cancelled');
    sub.dispose();
    expect(await session.send('second')).toBe('end_turn');
    const bodies = mainRequests(open.server) as Array<{
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    }>;
    const last = bodies[bodies.length - 1]!;
    const assistant = last.messages.find((m) => m.role === 'assistant')!;
    expect(assistant.content[assistant.content.length - 1]!.text).toBe(INTERRUPTION_NOTE);
  });

  it('cancel during a long command kills it and still answers the tool call', async () => {
    open = await startScenarioSession(
      {
        model,
        workspace: {},
        turns: [
          { assistant: { tool_calls: [{ name: 'bash', input: { command: 'sleep 30; echo never' } }] } },
          { assistant: { text: 'after' } },
        ],
      },
      { approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true } },
    );
    const session = open.assembled.session;
    session.onEvent((e) => {
      if (e.type === 'tool_started') setTimeout(() => session.cancel(), 200);
    });
    const reason = await session.send('run it');
    expect(reason, JSON.stringify(open.events.filter((e) => e.type === 'tool_finished'))).toBe('cancelled');
    const finished = open.events.find((e) => e.type === 'tool_finished');
    expect(finished && finished.type === 'tool_finished' && finished.result.text).not.toContain('never');
    // The next request carries a tool_result for the cancelled call (the server rejects a lone tool_use).
    expect(await session.send('continue')).toBe('end_turn');
    expect(lastToolResults(open)).toHaveLength(1);
  });

  it('retries 429 (honouring retry-after) and 529, then succeeds', async () => {
    open = await startScenarioSession({
      model,
      workspace: {},
      turns: [{ fault: { status: 429, retry_after: 3 } }, { fault: { status: 529 } }, { assistant: { text: 'made it' } }],
    });
    expect(await open.assembled.session.send('hi')).toBe('end_turn');
    expect(open.sleeps[0]).toBe(3000);
    expect(open.sleeps).toHaveLength(2);
    expect(open.events.filter((e) => e.type === 'notice' && e.kind === 'retrying')).toHaveLength(2);
    const statuses = open.server.requests.filter((r) => r.kind === 'main').map((r) => r.status);
    expect(statuses).toEqual([429, 529, 200]);
  });

  it('a stream cut part-way leaves a marked message, and the next request carries the note', async () => {
    open = await startScenarioSession({
      model,
      workspace: {},
      turns: [
        { fault: { cut_after_events: 5 } },
        { assistant: { text: 'A fairly long reply that will be cut somewhere in the middle of it.' } },
      ],
    });
    expect(await open.assembled.session.send('hi')).toBe('end_turn');
    const interrupted = open.events.find((e) => e.type === 'assistant_message' && e.incomplete);
    expect(interrupted).toBeDefined();
    const bodies = mainRequests(open.server) as Array<{
      messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }>;
    }>;
    const second = bodies[bodies.length - 1]!;
    const texts = second.messages.flatMap((m) => m.content.map((b) => b.text ?? ''));
    expect(texts).toContain(INTERRUPTION_NOTE);
    expect(texts).toContain(INTERRUPTED_CONTINUE_PROMPT);
  });

  it('"prompt is too long" surfaces as its own kind', async () => {
    open = await startScenarioSession({
      model,
      workspace: {},
      turns: [{ fault: { prompt_too_long: true } }, { assistant: { text: 'x' } }],
    });
    expect(await open.assembled.session.send('hi')).toBe('error');
    const error = open.events.find((e) => e.type === 'error');
    expect(error && error.type === 'error' && error.kind).toBe('prompt_too_long');
  });

  it('a repeated tool_use id (in one response or from an earlier one) is answered with an error, never run or asked', async () => {
    const asked: Array<{ callId: string; input: unknown }> = [];
    const approver: Approver = { request: async (r) => (asked.push({ callId: r.callId, input: r.input }), { kind: 'allow' }) };
    open = await startScenarioSession(
      {
        model,
        workspace: {},
        turns: [
          {
            assistant: {
              tool_calls: [
                { name: 'bash', id: 'toolu_same', input: { command: 'echo first' } },
                { name: 'bash', id: 'toolu_same', input: { command: 'touch SECOND_RAN' } },
              ],
            },
          },
          { assistant: { tool_calls: [{ name: 'bash', id: 'toolu_same', input: { command: 'touch THIRD_RAN' } }] } },
          { assistant: { text: 'ok' } },
        ],
      },
      { approver },
    );
    expect(await open.assembled.session.send('go')).toBe('end_turn');
    // Only the first call was asked about and run.
    expect(asked).toEqual([{ callId: 'toolu_same', input: { command: 'echo first' } }]);
    // The prompt carries the whole command, not only the cut summary.
    // (This session has no snapshots of commands, so the prompt also says what cannot be kept.)
    expect(open.events.filter((e) => e.type === 'approval_requested').map((e) => e.type === 'approval_requested' && e.detail)).toEqual([
      { command: 'echo first', allowance: 'commands', notKept: expect.stringContaining('Cairn takes no snapshot of commands here') },
    ]);
    await expect(readFile(join(open.workspaceDir, 'SECOND_RAN'), 'utf8')).rejects.toThrow();
    await expect(readFile(join(open.workspaceDir, 'THIRD_RAN'), 'utf8')).rejects.toThrow();
    // Every request was valid for the API (unique ids, one result per call), and the model was told why.
    expect(open.server.requests.filter((r) => r.kind === 'main').map((r) => r.status)).toEqual([200, 200, 200]);
    const results = lastToolResults(open);
    expect(results[0]).toMatch(/\nfirst$/);
    expect(results[1]).toContain('Not run: this call reused the tool_use id "toolu_same"');
    expect(results[2]).toContain('Not run: this call reused the tool_use id "toolu_same"');
    // The chat, fed the same events the host sends: one line per call, none left running or waiting.
    const projection = new EventProjection(0);
    let turns: Turns = [];
    for (const event of open.events) for (const n of projection.project(event)) if (isTurnEvent(n)) turns = applyTurnEvent(turns, n);
    const tools = turns.flatMap((t) => t.items).filter((i) => i.type === 'tool');
    expect(tools.map((t) => t.summary)).toEqual(['bash echo first', 'bash touch SECOND_RAN', 'bash touch THIRD_RAN']);
    expect(new Set(tools.map((t) => t.callId)).size).toBe(3);
    expect(tools.map((t) => t.status)).toEqual(['done', 'done', 'done']);
    expect(tools[0]!.result?.isError).toBe(false);
    expect(tools[1]!.result?.isError).toBe(true);
  });

  it('a write to a path with a hidden character, or a patch that hides one in a header, is refused without asking', async () => {
    const asked: string[] = [];
    const approver: Approver = { request: async (r) => (asked.push(r.tool), { kind: 'allow' }) };
    const patch = [
      '*** Begin Patch',
      '*** Add File: README.md',
      '+hi',
      '*** Add File: \u2028.git/hooks/pre-commit',
      '+#!/bin/sh',
      '*** End Patch',
    ].join('\n');
    open = await startScenarioSession(
      {
        model,
        workspace: {},
        turns: [
          {
            assistant: {
              tool_calls: [
                { name: 'write', input: { path: 'run\u202ehs.txt', content: 'x' } },
                { name: 'apply_patch', input: { patch } },
              ],
            },
          },
          { assistant: { text: 'ok' } },
        ],
      },
      { approver },
    );
    expect(await open.assembled.session.send('go')).toBe('end_turn');
    expect(asked).toEqual([]);
    const results = lastToolResults(open);
    expect(results[0]).toContain('The path "run⟨U+202E⟩hs.txt" contains ⟨U+202E⟩');
    expect(results[1]).toContain('contains ⟨U+2028⟩');
    expect(results[1]).toContain('Nothing was changed.');
    await expect(readFile(join(open.workspaceDir, 'README.md'), 'utf8')).rejects.toThrow();
  });
});
