import type { JournalRecorder } from '../../agent/journalRecorder';
import type { EventHub } from '../../agent/eventHub';
import type { RequestCounter } from '../../agent/requestCounter';
import { effectiveMaxTokens } from '../../agent/maxTokens';
import type { AgentLoopSettings } from '../../agent/agentLoop';
import { Compactor, type CompactorDeps } from '../../compaction/compactor';
import { DEFAULT_COMPACTION_SETTINGS, softLimitTokens, type CompactionSettings } from '../../compaction/settings';
import { ModelSummarizer } from '../../compaction/summarizer';
import type { Composer } from '../../compose/composer';
import type { DecisionQueue } from '../../compose/decisions';
import type { ActiveGeneration } from '../../conversation/activeGeneration';
import { Conversation } from '../../conversation/conversation';
import type { Projection } from '../../conversation/projection';
import { Elider } from '../../elision/elider';
import type { NewJournalRecord } from '../../journal/records';
import type { ResultLedger } from '../../ledger/resultLedger';
import type { ModelClient } from '../../model/types';
import type { Clock } from '../../ports';

/** What one agent's compaction (summary, elision) is built from: the session's agent's, or a child's. */
export interface AgentCompactionInput {
  readonly model: ModelClient;
  readonly settings: () => AgentLoopSettings;
  readonly compaction?: () => CompactionSettings;
  readonly prompts: { readonly normal: string; readonly emergency: string };
  readonly composer: Composer;
  readonly generations: ActiveGeneration;
  readonly decisions: DecisionQueue;
  readonly recorder: JournalRecorder;
  readonly ledger: ResultLedger;
  /** What the journal checkpoints as the ledger's state (the recorder's source). */
  readonly ledgerState: () => unknown;
  readonly journal: { append(record: NewJournalRecord): Promise<unknown> };
  readonly archiveHistory: (markdown: string) => Promise<void>;
  readonly requests: RequestCounter;
  readonly events: Pick<EventHub, 'emit'>;
  readonly clock: Clock;
  readonly log: (line: string) => void;
  readonly project: Projection;
  readonly carryOver?: CompactorDeps['carryOver'];
  readonly beforeCompact?: CompactorDeps['beforeCompact'];
}

/**
 * An agent's context policy: the summarizer, the elider and the compactor that owns both. The session's
 * agent and every child get their own, each writing to its own journal view (a child's records are wrapped).
 */
export function assembleCompaction(input: AgentCompactionInput): Compactor {
  const { model, settings, generations, decisions, recorder, ledger, journal, composer, requests, clock, log } = input;
  const compactionSettings = input.compaction ?? (() => DEFAULT_COMPACTION_SETTINGS);
  const summarizer = new ModelSummarizer({
    model,
    composer,
    mainModel: () => settings().model,
    settings: compactionSettings,
    prompts: input.prompts,
    lastMainRequestAt: () => requests.lastMainAnswerAt,
    clock,
    generation: () => generations.current.number,
    // Compaction's requests leave snapshots and are numbered like the loop's.
    onSnapshot: async (snapshot) => {
      await recorder.snapshot(snapshot);
      input.events.emit({ type: 'request_finished', requestIndex: requests.take(), snapshot });
    },
    log,
  });
  const elider: Elider = new Elider({
    generations,
    decisions,
    recorder,
    ledger,
    ledgerState: input.ledgerState,
    journal,
    staticState: () => composer.staticState(),
    estimate: (entries): number => compactor.estimateNext(new Conversation(entries, 0)),
    settings: () => compactionSettings().elision,
    thresholdTokens: async () => softLimitTokens(compactionSettings().threshold, (await model.modelFacts(settings().model)).maxInputTokens),
    lastRequestAt: () => requests.lastMainAnswerAt,
    hourPrefixEntries: (now) => composer.hourPrefixEntries(now),
    now: () => clock.now(),
    log,
  });
  const compactor = new Compactor({
    generations,
    decisions,
    recorder,
    ledger,
    composer,
    journal,
    ledgerState: input.ledgerState,
    archiveHistory: input.archiveHistory,
    summarizer,
    settings: compactionSettings,
    model: () => settings().model,
    // The max_tokens the loop really sends (the setting lowered to the model's output limit), not the setting.
    maxTokens: () => effectiveMaxTokens(model, settings().model, settings().maxTokens),
    windowTokens: async () => (await model.modelFacts(settings().model)).maxInputTokens,
    log,
    project: input.project,
    elider,
    ...(input.carryOver ? { carryOver: input.carryOver } : {}),
    ...(input.beforeCompact ? { beforeCompact: input.beforeCompact } : {}),
  });
  return compactor;
}
