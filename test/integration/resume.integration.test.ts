import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestSnapshot } from '../../src/core/compose/snapshot';
import { resumeSession } from '../../src/core/session/node/sessionAssembly';
import { startScenarioSession, toolResultTexts, mainRequests, type ScenarioSession } from './harness';

const model = { id: 'claude-test-model', context_window: 200000, max_output: 64000 };
let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

describe('a session reopened from its journal', () => {
  it('continues with its conversation, its ids and its dedupe state', async () => {
    open = await startScenarioSession({
      model,
      workspace: { 'a.ts': { lines: 10, text: 'line {n}' } },
      turns: [
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
        { assistant: { text: 'read it' } },
        {
          assistant: {
            tool_calls: [
              { name: 'read', input: { path: 'a.ts' } },
              { name: 'recall', input: { id: '{result:1}' } },
            ],
          },
        },
        { assistant: { text: 'again' } },
      ],
    });
    await open.assembled.session.send('first');
    const firstId = /^\[(#[0-9a-f]+)/.exec(toolResultTexts(mainRequests(open.server).at(-1))[0]!)![1]!;
    const sessionId = open.assembled.journal.sessionId;
    await open.assembled.dispose();

    const resumed = await resumeSession(open.ports, sessionId);
    try {
      expect(resumed.session.generation.conversation.length).toBe(4);
      await resumed.session.send('second');
      const results = toolResultTexts(mainRequests(open.server).at(-1));
      // The conversation carried over: the first read is still in the request, then the new ones.
      expect(results[0]!.startsWith(`[${firstId} `)).toBe(true);
      expect(results[1]).toContain(`Unchanged since ${firstId}`);
      expect(results[2]!.startsWith('[#')).toBe(true);
      expect(results[2]).toContain(`recall ${firstId} lines 1-10 of 10`);
      const ids = results.map((r) => /^\[(#[0-9a-f]+)/.exec(r)![1]);
      expect(new Set(ids).size).toBe(3);
    } finally {
      await resumed.dispose();
    }
  });
});

describe('a session reopened after its rules changed', () => {
  it('sends the same prefix as before (the cache stays warm) and the new rules as a delta', async () => {
    open = await startScenarioSession(
      {
        model,
        workspace: { 'AGENTS.md': 'Always answer in English.\n' },
        turns: [{ assistant: { text: 'one' } }, { assistant: { text: 'two' } }],
      },
      { workspaceRules: true },
    );
    await open.assembled.session.send('first');
    const sessionId = open.assembled.journal.sessionId;
    await open.assembled.dispose();
    await writeFile(join(open.workspaceDir, 'AGENTS.md'), 'Always answer in French.\n');

    const resumed = await resumeSession(open.ports, sessionId);
    try {
      await resumed.session.send('second');
      const bodies = mainRequests(open.server) as Array<{ system: unknown; tools: unknown; messages: Array<{ content: unknown }> }>;
      expect(JSON.stringify(bodies[1]!.system)).toBe(JSON.stringify(bodies[0]!.system));
      expect(JSON.stringify(bodies[1]!.system)).toContain('English');
      expect(JSON.stringify(bodies[1]!.messages.at(-1)!.content)).toContain('Always answer in French.');
      // Every message the first request sent is a prefix of the second: nothing was rewritten.
      const content = (m: unknown) => JSON.stringify(m, (key, value) => (key === 'cache_control' ? undefined : value));
      expect(content(bodies[1]!.messages[0])).toBe(content(bodies[0]!.messages[0]));
    } finally {
      await resumed.dispose();
    }
  });
});

describe('a session reopened after a pause (issue 31: the cache’s clock carries over)', () => {
  // The read of a.ts is superseded by the edit; on a warm cache eliding it would rewrite the tail and does not
  // pay, on a cold one the rewrite is free (the cold return elides every superseded result).
  async function reopenAfter(minutes: number): Promise<string[]> {
    let now = 1_000_000_000_000;
    // A fake clock, shared by the session and its reopen: the test moves it, no one sleeps.
    const fakeClock = { now: () => now };
    open = await startScenarioSession(
      {
        model,
        workspace: { 'a.ts': { lines: 400, text: 'export const value{n} = {n}; // a line long enough to count' } },
        turns: [
          { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
          { assistant: { tool_calls: [{ name: 'edit', input: { path: 'a.ts', old_string: 'value1 =', new_string: 'first =' } }] } },
          { assistant: { text: 'renamed' } },
          { assistant: { text: 'back again' } },
        ],
      },
      { clock: fakeClock },
    );
    await open.assembled.session.send('rename value1');
    const sessionId = open.assembled.journal.sessionId;
    await open.assembled.dispose();
    now += minutes * 60_000;
    const resumed = await resumeSession(open.ports, sessionId);
    try {
      await resumed.session.send('anything else?');
      const snapshots: RequestSnapshot[] = [];
      for await (const record of resumed.journal.readAll({ types: ['snapshot'] })) {
        if (record.type === 'snapshot') snapshots.push(record.snapshot as RequestSnapshot);
      }
      return snapshots.at(-1)!.decisions.map((d) => d.kind);
    } finally {
      await resumed.dispose();
    }
  }

  it('finds the cache cold when the last answer is older than five minutes, and elides the superseded read for free', async () => {
    expect(await reopenAfter(6)).toContain('elision');
  });

  it('finds it warm a minute later, and leaves the context as it was sent', async () => {
    expect(await reopenAfter(1)).not.toContain('elision');
  });
});

describe('a session reopened after pauses (issue 31: the cache-time models go on from its own pauses)', () => {
  it('has the pauses it had before it closed, and counts the time it was closed as the next one', async () => {
    let now = 1_000_000_000_000;
    const fakeClock = { now: () => now };
    open = await startScenarioSession(
      {
        model,
        workspace: { 'a.ts': 'export const a = 1;\n' },
        turns: [
          { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts' } }] } },
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { assistant: { text: 'three' } },
          { assistant: { text: 'four' } },
        ],
      },
      { clock: fakeClock },
    );
    await open.assembled.session.send('first');
    now += 7 * 60_000;
    await open.assembled.session.send('second');
    now += 2 * 60_000;
    await open.assembled.session.send('third');
    const live = [...open.assembled.composer.pauses()];
    expect(live).toEqual([7 * 60_000, 2 * 60_000]);
    const sessionId = open.assembled.journal.sessionId;
    await open.assembled.dispose();
    now += 20 * 60_000;
    const resumed = await resumeSession(open.ports, sessionId);
    try {
      expect(resumed.composer.pauses()).toEqual(live);
      await resumed.session.send('fourth');
      expect(resumed.composer.pauses()).toEqual([...live, 20 * 60_000]);
    } finally {
      await resumed.dispose();
    }
  });
});
