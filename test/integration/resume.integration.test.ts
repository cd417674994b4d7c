import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
