/**
 * The harness of the Compactor's unit tests (`src/core/compaction/compactor*.test.ts`): fakes for its ports
 * (a summarizer that returns a fixed text, throws or waits for a cancel; a composer whose estimate is the
 * number of characters in the messages, so thresholds are exact; a recording journal, recorder and ledger)
 * around the real `ActiveGeneration` and `DecisionQueue`. Only history.md touches the disk (a temp folder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { NewJournalRecord } from '../../../src/core/journal/records';
import { DecisionQueue } from '../../../src/core/compose/decisions';
import type { StaticState } from '../../../src/core/compose/staticPart';
import { ActiveGeneration } from '../../../src/core/conversation/activeGeneration';
import type { Conversation } from '../../../src/core/conversation/conversation';
import type { ModelRequest } from '../../../src/core/model/types';
import type { TokenEstimate } from '../../../src/core/tokens/tokenEstimator';
import { Compactor, type CompactorDeps } from '../../../src/core/compaction/compactor';
import { appendHistory } from '../../../src/core/compaction/node/historyArchive';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/core/compaction/settings';
import type { Summarizer, SummaryRequest } from '../../../src/core/compaction/summarizer';
import { Elider } from '../../../src/core/elision/elider';

// ---------------------------------------------------------------------------------------------------
// Fakes

/** Window 10,000 tokens: the soft threshold is 8,000 (80%); the hard fit fails above 9,900 (reserve 100, no margin). */
export const WINDOW = 10_000;
export const HARD = 9_900;
export const SETTINGS: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, safetyMarginTokens: 0, completionReserveTokens: 16_000 };
export const MAX_TOKENS = 100;

export const SUMMARY = 'The user asked for X; results #a001 and #beef1 matter.';
export const FILES_TABLE = '| file | result |\n| src/a.ts | #a001 |';

/** The estimate is the characters of the messages' text, tool inputs and results: exact and cheap. */
export function charsOf(request: ModelRequest): number {
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

export class FakeComposer {
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

  /** The fake's place: which static part it has (its number), so an undo can return to it. */
  generationMark(): { started: number } {
    return { started: this.generationsStarted };
  }

  returnTo(mark: { started: number }): void {
    this.generationsStarted = mark.started;
    this.log.push('composer.returnTo');
  }
}

export type SummarizerBehaviour = (request: SummaryRequest, signal: AbortSignal) => Promise<string>;

export class FakeSummarizer implements Summarizer {
  readonly requests: SummaryRequest[] = [];
  constructor(public behaviour: SummarizerBehaviour = async () => SUMMARY) {}

  async summarize(request: SummaryRequest, signal: AbortSignal) {
    this.requests.push(request);
    return { text: await this.behaviour(request, signal), model: 'summary-model', attempts: 1 };
  }
}

export interface Harness {
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

/** A temp folder per test for history.md (call once at the top of a test file). */
export function useScratchFolder(): void {
  beforeEach(() => {
    scratch = mkdtempSync(join(tmpdir(), 'cairn-compactor-'));
  });
  afterEach(() => {
    rmSync(scratch, { recursive: true, force: true });
  });
}

/** This test's temp folder (the session folder history.md goes to). */
export function scratchFolder(): string {
  return scratch;
}

export function compactorWith(
  overrides: {
    sessionDir?: string;
    settings?: Partial<CompactionSettings>;
    elision?: boolean;
    /** When the main model last answered and what time it is now (ms), for the elider's cold cache. */
    lastRequestAt?: number;
    now?: number;
    /** The PreCompact hooks as the compactor calls them (`hooks/compactionHook.ts`). */
    beforeCompact?: CompactorDeps['beforeCompact'];
  } = {},
): Harness {
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
    },
    ledgerState: () => {
      order.push('ledgerState');
      return { cleared: true };
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
    ...(overrides.beforeCompact ? { beforeCompact: overrides.beforeCompact } : {}),
  };
  // The real elider over the same fakes: its estimate is the fake composer's (characters), its journal the same.
  const elider = overrides.elision
    ? new Elider({
        generations,
        decisions,
        recorder: deps.recorder,
        ledger: { forgetReads: (ids) => void order.push(`forgetReads:${ids.join(',')}`) },
        ledgerState: deps.ledgerState,
        journal: deps.journal,
        staticState: () => composer.staticState(),
        estimate: (entries) => charsOf({ model: 'm', max_tokens: 1, system: [], tools: [], messages: entries.map((e) => e.message) }),
        settings: () => deps.settings().elision,
        thresholdTokens: async () => WINDOW * 0.8,
        lastRequestAt: () => overrides.lastRequestAt,
        ...(overrides.now !== undefined ? { now: () => overrides.now! } : {}),
        log: deps.log,
      })
    : undefined;
  return Object.assign(harness, { compactor: new Compactor({ ...deps, ...(elider ? { elider } : {}) }) });
}

/** Appends `count` sent turns: a user message of `userChars` characters and an assistant answer of `assistantChars`. */
export function addTurns(conversation: Conversation, count: number, userChars: number, assistantChars = userChars): void {
  for (let i = 0; i < count; i++) {
    conversation.appendUser([{ type: 'text', text: 'u'.repeat(userChars) }]);
    conversation.markSent();
    conversation.appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'a'.repeat(assistantChars) }] });
  }
}

export const signal = () => new AbortController().signal;

export function recordsOf<T extends NewJournalRecord['type']>(h: Harness, type: T): Array<Extract<NewJournalRecord, { type: T }>> {
  return h.journalled.map((j) => j.record).filter((r): r is Extract<NewJournalRecord, { type: T }> => r.type === type);
}

export function noticeEvents(events: readonly AgentEvent[]): Array<Extract<AgentEvent, { type: 'notice' }>> {
  return events.filter((e): e is Extract<AgentEvent, { type: 'notice' }> => e.type === 'notice');
}
