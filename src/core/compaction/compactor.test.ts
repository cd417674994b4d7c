/**
 * The `Compactor` on its own, one test per promise (this file: the automatic trigger and a prompt too long;
 * `compactor.failures.test.ts`: failures, undo, escalation), over the fakes of
 * `test/support/compaction/compactorHarness.ts`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addTurns,
  compactorWith,
  FILES_TABLE,
  HARD,
  MAX_TOKENS,
  noticeEvents,
  recordsOf,
  scratchFolder,
  signal,
  SUMMARY,
  useScratchFolder,
  WINDOW,
  type Harness,
} from '../../../test/support/compaction/compactorHarness';
import type { NewJournalRecord } from '../journal/records';
import type { ContextChange } from '../agent/ports';
import type { GenerationRef } from '../conversation/activeGeneration';
import type { GenerationDetail } from '../conversation/generationDetail';
import { HISTORY_FILE } from './node/historyArchive';

useScratchFolder();

// ---------------------------------------------------------------------------------------------------

describe('Compactor: the automatic trigger', () => {
  it('below the soft threshold changes nothing and asks for no summary', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 5, 700); // 7,000 tokens < 8,000
    const before = h.generations.current;
    expect(h.compactor.estimateNext()).toBe(7_000);
    expect(await h.compactor.needsCompaction()).toMatchObject({ needed: false, fits: true, estimate: 7_000, window: WINDOW });

    const change = await h.compactor.beforeRequest(signal());

    expect(change).toEqual({ newGeneration: false, events: [] });
    expect(h.generations.current).toBe(before);
    expect(h.summarizer.requests).toHaveLength(0);
    expect(h.journalled).toHaveLength(0);
    expect(h.decisions.take()).toEqual([]);
  });

  /** Six turns of 1,400 tokens (8,400: over the soft threshold, inside the hard fit), then the automatic trigger. */
  async function overSoft(): Promise<{ h: Harness; before: GenerationRef; change: ContextChange }> {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 700);
    const before = h.generations.current;
    expect(await h.compactor.needsCompaction()).toMatchObject({ needed: true, fits: true, estimate: 8_400 });
    return { h, before, change: await h.compactor.beforeRequest(signal()) };
  }

  it('over the soft threshold starts a new generation from the summary and the kept tail', async () => {
    const { h, before, change } = await overSoft();

    expect(change.newGeneration).toBe(true);
    expect(h.generations.current).not.toBe(before);
    expect(h.generations.current.number).toBe(1);
    expect(h.summarizer.requests.map((r) => r.stage)).toEqual(['normal']);
    // The opening merged into the first kept user message (marked as Cairn's), then the tail; nothing sent yet.
    const conversation = h.conversation();
    expect(conversation.length).toBe(6);
    expect(conversation.sentCount).toBe(0);
    const first = conversation.all()[0]!;
    expect(first.message.content[0]).toEqual({ type: 'text', text: `${SUMMARY}\n\n${FILES_TABLE}` });
    expect(first.syntheticBlocks).toEqual([0]);
    expect(readFileSync(join(scratchFolder(), HISTORY_FILE), 'utf8')).toContain('## Generation 0, summarized into generation 1');
  });

  it('journals generation_started before the generation switches', async () => {
    const { h } = await overSoft();
    // The record is on disk while generation 0 is still current: a crash never leaves a switch without its record.
    const started = h.journalled.find((j) => j.record.type === 'generation_started')!;
    expect(started.current).toBe(0);
    expect(started.record).toMatchObject({ generation: 1 });
    const detail = (started.record as Extract<NewJournalRecord, { type: 'generation_started' }>).detail as GenerationDetail;
    expect(detail).toMatchObject({
      kind: 'compaction',
      previousGeneration: 0,
      stage: 'normal',
      reason: 'auto',
      summary: SUMMARY,
      filesTable: FILES_TABLE,
      summarizedMessages: 6,
      keptMessages: 6,
      tokensBefore: 8_400,
    });
    expect(detail.entries).toEqual(h.conversation().all());
  });

  it('clears the dedupe tables, journals the new generation with their state in the same record, then its static part', async () => {
    const { h } = await overSoft();
    expect(h.order).toEqual([
      'clearDedupe',
      'ledgerState',
      'journal:generation_started',
      'composer.startGeneration',
      'journal:static_context',
    ]);
    expect(recordsOf(h, 'generation_started')[0]).toMatchObject({ ledgerState: { cleared: true } });
    expect(recordsOf(h, 'static_context')).toEqual([{ type: 'static_context', generation: 1, state: h.composer.staticState() }]);
    expect(h.journalled.find((j) => j.record.type === 'static_context')!.current).toBe(1);
  });

  it('queues its decision naming only the ids the ledger stores', async () => {
    const { h } = await overSoft();
    const decisions = h.decisions.take();
    expect(decisions).toHaveLength(1);
    // #beef1 is in the summary but not in the ledger: the model's text may misremember or invent an id.
    expect(decisions[0]).toMatchObject({ kind: 'compaction', resultIds: ['#a001'] });
    expect(decisions[0]!.detail).toContain('auto compaction, normal stage: summarized 6 messages, kept 6');
  });

  it('returns the compacted event, and no notice', async () => {
    const { h, change } = await overSoft();
    expect(change.events).toEqual([
      {
        type: 'compacted',
        generation: 1,
        tokensBefore: 8_400,
        tokensAfter: h.compactor.estimateNext(),
        summary: SUMMARY,
        filesTable: FILES_TABLE,
        reason: 'auto',
        stage: 'normal',
      },
    ]);
    expect(h.notices).toEqual([]);
  });

  it('over the hard fit takes the must-fit path: the emergency stage when the normal one still does not fit', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 4, 500); // 4,000 tokens of older turns
    addTurns(h.conversation(), 3, 1_700); // 10,200 tokens in the three newest turns: total 14,200 > 9,900
    const check = await h.compactor.needsCompaction();
    expect(check).toMatchObject({ needed: true, fits: false, estimate: 14_200 });
    expect(check.why).toBe(`prompt 14200 + reserve ${MAX_TOKENS} + margin 0 > window ${WINDOW}`);

    const change = await h.compactor.beforeRequest(signal());

    expect(change.newGeneration).toBe(true);
    // The normal stage kept 3 turns (10,200 tokens, over the window), so the emergency stage ran and kept 1.
    expect(h.summarizer.requests.map((r) => r.stage)).toEqual(['normal', 'emergency']);
    expect(change.events[0]).toMatchObject({ type: 'compacted', stage: 'emergency', reason: 'auto' });
    expect(h.logLines.some((l) => l.includes('does not fit the window') && l.includes('Trying the emergency stage'))).toBe(true);
    expect(h.compactor.estimateNext()).toBeLessThanOrEqual(HARD);
  });

  it('over the hard fit, an attempt that cannot help is a warning, not only a log line', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 1, 10);
    addTurns(h.conversation(), 1, 5_000); // the newest turn alone is nearly everything: no stage can help
    const change = await h.compactor.beforeRequest(signal());

    expect(change.newGeneration).toBe(false);
    expect(h.summarizer.requests).toHaveLength(0);
    expect(noticeEvents(change.events).map((e) => [e.level, e.kind])).toEqual([['warning', 'compaction_failed']]);
    expect(h.notices.map((n) => n.kind)).toEqual(['compaction_failed']);
  });

  it('an attempt that could not help blocks automatic retries until the conversation grows by 2 messages', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 3, 5);
    addTurns(h.conversation(), 1, 4_200); // 8,430 tokens, over the soft threshold; the newest turn is 8,400 of them
    const tries = () => h.logLines.filter((l) => l.startsWith('[Context] automatic compaction')).length;

    const first = await h.compactor.beforeRequest(signal());
    // Nothing to compact is routine: logged only, no notice, no summary paid for.
    expect(first).toEqual({ newGeneration: false, events: [] });
    expect(h.notices).toEqual([]);
    expect(h.summarizer.requests).toHaveLength(0);
    expect(h.logLines.some((l) => l.startsWith('[Context] compaction not applied: The emergency stage would keep'))).toBe(true);
    expect(tries()).toBe(1);
    const windowCalls = h.windowCalls;

    await h.compactor.beforeRequest(signal());
    h.conversation().appendUser([{ type: 'text', text: 'one more' }]);
    await h.compactor.beforeRequest(signal());
    expect(tries()).toBe(1);
    // Blocked before the threshold is even checked.
    expect(h.windowCalls).toBe(windowCalls);

    h.conversation().markSent();
    h.conversation().appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'and another' }] });
    await h.compactor.beforeRequest(signal());
    expect(tries()).toBe(2);
  });

  it('a PreCompact hook that blocked is not asked again in the run, until the next run or until the request no longer fits', async () => {
    const asked: string[] = [];
    const h = compactorWith({
      beforeCompact: async (trigger) => {
        asked.push(trigger);
        return 'A PreCompact hook stopped the compaction: not now';
      },
    });
    addTurns(h.conversation(), 6, 700); // 8,400: over the soft threshold, inside the hard fit
    h.compactor.startRun();
    const first = await h.compactor.beforeRequest(signal());
    expect(first.newGeneration).toBe(false);
    expect(noticeEvents(first.events).map((e) => e.message)).toEqual(['A PreCompact hook stopped the compaction: not now']);
    expect(asked).toEqual(['auto']);
    // The run goes on and the context grows, still inside the hard fit: the hook is not asked again.
    addTurns(h.conversation(), 1, 300);
    expect(await h.compactor.beforeRequest(signal())).toEqual({ newGeneration: false, events: [] });
    addTurns(h.conversation(), 1, 300);
    expect(await h.compactor.beforeRequest(signal())).toEqual({ newGeneration: false, events: [] });
    expect(asked).toEqual(['auto']);
    expect(h.summarizer.requests).toHaveLength(0);
    // The user's next message starts a run: asked again (and it blocks again).
    h.compactor.startRun();
    await h.compactor.beforeRequest(signal());
    expect(asked).toEqual(['auto', 'auto']);
    // Past the hard fit within that run: asked again, its block overridden, and the compaction goes ahead.
    addTurns(h.conversation(), 1, 1_000);
    expect(await h.compactor.needsCompaction()).toMatchObject({ fits: false });
    const overridden = await h.compactor.beforeRequest(signal());
    expect(asked).toEqual(['auto', 'auto', 'auto']);
    expect(overridden.newGeneration).toBe(true);
  });

  it('a new generation lifts the block', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 3, 5);
    addTurns(h.conversation(), 1, 4_200);
    await h.compactor.beforeRequest(signal());
    expect(h.logLines.filter((l) => l.startsWith('[Context] automatic compaction'))).toHaveLength(1);

    // Another generation (of the same length) is not the one the block was for.
    const entries = h.conversation().all();
    h.generations.begin(entries, { kind: 'compaction' });
    await h.compactor.beforeRequest(signal());
    expect(h.logLines.filter((l) => l.startsWith('[Context] automatic compaction'))).toHaveLength(2);
  });
});

describe('Compactor: prompt too long', () => {
  it('compacts at the emergency stage and reports a new generation', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 4, 300); // below every threshold: the provider's word is what counts
    const change = await h.compactor.promptTooLong(signal());

    expect(change.newGeneration).toBe(true);
    expect(h.summarizer.requests.map((r) => r.stage)).toEqual(['emergency']);
    expect(change.events[0]).toMatchObject({ type: 'compacted', reason: 'overflow', stage: 'emergency', generation: 1 });
    // The emergency stage keeps one turn: its user message (with the opening) and the answer.
    expect(h.conversation().length).toBe(2);
  });

  it('reports no new generation when there is nothing to compact, with a warning', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 1, 300);
    const change = await h.compactor.promptTooLong(signal());
    expect(change.newGeneration).toBe(false);
    expect(noticeEvents(change.events).map((e) => e.kind)).toEqual(['compaction_failed']);
  });
});
