import { describe, expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import { compactorWith, noticeEvents, signal, useScratchFolder } from '../../../test/support/compaction/compactorHarness';
import { addTurns, type Harness } from '../../../test/support/compaction/compactorHarness';
import { CACHE_LIFETIME_MS } from '../elision/elider';
import { DEFAULT_ELISION_SETTINGS } from '../elision/costModel';

useScratchFolder();

/** Fills the harness's generation (sent) from a builder's entries. */
function fill(h: Harness, g: GenerationBuilder): void {
  const conversation = h.conversation();
  for (const entry of g.entries) {
    if (entry.message.role === 'user') conversation.appendUser(entry.message.content);
    else conversation.appendAssistant(entry.message);
    conversation.markSent();
  }
}

/** Two runs of the same long command: the first (about 4,000 characters) is superseded. */
function twoRunsOfOneCommand(): GenerationBuilder {
  return new GenerationBuilder()
    .bash('#b001', 'npm test', 'x'.repeat(4_000))
    .bash('#b002', 'npm test', 'y'.repeat(4_100))
    .bash('#b003', 'ls', 'z'.repeat(10));
}

describe('compaction loses nothing first', () => {
  it('over the threshold, elides instead of summarizing when that brings the context under it', async () => {
    const h = compactorWith({ elision: true });
    fill(h, twoRunsOfOneCommand());
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(true);
    expect(h.summarizer.requests).toHaveLength(0);
    expect(noticeEvents(change.events).map((n) => n.kind)).toEqual(['elision']);
    expect(h.order).toContain('forgetReads:#b001');
    expect(h.decisions.take().map((d) => d.kind)).toEqual(['elision']);
    // Undoable like a compaction until a request uses it.
    expect(h.compactor.canUndo).toBe(true);
    const undo = await h.compactor.undo();
    expect(undo.undone).toBe(true);
    expect(noticeEvents(undo.events)[0]!.message).toBe(
      'The last shortening of earlier results was undone: the model has them in full again.',
    );
    expect(h.generations.current.number).toBe(0);
  });

  it('summarizes when elision alone would still leave the context over the threshold', async () => {
    const h = compactorWith({ elision: true });
    fill(h, new GenerationBuilder().bash('#b001', 'npm test', 'x'.repeat(1_000)).bash('#b002', 'npm test', 'y'.repeat(8_000)));
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(true);
    expect(h.summarizer.requests).toHaveLength(1);
    expect(h.order).not.toContain('forgetReads:#b001');
    expect(h.logLines.join('\n')).toMatch(/elision alone would leave \d+ tokens \(over the target \d+\): summarizing/);
  });

  it('summarizes when elision would leave the context under the threshold but without room to work in (thresholdRoom)', async () => {
    // The same context the first case elides; a target of 5% of the window (a sixteenth of the 80% threshold) is
    // below what elision leaves.
    const h = compactorWith({ elision: true, settings: { elision: { ...DEFAULT_ELISION_SETTINGS, thresholdRoom: 0.9375 } } });
    fill(
      h,
      new GenerationBuilder()
        .bash('#b001', 'npm test', 'x'.repeat(4_000))
        .bash('#b002', 'npm test', 'y'.repeat(4_100))
        .bash('#b003', 'ls', 'z'.repeat(10)),
    );
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(true);
    expect(h.summarizer.requests).toHaveLength(1);
    expect(h.order).not.toContain('forgetReads:#b001');
    expect(h.logLines.join('\n')).toMatch(/over the target \d+\): summarizing/);
  });

  // Issue 29 item 7: the room under the threshold was a fifth of the window, so an absolute threshold under a
  // fifth of the window made the target negative and every due compaction a summary, even where eliding alone
  // left the context far under the threshold.
  it('with an absolute threshold under a fifth of the window, still elides when that leaves room under it', async () => {
    const h = compactorWith({ elision: true, settings: { threshold: { kind: 'tokens', value: 1_500 } } });
    fill(
      h,
      new GenerationBuilder()
        .bash('#b001', 'npm test', 'x'.repeat(1_500))
        .bash('#b002', 'npm test', 'y'.repeat(300))
        .bash('#b003', 'ls', 'z'.repeat(10)),
    );
    expect((await h.compactor.needsCompaction()).needed).toBe(true);
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(true);
    expect(h.summarizer.requests).toHaveLength(0);
    expect(h.order).toContain('forgetReads:#b001');
    expect(h.compactor.estimateNext()).toBeLessThanOrEqual(1_500 * (1 - DEFAULT_ELISION_SETTINGS.thresholdRoom));
  });

  it('with elision off, summarizes as before', async () => {
    const h = compactorWith({
      elision: true,
      settings: { elision: { mode: 'off', margin: 2, minTokens: 0, minResults: 1, thresholdRoom: 0 } },
    });
    fill(h, new GenerationBuilder().bash('#b001', 'npm test', 'x'.repeat(4_000)).bash('#b002', 'npm test', 'y'.repeat(4_100)));
    await h.compactor.beforeRequest(signal());
    expect(h.summarizer.requests).toHaveLength(1);
  });

  it('returning to a cold cache past the target (compactWhenCold), compacts now, while the rewrite is free', async () => {
    // About 7,000 of the 10,000-token window: under the 8,000 threshold, past the 6,000 target.
    const fillPastTarget = (h: Harness) => addTurns(h.conversation(), 7, 500);
    const cold = { lastRequestAt: 0, now: CACHE_LIFETIME_MS + 1 };
    const as = compactorWith({ elision: true, settings: { compactWhenCold: false }, ...cold });
    fillPastTarget(as);
    expect((await as.compactor.needsCompaction()).needed).toBe(false);
    expect((await as.compactor.beforeRequest(signal())).newGeneration).toBe(false);
    const warm = compactorWith({ elision: true, settings: { compactWhenCold: true }, lastRequestAt: 0, now: 1 });
    fillPastTarget(warm);
    expect((await warm.compactor.beforeRequest(signal())).newGeneration).toBe(false);
    const h = compactorWith({ elision: true, settings: { compactWhenCold: true }, ...cold });
    fillPastTarget(h);
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(true);
    expect(h.summarizer.requests).toHaveLength(1);
    expect(h.logLines.join('\n')).toMatch(/the cache is cold and the prompt \d+ is past the target 6000 of threshold 8000/);
  });
});
