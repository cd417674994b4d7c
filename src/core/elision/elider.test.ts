import { describe, expect, it } from 'vitest';
import { GenerationBuilder } from '../../../test/support/conversation/generationBuilder';
import { DecisionQueue } from '../compose/decisions';
import { ActiveGeneration } from '../conversation/activeGeneration';
import { Conversation, type ConversationEntry } from '../conversation/conversation';
import { isElisionDetail, type ElisionDetail } from '../conversation/generationDetail';
import { replayConversation } from '../conversation/replay';
import type { LoadedRecord, NewJournalRecord } from '../journal/records';
import { DEFAULT_ELISION_SETTINGS, type ElisionSettings } from './costModel';
import { CACHE_LIFETIME_MS, Elider } from './elider';

/** The cases' arithmetic was written for a margin of 2 (the default is larger: costModel.ts says why). */
const CASE_SETTINGS = { ...DEFAULT_ELISION_SETTINGS, margin: 2 };
/** A long file read, edited and read again; a long test run run twice: four superseded results. */
function busyGeneration(): GenerationBuilder {
  const g = new GenerationBuilder();
  g.read('#a001', 'src/a.ts', 'aaaaaaaa', 1, 400, 400)
    .bash('#b001', 'npm test', `${'PASS test\n'.repeat(600)}[exit code 0]`)
    .edit('#a002', 'src/a.ts')
    .read('#a003', 'src/a.ts', 'cccccccc', 1, 400, 400)
    .bash('#b002', 'npm test', `${'PASS test\n'.repeat(600)}[exit code 0]`);
  for (let i = 0; i < 60; i++) g.call('list', { path: `dir${i}` }, `[#c${String(i).padStart(3, '0')}]\nx.ts`);
  return g;
}

function harness(
  entries: readonly ConversationEntry[],
  options: { settings?: Partial<ElisionSettings>; lastAt?: number; now?: number; hourPrefixEntries?: number } = {},
) {
  const generations = new ActiveGeneration({ number: 0, conversation: new Conversation(entries) });
  const journalled: NewJournalRecord[] = [];
  const forgotten: string[][] = [];
  const notices: string[] = [];
  const decisions = new DecisionQueue();
  const elider = new Elider({
    generations,
    decisions,
    recorder: { notice: async (_level, _kind, message) => void notices.push(message) },
    ledger: { forgetReads: (ids) => void forgotten.push([...ids]) },
    ledgerState: () => ({ state: forgotten.length }),
    journal: { append: async (record) => journalled.push(record) },
    staticState: () => ({ static: true }),
    // About four characters a token, as the estimator counts ordinary text.
    estimate: (list) => Math.ceil(JSON.stringify(list.map((e) => e.message)).length / 4),
    settings: () => ({ ...CASE_SETTINGS, ...options.settings }),
    thresholdTokens: async () => 160_000,
    lastRequestAt: () => options.lastAt ?? 1_000,
    ...(options.hourPrefixEntries !== undefined ? { hourPrefixEntries: () => options.hourPrefixEntries! } : {}),
    now: () => options.now ?? 2_000,
    log: () => undefined,
  });
  return { elider, generations, journalled, forgotten, notices, decisions };
}

describe('the elider', () => {
  it('elides a paying batch: one record with the entries and the ledger state, then the new generation', async () => {
    const g = busyGeneration();
    const h = harness(g.entries);
    const outcome = await h.elider.beforeRequest();
    expect(outcome.applied, JSON.stringify((await harness(g.entries).elider.plan())?.judgement)).toBe(true);
    expect(h.forgotten).toEqual([['#a001', '#b001', '#a002']]);
    expect(h.journalled.map((r) => r.type)).toEqual(['generation_started', 'static_context']);
    const started = h.journalled[0] as Extract<NewJournalRecord, { type: 'generation_started' }>;
    expect(started.ledgerState).toEqual({ state: 1 });
    expect(isElisionDetail(started.detail)).toBe(true);
    expect(h.generations.current.number).toBe(1);
    expect(h.generations.current.conversation.sentCount).toBe(0);
    const texts = h.generations.current.conversation
      .all()
      .flatMap((e) => e.message.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : [])));
    expect(texts[0]).toBe('[#a001 src/a.ts lines 1-400 of 400 sha aaaaaaaa] Elided: superseded by #a002; recall #a001 shows it.');
    expect(texts[1]).toBe('[#b001] Elided: superseded by #b002; recall #b001 shows it.');
    expect(texts[3]).toContain('1: line 1');
    const decision = h.decisions.take();
    expect(decision).toHaveLength(1);
    expect(decision[0]).toMatchObject({ kind: 'elision', resultIds: ['#a001', '#b001', '#a002'] });
    expect(decision[0]!.detail).toMatch(/pays after [\d.]+ requests/);
    // What it kept out of the context, for the savings view (issue 35 §4): the generation's tokens before less after.
    const detail = started.detail as ElisionDetail;
    expect(decision[0]!.tokensSaved).toBe(detail.tokensBefore - detail.tokensAfter);
    expect(decision[0]!.tokensSaved).toBeGreaterThan(0);
    expect(h.notices[0]).toMatch(
      /^Shortened 3 earlier results that newer ones replace .* to one line each: about [\d,]+ tokens fewer on every request\./,
    );
  });

  it('a reopen replays the elided generation from its one record', async () => {
    const g = busyGeneration();
    const h = harness(g.entries);
    await h.elider.beforeRequest();
    const records = h.journalled.map((r, seq) => ({ ...r, seq, at: seq }) as unknown as LoadedRecord);
    const replayed = replayConversation(records);
    expect(replayed.number).toBe(1);
    expect(replayed.conversation.messages()).toEqual(h.generations.current.conversation.messages());
  });

  it('does not elide when it would not pay, when off, or with nothing superseded', async () => {
    const young = new GenerationBuilder().bash('#b001', 'npm test', 'x\n'.repeat(5000)).bash('#b002', 'npm test', 'y\n'.repeat(5000));
    // Two requests so far: about two more expected, far short of the break-even.
    expect((await harness(young.entries).elider.beforeRequest()).applied).toBe(false);
    expect((await harness(busyGeneration().entries, { settings: { mode: 'off' } }).elider.beforeRequest()).applied).toBe(false);
    const plain = new GenerationBuilder().read('#a001', 'src/a.ts', 'aaaaaaaa');
    expect(await harness(plain.entries).elider.plan()).toBeUndefined();
  });

  it('elides even a young generation when the cache has expired (the next request writes everything anyway)', async () => {
    const young = new GenerationBuilder()
      .bash('#b001', 'npm test', 'x\n'.repeat(5000))
      .bash('#b002', 'npm run lint', 'x\n'.repeat(5000))
      .bash('#b003', 'npm test', 'y\n'.repeat(5000))
      .bash('#b004', 'npm run lint', 'y\n'.repeat(5000));
    expect((await harness(young.entries).elider.beforeRequest()).applied).toBe(false);
    const h = harness(young.entries, { lastAt: 0, now: CACHE_LIFETIME_MS + 1 });
    expect((await h.elider.beforeRequest()).applied).toBe(true);
  });

  it('returning to a cold cache (coldElidesAll) elides every superseded result, even one too small for a warm batch', async () => {
    // One superseded run of 600 tokens: under the batch minimums (2 results, 2,000 tokens).
    const small = new GenerationBuilder().bash('#b001', 'npm test', 'x\n'.repeat(1200)).bash('#b002', 'npm test', 'y\n'.repeat(1200));
    const cold = { lastAt: 0, now: CACHE_LIFETIME_MS + 1 };
    expect((await harness(small.entries, { ...cold, settings: { coldElidesAll: false } }).elider.beforeRequest()).applied).toBe(false);
    const h = harness(small.entries, { ...cold, settings: { coldElidesAll: true } });
    expect((await h.elider.beforeRequest()).applied).toBe(true);
    expect(h.forgotten).toEqual([['#b001']]);
    expect(h.decisions.take()[0]!.detail).toContain('every superseded result goes now');
    // Warm, the minimums still hold.
    expect((await harness(small.entries, { settings: { coldElidesAll: true } }).elider.beforeRequest()).applied).toBe(false);
  });

  it('a prefix an hour’s entry still holds is warm: eliding inside it is judged as a break, past it as free', async () => {
    const young = new GenerationBuilder()
      .bash('#b001', 'npm test', 'x\n'.repeat(5000))
      .bash('#b002', 'npm run lint', 'x\n'.repeat(5000))
      .bash('#b003', 'npm test', 'y\n'.repeat(5000))
      .bash('#b004', 'npm run lint', 'y\n'.repeat(5000));
    const cold = { lastAt: 0, now: CACHE_LIFETIME_MS + 1 };
    // The first superseded result is in the second entry: an hour's entry over the first four keeps it warm.
    const held = harness(young.entries, { ...cold, hourPrefixEntries: 4 });
    expect((await held.elider.plan())?.judgement.breakCost).toBeGreaterThan(0);
    expect((await held.elider.beforeRequest()).applied).toBe(false);
    // An hour's entry over the opening message alone: the elided results lie past it, so the break is free.
    const past = harness(young.entries, { ...cold, hourPrefixEntries: 1 });
    expect((await past.elider.beforeRequest()).applied).toBe(true);
  });
});
