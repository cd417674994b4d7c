import type { NewJournalRecord } from '../journal/records';
import type { ActiveGeneration, GenerationRef } from './activeGeneration';
import { compactionOpeningBlocks } from './compactionOpening';
import type { ConversationEntry } from './conversation';

/**
 * What a `generation_started` record holds when a generation starts again from an earlier message of the
 * previous one (a restore of files and conversation, an edit-and-resend): the messages kept before it.
 * Like compaction's detail, the opening entries are inside the one record, so a crash leaves it all or nothing.
 */
export interface RewindDetail {
  readonly kind: 'rewind';
  readonly previousGeneration: number;
  /** The message the new generation starts before (its index in the previous generation). */
  readonly fromIndex: number;
  /** Why (shown in the journal and the report): "restore files and conversation", "edit and resend". */
  readonly reason: string;
  readonly entries: readonly ConversationEntry[];
}

export function isRewindDetail(value: unknown): value is RewindDetail {
  if (!value || typeof value !== 'object') return false;
  const detail = value as Partial<RewindDetail>;
  return detail.kind === 'rewind' && Array.isArray(detail.entries) && Number.isSafeInteger(detail.fromIndex);
}

export class RewindRangeError extends Error {
  constructor(index: number, length: number) {
    super(
      `Message ${index} is not a user message of the current conversation (it has ${length} messages; messages before the last compaction cannot be returned to). Restore the files only, or pick a later message.`,
    );
    this.name = 'RewindRangeError';
  }
}

/**
 * What a new generation started before user message `index` keeps: the messages before it and, when that
 * message also answers the calls of the message before it (the user's text joined the unsent results of a
 * failed or cancelled request, or a Retry's turn began at a results message), those results, so every kept
 * `tool_use` still has its one result. The results stay unsent: the next user message joins them.
 * A compacted generation's first message keeps the compaction's opening (the summary and the durable state,
 * `compactionOpening.ts`), which stands for everything before: going back before the user's message does not go
 * back before the compaction (found by the model-based history suite: the summary was dropped and the model
 * forgot the conversation). It stays unsent too, and the next user message joins it.
 * Throws `RewindRangeError` when `index` is not a message to go back to (call it before changing anything).
 */
export function entriesBeforeMessage(entries: readonly ConversationEntry[], index: number): ConversationEntry[] {
  const at = entries[index];
  if (!at || at.message.role !== 'user' || at.synthetic) throw new RewindRangeError(index, entries.length);
  const kept = entries.slice(0, index);
  const results = at.message.content.filter((block) => block.type === 'tool_result');
  const opening = index === 0 ? compactionOpeningBlocks(at) : [];
  if (results.length > 0 || opening.length > 0) {
    // Index 0 has no results (nothing before it called a tool), so the message is one or the other.
    kept.push(
      results.length > 0
        ? { message: { role: 'user', content: results } }
        : { message: { role: 'user', content: opening }, synthetic: true },
    );
  }
  return kept;
}

export interface RewindDeps {
  readonly generations: ActiveGeneration;
  readonly journal: { append(record: NewJournalRecord): Promise<unknown> };
  /** Before the new generation is recorded: what must forget the dropped messages (the ledger's dedupe). */
  readonly beforeBegin?: () => Promise<void>;
  /** The ledger's state as the journal checkpoints it, written into the new generation's record. */
  readonly ledgerState?: () => unknown;
  /** After it is current: its static part is journalled (the same as the previous one's). */
  readonly afterBegin?: (generation: number) => Promise<void>;
}

/**
 * Starts a new generation holding the current one's messages before user message `index`: a deliberate,
 * recorded break (a `generation_started` record with a `rewind` detail); generation numbers, result ids and
 * request numbers continue. The previous generation stays in the journal as it was. Returns the new one.
 */
export async function startGenerationFromMessage(deps: RewindDeps, index: number, reason: string): Promise<GenerationRef> {
  const previous = deps.generations.current;
  const kept = entriesBeforeMessage(previous.conversation.all(), index);
  const generation = deps.generations.nextNumber;
  const detail: RewindDetail = { kind: 'rewind', previousGeneration: previous.number, fromIndex: index, reason, entries: kept };
  // Forgotten before the record, which carries the state after it: a crash just after the record can never
  // reopen the new generation with stubs naming results of the dropped messages.
  await deps.beforeBegin?.();
  await deps.journal.append({
    type: 'generation_started',
    generation,
    detail,
    ...(deps.ledgerState ? { ledgerState: deps.ledgerState() } : {}),
  });
  const started = deps.generations.begin(kept, { kind: 'rewind', kept: index });
  await deps.afterBegin?.(started.number);
  return started;
}
