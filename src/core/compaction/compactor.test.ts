/**
 * The `Compactor` on its own, one test per promise, with fakes for its ports: a summarizer that returns a
 * fixed text (or throws, or waits for a cancel), a composer whose estimate is the number of characters in
 * the messages (so thresholds are exact), a recording journal, recorder and ledger. `ActiveGeneration` and
 * `DecisionQueue` are the real ones. Only history.md touches the disk (a temp folder).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/events';
import type { ContextChange } from '../agent/ports';
import type { NewJournalRecord } from '../journal/records';
import { DecisionQueue } from '../compose/decisions';
import type { StaticState } from '../compose/staticPart';
import { ActiveGeneration, type GenerationRef } from '../conversation/activeGeneration';
import type { Conversation } from '../conversation/conversation';
import type { GenerationDetail } from '../conversation/generationDetail';
import type { ModelRequest } from '../model/types';
import type { TokenEstimate } from '../tokens/tokenEstimator';
import { Compactor, type CompactorDeps } from './compactor';
import { appendHistory, HISTORY_FILE } from './node/historyArchive';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from './settings';
import type { Summarizer, SummaryRequest } from './summarizer';

// ---------------------------------------------------------------------------------------------------
// Fakes

/** Window 10,000 tokens: the soft threshold is 8,000 (80%); the hard fit fails above 9,900 (reserve 100, no margin). */
const WINDOW = 10_000;
const HARD = 9_900;
const SETTINGS: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, safetyMarginTokens: 0, completionReserveTokens: 16_000 };
const MAX_TOKENS = 100;

const SUMMARY = 'The user asked for X; results #a001 and #beef1 matter.';
const FILES_TABLE = '| file | result |\n| src/a.ts | #a001 |';

/** The estimate is the characters of the messages' text, tool inputs and results: exact and cheap. */
function charsOf(request: ModelRequest): number {
  let chars = 0;
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'text') chars += block.text.length;
      else if (block.type === 'tool_result') chars += typeof block.content === 'string' ? block.content.length : 0;
      else if (block.type === 'tool_use') chars += JSON.stringify(block.input).length;
    }
  }
  return chars;
}

class FakeComposer {
  generationsStarted = 0;
  constructor(private readonly log: string[]) {}

  staticPrefix(): { system: []; tools: [] } {
    return { system: [], tools: [] };
  }

  estimate(request: ModelRequest): TokenEstimate {
    const tokens = charsOf(request);
    return { tokens, rawTokens: tokens, runTokens: 0, ratio: 1, runRatio: 1, strategy: 'chars', confidence: 'low' } as TokenEstimate;
  }

  async startGeneration(): Promise<void> {
    this.generationsStarted++;
    this.log.push('composer.startGeneration');
  }

  staticState(): StaticState {
    return { version: 1, system: [{ type: 'text', text: `static ${this.generationsStarted}` }], sources: [], rules: [] };
  }
}

type SummarizerBehaviour = (request: SummaryRequest, signal: AbortSignal) => Promise<string>;

class FakeSummarizer implements Summarizer {
  readonly requests: SummaryRequest[] = [];
  constructor(public behaviour: SummarizerBehaviour = async () => SUMMARY) {}

  async summarize(request: SummaryRequest, signal: AbortSignal) {
    this.requests.push(request);
    return { text: await this.behaviour(request, signal), model: 'summary-model', attempts: 1 };
  }
}

interface Harness {
  readonly compactor: Compactor;
  readonly generations: ActiveGeneration;
  readonly decisions: DecisionQueue;
  readonly summarizer: FakeSummarizer;
  readonly composer: FakeComposer;
  /** Every journal record, with the generation that was current when it was appended. */
  readonly journalled: Array<{ record: NewJournalRecord; current: number }>;
  readonly notices: Array<{ level: string; kind: string; message: string }>;
  /** The order of the side effects (journal appends, dedupe clearing, checkpoints, static part). */
  readonly order: string[];
  readonly logLines: string[];
  readonly stored: Set<string>;
  windowCalls: number;
  conversation(): Conversation;
}

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cairn-compactor-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function compactorWith(overrides: { sessionDir?: string; settings?: Partial<CompactionSettings> } = {}): Harness {
  const generations = new ActiveGeneration();
  const decisions = new DecisionQueue();
  const order: string[] = [];
  const composer = new FakeComposer(order);
  const summarizer = new FakeSummarizer();
  const journalled: Harness['journalled'] = [];
  const notices: Harness['notices'] = [];
  const logLines: string[] = [];
  const stored = new Set(['#a001']);
  const harness: Harness = {
    compactor: undefined as unknown as Compactor,
    generations,
    decisions,
    summarizer,
    composer,
    journalled,
    notices,
    order,
    logLines,
    stored,
    windowCalls: 0,
    conversation: () => generations.current.conversation,
  };
  const deps: CompactorDeps = {
    generations,
    decisions,
    recorder: {
      notice: async (level, kind, message) => {
        order.push(`notice:${kind}`);
        notices.push({ level, kind, message });
      },
      checkpointLedgerState: async () => {
        order.push('checkpoint');
      },
    },
    ledger: {
      filesTable: () => FILES_TABLE,
      clearDedupe: () => {
        order.push('clearDedupe');
      },
      has: (id: string) => stored.has(id),
    },
    composer: composer as unknown as CompactorDeps['composer'],
    // The real history.md writer, as the assembly gives it.
    archiveHistory: (markdown) => appendHistory(overrides.sessionDir ?? scratch, markdown),
    journal: {
      append: async (record: NewJournalRecord) => {
        order.push(`journal:${record.type}`);
        journalled.push({ record: structuredClone(record), current: generations.current.number });
        return journalled.length;
      },
    },
    summarizer,
    settings: () => ({ ...SETTINGS, ...overrides.settings }),
    model: () => 'main-model',
    maxTokens: () => MAX_TOKENS,
    windowTokens: async () => {
      harness.windowCalls++;
      return WINDOW;
    },
    log: (line) => logLines.push(line),
  };
  return Object.assign(harness, { compactor: new Compactor(deps) });
}

/** Appends `count` sent turns: a user message of `userChars` characters and an assistant answer of `assistantChars`. */
function addTurns(conversation: Conversation, count: number, userChars: number, assistantChars = userChars): void {
  for (let i = 0; i < count; i++) {
    conversation.appendUser([{ type: 'text', text: 'u'.repeat(userChars) }]);
    conversation.markSent();
    conversation.appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(assistantChars) }] });
  }
}

const signal = () => new AbortController().signal;

function recordsOf<T extends NewJournalRecord['type']>(h: Harness, type: T): Array<Extract<NewJournalRecord, { type: T }>> {
  return h.journalled.map((j) => j.record).filter((r): r is Extract<NewJournalRecord, { type: T }> => r.type === type);
}

function noticeEvents(events: readonly AgentEvent[]): Array<Extract<AgentEvent, { type: 'notice' }>> {
  return events.filter((e): e is Extract<AgentEvent, { type: 'notice' }> => e.type === 'notice');
}

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
    expect(readFileSync(join(scratch, HISTORY_FILE), 'utf8')).toContain('## Generation 0, summarized into generation 1');
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

  it("clears the dedupe tables and checkpoints them, then journals the new generation's static part", async () => {
    const { h } = await overSoft();
    expect(h.order).toEqual([
      'journal:generation_started',
      'clearDedupe',
      'checkpoint',
      'composer.startGeneration',
      'journal:static_context',
    ]);
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

  it('a new generation lifts the block', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 3, 5);
    addTurns(h.conversation(), 1, 4_200);
    await h.compactor.beforeRequest(signal());
    expect(h.logLines.filter((l) => l.startsWith('[Context] automatic compaction'))).toHaveLength(1);

    // Another generation (of the same length) is not the one the block was for.
    const entries = h.conversation().all();
    h.generations.begin(entries);
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

describe('Compactor: failures', () => {
  it('a summary that fails is not applied: a compaction_failed warning is journalled and returned', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    h.summarizer.behaviour = async () => {
      throw new Error('the model is down');
    };
    const before = h.generations.current;

    const outcome = await h.compactor.compact({ reason: 'manual' }, signal());

    expect(outcome.applied).toBe(false);
    expect(h.generations.current).toBe(before);
    expect(h.journalled.map((j) => j.record.type)).toEqual([]);
    expect(h.order).toEqual(['notice:compaction_failed']);
    const reason = 'The summary could not be written (the model is down); the conversation continues uncompacted.';
    expect(outcome).toEqual({
      applied: false,
      reason,
      events: [{ type: 'notice', level: 'warning', kind: 'compaction_failed', message: reason }],
    });
    expect(h.notices).toEqual([{ level: 'warning', kind: 'compaction_failed', message: reason }]);
    expect(h.decisions.take()).toEqual([]);
  });

  // "On any failure the conversation goes on uncompacted with a notice": only an automatic attempt that
  // finds nothing worth compacting stays quiet (a failing summary model once did too, until the hard fit).
  it('an automatic attempt whose summary fails warns (not only a log line)', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 700);
    h.summarizer.behaviour = async () => {
      throw new Error('the model is down');
    };
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(false);
    expect(noticeEvents(change.events).map((e) => e.kind)).toEqual(['compaction_failed']);
  });

  it('a cancelled summary leaves the conversation unchanged', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const controller = new AbortController();
    h.summarizer.behaviour = (_request, summarySignal) =>
      new Promise((_resolve, reject) => {
        summarySignal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        controller.abort();
      });
    const before = h.generations.current;

    const outcome = await h.compactor.compact({ reason: 'manual' }, controller.signal);

    expect(outcome).toMatchObject({ applied: false, reason: 'Compaction was cancelled; the conversation is unchanged.' });
    expect(h.generations.current).toBe(before);
    expect(h.journalled).toEqual([]);
    expect(h.compactor.canUndo).toBe(false);
  });

  it('a plan made before the conversation grew is refused', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const planned = await h.compactor.plan({ reason: 'manual' }, signal());
    if (!planned.ok) throw new Error(planned.reason);
    h.conversation().appendUser([{ type: 'text', text: 'meanwhile' }]);

    const outcome = await h.compactor.apply(planned.plan);

    expect(outcome).toEqual({
      applied: false,
      reason: 'The conversation moved on since this compaction was prepared; prepare it again.',
      events: [],
    });
    expect(h.generations.current.number).toBe(0);
    expect(h.journalled).toEqual([]);
  });

  it('a plan for a generation that is no longer current is refused', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const planned = await h.compactor.plan({ reason: 'manual' }, signal());
    if (!planned.ok) throw new Error(planned.reason);
    expect((await h.compactor.apply(planned.plan)).applied).toBe(true);
    expect((await h.compactor.apply(planned.plan)).applied).toBe(false);
    expect(h.generations.current.number).toBe(1);
  });

  it('history.md that cannot be written is a warning; the compaction is still applied', async () => {
    const h = compactorWith({ sessionDir: join(scratch, 'no', 'such', 'folder') });
    addTurns(h.conversation(), 6, 100);

    const outcome = await h.compactor.compact({ reason: 'manual' }, signal());

    expect(outcome.applied).toBe(true);
    expect(h.generations.current.number).toBe(1);
    expect(outcome.events.map((e) => e.type)).toEqual(['notice', 'compacted']);
    expect(noticeEvents(outcome.events)[0]).toMatchObject({ level: 'warning', kind: 'history_archive' });
    expect(noticeEvents(outcome.events)[0]!.message).toContain('the journal still has all of it');
    expect(h.notices.map((n) => n.kind)).toEqual(['history_archive']);
  });
});

describe('Compactor: undo', () => {
  it('can undo until a request is sent in the new generation', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    expect(h.compactor.canUndo).toBe(false);
    await h.compactor.compact({ reason: 'manual' }, signal());
    expect(h.compactor.canUndo).toBe(true);

    h.conversation().markSent();

    expect(h.compactor.canUndo).toBe(false);
    expect(await h.compactor.undo()).toEqual({ undone: false, events: [] });
    expect(h.generations.current.number).toBe(1);
  });

  it('undo restores the previous generation object and journals compaction_undone', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const previous: GenerationRef = h.generations.current;
    await h.compactor.compact({ reason: 'manual' }, signal());
    h.journalled.length = 0;
    h.order.length = 0;

    const undone = await h.compactor.undo();

    expect(undone.undone).toBe(true);
    expect(h.generations.current).toBe(previous);
    expect(h.conversation().length).toBe(12);
    expect(h.order).toEqual([
      'journal:compaction_undone',
      'composer.startGeneration',
      'journal:static_context',
      'notice:compaction_undone',
    ]);
    expect(h.journalled.map((j) => j.record)).toEqual([
      { type: 'compaction_undone', generation: 1 },
      { type: 'static_context', generation: 0, state: h.composer.staticState() },
    ]);
    const message = 'The last compaction was undone; generation 0 is active again.';
    expect(undone.events).toEqual([{ type: 'notice', level: 'info', kind: 'compaction_undone', message }]);
    expect(h.compactor.canUndo).toBe(false);
    // Generation numbers are never given twice: the next compaction is generation 2.
    await h.compactor.compact({ reason: 'manual' }, signal());
    expect(h.generations.current.number).toBe(2);
  });

  it('the automatic trigger makes a compaction final once the new generation was sent', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    await h.compactor.compact({ reason: 'manual' }, signal());
    h.conversation().markSent();
    await h.compactor.beforeRequest(signal());
    // Even if the new generation's conversation were to look unsent again, the compaction stays final.
    h.conversation().unmarkSent(0);
    expect(h.compactor.canUndo).toBe(false);
  });
});

describe('Compactor: escalation', () => {
  async function compactOnce(h: Harness): Promise<readonly AgentEvent[]> {
    addTurns(h.conversation(), 6, 100);
    const outcome = await h.compactor.compact({ reason: 'manual' }, signal());
    if (!outcome.applied) throw new Error(outcome.reason);
    return outcome.events;
  }

  it('warns at the second compaction of a run and is critical from the third; startRun() resets the count', async () => {
    const h = compactorWith();
    h.compactor.startRun();
    expect(noticeEvents(await compactOnce(h))).toEqual([]);
    const second = noticeEvents(await compactOnce(h));
    expect(second.map((e) => [e.level, e.kind])).toEqual([['warning', 'compaction_escalation']]);
    const third = noticeEvents(await compactOnce(h));
    expect(third.map((e) => [e.level, e.kind])).toEqual([['critical', 'compaction_escalation']]);
    expect(third[0]!.message).toMatch(/^3 compactions in this run/);
    expect(h.notices.map((n) => n.level)).toEqual(['warning', 'critical']);

    h.compactor.startRun();
    expect(noticeEvents(await compactOnce(h))).toEqual([]);
    expect(noticeEvents(await compactOnce(h)).map((e) => e.level)).toEqual(['warning']);
  });

  it('returns the escalation after the compacted event', async () => {
    const h = compactorWith();
    await compactOnce(h);
    expect((await compactOnce(h)).map((e) => e.type)).toEqual(['compacted', 'notice']);
  });
});
