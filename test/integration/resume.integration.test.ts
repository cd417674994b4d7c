import { afterEach, describe, expect, it } from 'vitest';
import { resumeSession } from '../../src/core/agent/sessionAssembly';
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
        { assistant: { tool_calls: [{ name: 'read', input: { path: 'a.ts' } }, { name: 'recall', input: { id: '{result:1}' } }] } },
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
