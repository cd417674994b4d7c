import { describe, expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import { addTurns, compactorWith, noticeEvents, signal, useScratchFolder } from '../../../test/support/compaction/compactorHarness';
import type { Harness } from '../../../test/support/compaction/compactorHarness';
import { DEFAULT_ELISION_SETTINGS } from '../elision/costModel';

useScratchFolder();

function fill(h: Harness, g: GenerationBuilder): void {
  const conversation = h.conversation();
  for (const entry of g.entries) {
    if (entry.message.role === 'user') conversation.appendUser(entry.message.content);
    else conversation.appendAssistant(entry.message);
    conversation.markSent();
  }
}

/** One command run twice: the first output (400 characters) is superseded, too little for an automatic batch. */
function oneSmallSupersededRun(): GenerationBuilder {
  return new GenerationBuilder().bash('#b001', 'npm test', 'x'.repeat(400)).bash('#b002', 'npm test', 'y'.repeat(300));
}

describe('the cold-send notice’s figures and its Elide first (issue 31 §3)', () => {
  it('offers eliding a superseded result Cairn would not elide on its own, with the prompt it leaves', async () => {
    const h = compactorWith({ elision: true });
    fill(h, oneSmallSupersededRun());
    const facts = await h.compactor.coldSendFacts(25);
    expect(facts.automatic).toBeUndefined();
    expect(facts.asIsTokens).toBe(h.compactor.estimateNext() + 25);
    expect(facts.elision?.results).toBe(1);
    // The 400 characters leave; one line replaces them.
    expect(facts.asIsTokens - facts.elision!.tokens).toBeGreaterThan(300);
  });

  it('elides it on the user’s word, where the automatic measure does not, and the elision can be undone', async () => {
    const h = compactorWith({ elision: true });
    fill(h, oneSmallSupersededRun());
    expect((await h.compactor.beforeRequest(signal())).newGeneration).toBe(false);
    const { applied, events } = await h.compactor.elideNow();
    expect(applied).toBe(true);
    expect(h.order).toContain('forgetReads:#b001');
    expect(noticeEvents(events).map((n) => n.kind)).toEqual(['elision']);
    expect(h.generations.current.number).toBe(1);
    expect(JSON.stringify(h.generations.current.conversation.all())).toContain('Elided: superseded by #b002');
    expect(h.compactor.canUndo).toBe(true);
    // The decision says whose choice it was, not "automatic".
    expect(h.decisions.take().map((d) => d.detail)).toEqual([expect.stringMatching(/^chosen by the user: elided 1 superseded results/)]);
  });

  it('has nothing to elide when nothing is superseded', async () => {
    const h = compactorWith({ elision: true });
    fill(h, new GenerationBuilder().bash('#b001', 'npm test', 'x'.repeat(400)).bash('#b002', 'ls', 'y'));
    expect((await h.compactor.coldSendFacts(0)).elision).toBeUndefined();
    expect((await h.compactor.elideNow()).applied).toBe(false);
    expect(h.generations.current.number).toBe(0);
  });

  it('says so when Cairn elides on its own before the send, and offers no second elision', async () => {
    const h = compactorWith({ elision: true, settings: { elision: { ...DEFAULT_ELISION_SETTINGS, margin: 0, minResults: 1 } } });
    fill(h, new GenerationBuilder().bash('#b001', 'npm test', 'x'.repeat(4_000)).bash('#b002', 'npm test', 'y'.repeat(100)));
    const facts = await h.compactor.coldSendFacts(0);
    expect(facts.automatic).toBe('elision');
    expect(facts.elision).toBeUndefined();
    expect(facts.asIsTokens).toBeLessThan(h.compactor.estimateNext() - 3_000);
  });

  it('counts a compaction first at the summary’s cap, with the summary request’s transcript', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 600);
    const facts = await h.compactor.coldSendFacts(0);
    const compaction = facts.compaction!;
    expect(compaction.summaryOutputTokens).toBe(8_000);
    // Three of six turns summarized: their 3,600 characters are the transcript, about a quarter of that in tokens.
    expect(compaction.summaryInputTokens).toBeGreaterThan(900);
    expect(compaction.tokens).toBeGreaterThan(8_000);
    expect(h.summarizer.requests).toHaveLength(0);
  });
});
