import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resumeSession } from '../../src/core/session/node/sessionAssembly';
import type { ConversationEntry } from '../../src/core/conversation/conversation';
import { projectForProvider } from '../../src/core/conversation/projection';
import type { RequestSnapshot } from '../../src/core/compose/snapshot';
import type { Message } from '../../src/core/model/types';
import { mainRequests, startScenarioSession, toolResultTexts, type ScenarioSession } from './harness';

let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const SUMMARY = 'Summary: the user asked to inspect big.ts and small.ts. Work so far: big.ts was read in full (#RESULT). '.padEnd(400, '.');
/** Small window, small reserve: a 300-line file pushes the prompt past half of it. */
const smallWindow = { id: undefined, context_window: 12000, max_output: 4000 };
const tight = { completionReserveTokens: 500, safetyMarginTokens: 200 };
const loop = { maxTokens: 500, model: 'claude-main' };

function bigWorkspace() {
  return {
    'big.ts': { lines: 300, text: 'export const value{n} = "some padding text to make the line longer {n}";' },
    'small.ts': 'export const x = 1;\n',
  };
}

function firstUserText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> }).messages;
  return messages[0]!.content.map((b) => b.text ?? '').join('\n');
}

function compactionSnapshots(s: ScenarioSession): RequestSnapshot[] {
  return s.events.flatMap((e) => (e.type === 'request_finished' && e.snapshot.purpose === 'compaction' ? [e.snapshot] : []));
}

describe('compaction through the local server', () => {
  function autoScenario(model: object) {
    return {
      model,
      workspace: bigWorkspace(),
      turns: [
        {
          assistant: {
            tool_calls: [
              { name: 'read', input: { path: 'big.ts' } },
              { name: 'read', input: { path: 'small.ts' } },
            ],
          },
        },
        { assistant: { text: 'I read both.' } },
        { summary: SUMMARY },
        {
          assistant: {
            tool_calls: [
              { name: 'read', input: { path: 'small.ts' } },
              { name: 'recall', input: { id: '{result:1}', limit: 2 } },
            ],
          },
        },
        { assistant: { text: 'Still here.' } },
      ],
    };
  }

  it('judges the threshold on the messages a projection hook sends, not on the stored history', async () => {
    // A benchmark strategy that sends every tool result as one short line: its prompts stay far below the
    // threshold although the stored reads of big.ts alone pass it.
    const short = (entries: readonly ConversationEntry[]): Message[] =>
      projectForProvider(entries).map((m) =>
        m.role === 'user' ? { ...m, content: m.content.map((b) => (b.type === 'tool_result' ? { ...b, content: 'a result' } : b)) } : m,
      );
    open = await startScenarioSession(
      {
        model: smallWindow,
        workspace: bigWorkspace(),
        turns: [
          { assistant: { tool_calls: [{ name: 'read', input: { path: 'big.ts' } }] } },
          { assistant: { text: 'Read it.' } },
          { assistant: { tool_calls: [{ name: 'read', input: { path: 'small.ts' } }] } },
          { assistant: { text: 'Read that too.' } },
        ],
      },
      { compaction: { ...tight, threshold: { kind: 'share', value: 0.5 } }, loop, project: short },
    );
    await open.assembled.session.send('read big.ts');
    await open.assembled.session.send('now small.ts');
    expect(open.events.some((e) => e.type === 'compacted')).toBe(false);
    expect(open.logLines.some((l) => l.includes('automatic compaction'))).toBe(false);
    expect(toolResultTexts(mainRequests(open.server).at(-1))).toEqual(['a result', 'a result']);
  });

  it('triggers automatically at a share of the window; the new generation opens with the summary and files table; old ids still recall; a re-read is full', async () => {
    open = await startScenarioSession(autoScenario(smallWindow), {
      compaction: { ...tight, threshold: { kind: 'share', value: 0.5 } },
      loop,
    });
    const { session } = open.assembled;
    await session.send('read big.ts and small.ts');
    // The big read is still the current turn: nothing older to summarize, so nothing happens (and no warning).
    expect(open.events.some((e) => e.type === 'compacted' || e.type === 'notice')).toBe(false);
    await session.send('now small.ts again');
    const compacted = open.events.find((e) => e.type === 'compacted');
    expect(compacted && compacted.type === 'compacted' && compacted.reason).toBe('auto');
    expect(open.logLines.some((l) => /^\[Context\] automatic compaction: prompt \d+ > threshold 6000 of window 12000$/.test(l))).toBe(true);
    if (!compacted || compacted.type !== 'compacted') throw new Error('no compaction');
    expect(compacted.tokensAfter).toBeLessThan(compacted.tokensBefore / 2);

    const last = mainRequests(open.server).at(-1);
    const opening = firstUserText(last);
    expect(opening).toContain(SUMMARY.slice(0, 40));
    expect(opening).toContain('## Files read before this summary');
    expect(opening).toMatch(
      /\| big\.ts \| 1-300 of 300 \| [0-9a-f]{8} \| #[0-9a-f]{4,} \|\n\| small\.ts \| 1-1 of 1 \| [0-9a-f]{8} \| #[0-9a-f]{4,} \|/,
    );
    expect(opening).toContain('now small.ts again');
    const results = toolResultTexts(last);
    // small.ts was read before the compaction; the dedupe table was emptied, so this read is full.
    expect(results.at(-2)).toMatch(/^\[#[0-9a-f]{4,} small\.ts lines 1-1 of 1 sha [0-9a-f]{8}\]\n1: export const x = 1;$/);
    expect(results.at(-1)).toMatch(/recall #[0-9a-f]{4,} lines 1-2 of 300\]\n1: export const value1/);
    // The first request after the compaction says what happened.
    const mains = open.events.flatMap((e) => (e.type === 'request_finished' && e.snapshot.purpose === 'main' ? [e.snapshot] : []));
    const after = mains.find((s) => s.generation === 1)!;
    // Main and summary requests share one count: every request_finished names a distinct request.
    const indexes = open.events.flatMap((e) => (e.type === 'request_finished' ? [e.requestIndex] : []));
    expect(indexes.every((i) => i >= 0)).toBe(true);
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(after.decisions.some((d) => d.kind === 'compaction' && /summarized \d+ messages, kept \d+/.test(d.detail))).toBe(true);
    const history = await readFile(join(open.assembled.journal.sessionDir, 'history.md'), 'utf8');
    expect(history).toContain('**User:** read big.ts and small.ts');
    expect(history).toContain('- call `read` {"path":"big.ts"}');
    expect(history).not.toContain('value150');
  });

  it('names in its decision only the ids the session stored, not ids the summary made up', async () => {
    const scenario = autoScenario(smallWindow);
    const madeUp = `${SUMMARY} The test output is in #deadbeef and the old config in #0badc0de.`;
    open = await startScenarioSession(
      { ...scenario, turns: scenario.turns.map((turn) => ('summary' in turn ? { summary: madeUp } : turn)) },
      { compaction: { ...tight, threshold: { kind: 'share', value: 0.5 } }, loop },
    );
    await open.assembled.session.send('read big.ts and small.ts');
    await open.assembled.session.send('now small.ts again');
    const compacted = open.events.find((e) => e.type === 'compacted');
    if (!compacted || compacted.type !== 'compacted') throw new Error('no compaction');
    expect(compacted.summary).toContain('#deadbeef');
    const decision = open.events
      .flatMap((e) => (e.type === 'request_finished' ? e.snapshot.decisions : []))
      .find((d) => d.kind === 'compaction');
    if (!decision) throw new Error('no compaction decision');
    // The files table names both reads: real ids, kept.
    expect(decision.resultIds.length).toBeGreaterThanOrEqual(2);
    expect(decision.resultIds).not.toContain('#deadbeef');
    expect(decision.resultIds).not.toContain('#0badc0de');
    const ledger = open.assembled.ledger;
    for (const id of decision.resultIds) expect(ledger.has(id), id).toBe(true);
  });

  it('the hard fit reserves the max_tokens the request really sends (the output limit), not the setting', async () => {
    // A 20,000-token window and a 2,000-token output limit; cairn.maxTokens stays at its default 16,000.
    open = await startScenarioSession(
      {
        model: { context_window: 20000, max_output: 2000 },
        workspace: bigWorkspace(),
        turns: [{ assistant: { text: 'one' } }, { assistant: { text: 'two' } }, { assistant: { text: 'three' } }],
      },
      { loop: { model: 'claude-main' } },
    );
    const { session } = open.assembled;
    for (const text of ['a', 'b', 'c']) expect(await session.send(text)).toBe('end_turn');
    expect(open.logLines.filter((l) => l.includes('compaction'))).toEqual([]);
    expect(open.events.some((e) => e.type === 'notice' || e.type === 'compacted')).toBe(false);
    expect(mainRequests(open.server).map((b) => (b as { max_tokens: number }).max_tokens)).toEqual([2000, 2000, 2000]);
  });

  it('an automatic compaction does not take a fault written for the next main request', async () => {
    open = await startScenarioSession(
      {
        model: smallWindow,
        workspace: bigWorkspace(),
        turns: [
          {
            assistant: {
              tool_calls: [
                { name: 'read', input: { path: 'big.ts' } },
                { name: 'read', input: { path: 'small.ts' } },
              ],
            },
          },
          { assistant: { text: 'I read both.' } },
          { fault: { delay_ms: 1 } },
          { summary: SUMMARY },
          { assistant: { text: 'After the compaction.' } },
        ],
      },
      { compaction: { ...tight, threshold: { kind: 'share', value: 0.5 } }, loop },
    );
    const { session } = open.assembled;
    await session.send('read big.ts and small.ts');
    expect(await session.send('now small.ts again')).toBe('end_turn');
    expect(open.events.find((e) => e.type === 'compacted')).toMatchObject({ reason: 'auto' });
    const answered = open.server.requests.filter((r) => r.kind !== 'count_tokens' && r.kind !== 'models');
    const summary = answered.find((r) => r.kind === 'compaction')!;
    expect(summary.fault).toBeUndefined();
    expect(summary.turnIndex).toBe(3);
    expect(answered.at(-1)).toMatchObject({ kind: 'main', fault: { type: 'delay', ms: 1 }, turnIndex: 4 });
  });

  it('triggers at an absolute token count', async () => {
    open = await startScenarioSession(autoScenario({ context_window: 200000, max_output: 4000 }), {
      compaction: { ...tight, threshold: { kind: 'tokens', value: 5000 } },
      loop,
    });
    await open.assembled.session.send('read big.ts and small.ts');
    expect(open.events.some((e) => e.type === 'compacted')).toBe(false);
    await open.assembled.session.send('now small.ts again');
    expect(open.events.some((e) => e.type === 'compacted')).toBe(true);
    expect(open.logLines.some((l) => /^\[Context\] automatic compaction: prompt \d+ > threshold 5000 of window 200000$/.test(l))).toBe(
      true,
    );
  });

  it('compacts on demand with the user instructions, and undo restores the previous generation', async () => {
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { assistant: { text: 'three' } },
          { assistant: { text: 'four' } },
          { summary: SUMMARY },
          { assistant: { text: 'five' } },
        ],
      },
      { loop },
    );
    const { session } = open.assembled;
    for (const t of ['a', 'b', 'c', 'd']) await session.send(t);
    const before = session.generation;
    const outcome = await session.compact({ reason: 'manual', instructions: 'keep the API names' }, new AbortController().signal);
    expect(outcome.applied).toBe(true);
    const request = open.server.requests.filter((r) => r.kind === 'compaction').at(-1)!;
    expect(JSON.stringify(request.body)).toContain('keep the API names');
    expect(session.generation.number).toBe(1);
    // Normal stage: the last 3 turns are kept, the first summarized.
    expect(session.generation.conversation.length).toBe(6);
    expect(session.canUndoCompaction).toBe(true);
    expect(await session.undoCompaction()).toBe(true);
    expect(session.generation).toBe(before);
    await session.send('e');
    const last = mainRequests(open.server).at(-1);
    expect(firstUserText(last)).not.toContain('Summary:');

    // The undo survives a reopen.
    const id = open.assembled.journal.sessionId;
    await open.assembled.dispose();
    const resumed = await resumeSession(open.ports, id);
    expect(resumed.session.generation.number).toBe(0);
    expect(resumed.session.generation.conversation.length).toBe(10);
    await resumed.dispose();
  });

  it('counts the kept messages right when the summary joins the first kept user message, and never calls the summary "User"', async () => {
    const SECOND = 'Second summary: the user asked a, b, c, d, e, f and g; nothing else happened worth keeping. '.padEnd(400, '.');
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { assistant: { text: 'three' } },
          { assistant: { text: 'four' } },
          { summary: SUMMARY },
          { assistant: { text: 'five' } },
          { assistant: { text: 'six' } },
          { assistant: { text: 'seven' } },
          { summary: SECOND },
        ],
      },
      { loop },
    );
    const { session } = open.assembled;
    const signal = new AbortController().signal;
    for (const t of ['a', 'b', 'c', 'd']) await session.send(t);
    expect((await session.compact({ reason: 'manual' }, signal)).applied).toBe(true);
    // [a, one] summarized; [b, two, c, three, d, four] kept, the summary merged into "b".
    expect(session.generation.conversation.length).toBe(6);
    for (const t of ['e', 'f', 'g']) await session.send(t);
    const decisions = open.events.flatMap((e) =>
      e.type === 'request_finished' && e.snapshot.generation === 1 ? e.snapshot.decisions : [],
    );
    expect(decisions.find((d) => d.kind === 'compaction')?.detail).toContain('summarized 2 messages, kept 6');

    // The second compaction summarizes the first summary (merged into "b"): it is Cairn's text, not the user's.
    expect((await session.compact({ reason: 'manual' }, signal)).applied).toBe(true);
    const transcript = JSON.stringify(open.server.requests.filter((r) => r.kind === 'compaction').at(-1)!.body);
    expect(transcript).toContain(`Cairn: ${SUMMARY.slice(0, 30)}`);
    expect(transcript).toContain('User: b');
    expect(transcript).not.toContain('User: Summary');
    const history = await readFile(join(open.assembled.journal.sessionDir, 'history.md'), 'utf8');
    expect(history).toContain(`**Cairn:** ${SUMMARY.slice(0, 30)}`);
    expect(history).toContain('**User:** b');
    expect(history).not.toContain('**User:** Summary');
    // The marks survive a reopen: the journal's opening entries carry them. Block 0 is the summary; the
    // blocks compaction carries over (the durable state, issue 18) are Cairn's too; the user's text is not.
    const opening = session.generation.conversation.all()[0]!;
    const marks = opening.syntheticBlocks ?? [];
    expect(marks).toContain(0);
    opening.message.content.forEach((block, i) => {
      if (block.type === 'text' && /^[a-g]$/.test(block.text)) expect(marks).not.toContain(i);
    });
    const id = open.assembled.journal.sessionId;
    await open.assembled.dispose();
    const resumed = await resumeSession(open.ports, id);
    expect(resumed.session.generation.conversation.all()[0]!.syntheticBlocks).toEqual(marks);
    await resumed.dispose();
  });

  it('a preview applied after the conversation moved on is refused, so no message is lost', async () => {
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [{ assistant: { text: 'one' } }, { assistant: { text: 'two' } }, { summary: SUMMARY }, { assistant: { text: 'three' } }],
      },
      { loop },
    );
    const { session } = open.assembled;
    await session.send('a');
    await session.send('b');
    const planned = await session.planCompaction({ reason: 'manual' }, new AbortController().signal);
    if (!planned.ok) throw new Error(planned.reason);
    await session.send('c');
    const outcome = await session.applyCompaction(planned.plan);
    expect(outcome).toMatchObject({
      applied: false,
      reason: 'The conversation moved on since this compaction was prepared; prepare it again.',
    });
    expect(session.generation.number).toBe(0);
    expect(session.generation.conversation.length).toBe(6);
  });

  it('answers "prompt is too long" with an emergency compaction and retries once', async () => {
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { fault: { prompt_too_long: true } },
          { summary: SUMMARY },
          { assistant: { text: 'after the emergency' } },
        ],
      },
      { loop },
    );
    const { session } = open.assembled;
    await session.send('a');
    await session.send('b');
    expect(await session.send('c')).toBe('end_turn');
    const compacted = open.events.find((e) => e.type === 'compacted');
    expect(compacted && compacted.type === 'compacted' && compacted.reason).toBe('overflow');
    expect(compacted && compacted.type === 'compacted' && compacted.stage).toBe('emergency');
    expect(open.events.some((e) => e.type === 'error')).toBe(false);
  });

  it('uses the fallback model when the main cache is cold, not when it is warm', async () => {
    let now = 1_000_000;
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { summary: SUMMARY },
          { assistant: { text: 'three' } },
          { assistant: { text: 'four' } },
          { summary: SUMMARY },
        ],
      },
      { loop, compaction: { fallbackModel: 'claude-small', fallbackAfterMinutes: 5 }, clock: { now: () => now } },
    );
    const { session } = open.assembled;
    await session.send('a');
    await session.send('b');
    await session.compact({ reason: 'manual' }, new AbortController().signal);
    expect(compactionSnapshots(open).at(-1)!.model).toBe('claude-main');
    await session.send('c');
    await session.send('d');
    now += 6 * 60_000;
    await session.compact({ reason: 'manual' }, new AbortController().signal);
    expect(compactionSnapshots(open).at(-1)!.model).toBe('claude-small');
    // The journal records which model summarized and, when the fallback was used, why.
    const details: Record<string, unknown>[] = [];
    for await (const record of open.assembled.journal.readAll({ types: ['generation_started'] })) {
      if (record.type === 'generation_started') details.push(record.detail as Record<string, unknown>);
    }
    expect(details.map((d) => [d.summaryModel, d.fallback])).toEqual([
      ['claude-main', undefined],
      ['claude-small', { status: 'used', reason: 'main model idle 360 s > 300 s: its cache is cold' }],
    ]);
  });

  it('a refused compaction request leaves its snapshot, as main requests do; the fault is for the compaction only', async () => {
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { fault: { status: 400, message: 'summary refused', for: 'compaction' } },
          { assistant: { text: 'three' } },
        ],
      },
      { loop },
    );
    const { session } = open.assembled;
    await session.send('a');
    await session.send('b');
    const outcome = await session.compact({ reason: 'manual' }, new AbortController().signal);
    expect(outcome.applied).toBe(false);
    expect(open.server.requests.filter((r) => r.kind === 'compaction').map((r) => r.status)).toEqual([400]);
    const snapshots = compactionSnapshots(open);
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]!.usage).toBeNull();
    const journalled: RequestSnapshot[] = [];
    for await (const record of open.assembled.journal.readAll())
      if (record.type === 'snapshot') journalled.push(record.snapshot as RequestSnapshot);
    expect(journalled.filter((s) => s.purpose === 'compaction')).toHaveLength(1);
    expect(await session.send('c')).toBe('end_turn');
  });

  it('a summary that keeps failing leaves the conversation intact, with a notice', async () => {
    open = await startScenarioSession(
      {
        model: { context_window: 200000, max_output: 4000 },
        workspace: bigWorkspace(),
        turns: [
          { assistant: { text: 'one' } },
          { assistant: { text: 'two' } },
          { summary: 'too short' },
          { summary: 'x' },
          { summary: 'nope' },
          { assistant: { text: 'three' } },
        ],
      },
      { loop },
    );
    const { session } = open.assembled;
    await session.send('a');
    await session.send('b');
    const before = session.generation;
    const outcome = await session.compact({ reason: 'manual' }, new AbortController().signal);
    expect(outcome.applied).toBe(false);
    expect(session.generation).toBe(before);
    expect(open.events.some((e) => e.type === 'notice' && e.kind === 'compaction_failed')).toBe(true);
    expect(open.logLines.filter((l) => l.startsWith('[Context] attempt'))).toHaveLength(3);
    expect(await session.send('c')).toBe('end_turn');
  });
});
