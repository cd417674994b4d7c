import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification, SubagentView, TurnView } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';

type ChildEvent = Extract<HostNotification, { type: 'subagentEvent' }>;
type Init = Extract<HostNotification, { type: 'init' }>;

/** The parent delegates a write to a general child, which asks before writing, then answers. */
function delegatedWrite(): unknown {
  return {
    workspace: { 'README.md': 'hello\n' },
    turns: [
      { user: 'delegate the notes' },
      {
        assistant: {
          text: 'A sub-agent will write them.',
          tool_calls: [{ name: 'task', input: { description: 'Write the notes', prompt: 'Write notes.txt saying hi.', kind: 'general' } }],
        },
      },
      { assistant: { agent: 'general-1', tool_calls: [{ name: 'write', input: { path: 'notes.txt', content: 'from the child\n' } }] } },
      { assistant: { agent: 'general-1', text: 'Wrote notes.txt.' } },
      { assistant: { text: 'The sub-agent wrote notes.txt.' } },
    ],
  };
}

function blockIn(turns: readonly TurnView[]): SubagentView | undefined {
  for (const turn of turns) for (const item of turn.items) if (item.type === 'tool' && item.subagent) return item.subagent;
  return undefined;
}

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

describe('sub-agents through the host', () => {
  it("asks under the child's name, takes only an answer naming the child, accounts its requests, and rebuilds its block after a reload", async () => {
    host = await startHost({ scenario: delegatedWrite(), apiKey: 'test-key-subagents' });
    const run = host;
    await run.send('delegate the notes', async () => {
      const asked = () => run.posted<ChildEvent>('subagentEvent').filter((m) => m.event.type === 'approvalRequested');
      await waitFor(() => asked().length === 1, "the child's approval prompt");
      const prompt = asked()[0]!;
      expect(prompt.agentId).toBe('general-1');
      const callId = prompt.event.type === 'approvalRequested' ? prompt.event.callId : '';
      expect(prompt.event).toMatchObject({ tool: 'write', detail: { files: [{ change: 'write', path: 'notes.txt' }] } });
      expect(run.posted('subagentStarted')).toMatchObject([
        { agent: { id: 'general-1', kind: 'general', description: 'Write the notes', prompt: 'Write notes.txt saying hi.' } },
      ]);
      // The same call id without the child's name (or with another child's) is not the waiting prompt.
      await run.chat.fromPage({ type: 'approval', callId, decision: 'allow-once' });
      await run.chat.fromPage({ type: 'approval', callId, decision: 'allow-once', agent: 'general-2' });
      await new Promise((r) => setTimeout(r, 300));
      expect(existsSync(join(run.workspaceDir, 'notes.txt'))).toBe(false);
      await run.chat.fromPage({ type: 'approval', callId, decision: 'allow-once', agent: 'general-1' });
    });
    expect(await readFile(join(run.workspaceDir, 'notes.txt'), 'utf8')).toBe('from the child\n');
    const finished = run.posted<Extract<HostNotification, { type: 'subagentFinished' }>>('subagentFinished');
    expect(finished).toMatchObject([{ agentId: 'general-1', reason: 'end_turn', usage: { requests: 2 } }]);
    const childCost = finished[0]!.usage.costUsd!;
    expect(childCost).toBeGreaterThan(0);
    // The report has the child's requests, named; the meter's total includes them, with the child apart.
    const snapshots = run.posted<Extract<HostNotification, { type: 'snapshot' }>>('snapshot').map((m) => m.snapshot);
    expect(snapshots.map((s) => s.agent)).toEqual([undefined, 'general-1', 'general-1', undefined]);
    const meter = run.posted<Extract<HostNotification, { type: 'usage' }>>('usage').at(-1)!.meter;
    expect(meter.subagents).toEqual([{ id: 'general-1', usage: expect.objectContaining({ requests: 2 }) }]);
    // The child's outcome rounds its cost to the micro-dollar; the report's sum is of the unrounded requests.
    expect(meter.subagents?.[0]?.usage.costUsd).toBeCloseTo(childCost, 5);
    const total = snapshots.reduce((sum, s) => sum + (s.costUsd ?? 0), 0);
    expect(meter.sessionCostUsd).toBeCloseTo(total, 9);
    expect(meter.sessionCostUsd).toBeGreaterThan(childCost);

    await run.reload();
    await waitFor(() => run.posted('init').length > 0, 'the init after the reload');
    const init = run.posted<Init>('init').at(-1)!;
    const block = blockIn(init.turns);
    expect(block).toMatchObject({ id: 'general-1', status: 'done', usage: { requests: 2 } });
    expect(block?.usage?.costUsd).toBeCloseTo(childCost, 5);
    const write = block?.items.find((i) => i.type === 'tool');
    expect(write).toMatchObject({ tool: 'write', status: 'done' });
    const writeId = write?.type === 'tool' ? write.result?.id : undefined;
    expect(writeId).toMatch(/^#[0-9a-f]{4,}$/);
    // The child's result ids are the session's: a reloaded view links them.
    expect(init.resultIds).toContain(writeId);
    expect(block?.items.at(-1)).toMatchObject({ type: 'assistant', text: 'Wrote notes.txt.' });
    expect(init.meter?.subagents?.[0]?.id).toBe('general-1');
  });

  it('asks in the chat before an eleventh sub-agent starts in one response; a forged "always" continues once and allows no tool', async () => {
    const calls = Array.from({ length: 11 }, (_, i) => ({
      name: 'task',
      input: { description: `Part ${i + 1}`, prompt: `Look at part ${i + 1}.`, kind: 'explore' },
    }));
    host = await startHost({
      scenario: {
        workspace: { 'README.md': 'hello\n' },
        turns: [
          { user: 'split it' },
          { assistant: { tool_calls: calls } },
          ...calls.map((_, i) => ({ assistant: { agent: `explore-${i + 1}`, text: `Part ${i + 1} looked at.` } })),
          { assistant: { text: 'All eleven parts.' } },
        ],
      },
      apiKey: 'test-key-subagent-bounds',
    });
    const run = host;
    type Asked = Extract<HostNotification, { type: 'approvalRequested' }>;
    await run.send('split it', async () => {
      await waitFor(() => run.posted('approvalRequested').length === 1, 'the question about the bound');
      const asked = run.posted<Asked>('approvalRequested')[0]!;
      expect(asked).toMatchObject({ tool: 'task', summary: 'task explore: Part 11', bound: { setting: 'cairn.subagents.perResponse' } });
      expect(asked.bound?.text).toContain('The model wants to start 11 sub-agents in one response; the bounds allow 10');
      // Nothing started while the question waits.
      expect(run.posted('subagentStarted')).toEqual([]);
      await run.chat.fromPage({ type: 'approval', callId: asked.callId, decision: 'allow-always' });
    });
    expect(run.posted('subagentStarted')).toHaveLength(11);
    expect(run.globalState.get('cairn.allowances')).toBeUndefined();
    expect(run.posted('approvalRequested')).toHaveLength(1);
  });
});
