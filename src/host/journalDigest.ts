/**
 * What the views need from a session's journal, read in one pass: the turns as the chat shows them (for
 * `init` and `olderTurns` pages after a reload), the snapshots for the report, the compaction details and
 * the running totals of the usage meter. Result bodies are never kept: a long session stays small.
 */
import { isElisionDetail, isGenerationDetail } from '../core/conversation/generationDetail';
import { isRewindDetail } from '../core/conversation/rewind';
import { branchNote, keepPlacesInto, turnOfPlace } from './branchView';
import type { AssistantMessage } from '../core/model/types';
import type { JournalRecord, UserMessageRecord } from '../core/journal/records';
import { isSyntheticBlock } from '../core/conversation/conversation';
import type { SessionJournal } from '../core/journal/node/sessionJournal';
import type { CompactionDetails, RequestSnapshotView, TranscriptItem, TurnUsageView, TurnView } from '../shared/protocol';
import { appendAssistant, fillResults, ResultHeads } from './digestItems';
import { SubagentDigest } from './subagentDigest';
import { checkpointsFromRecords } from '../core/checkpoints/checkpointLog';
import { shownInTurn, turnChangesOf } from './checkpointView';
import { isRequestSnapshot, snapshotViewOf, turnUsageOf } from './snapshotView';
import { withTurnUsage } from '../shared/transcript';
import { settleLastThingActions } from '../shared/lastThingActions';
import { SESSION_CLOSED_NOTICE } from '../core/session/closedNotice';
import { actionForError, errorText } from './eventProjection';
import { skillChangesIn } from './skillTrace';
import { userImagesIn, type UserImage, type UserImageViews } from './userImages';

export interface JournalDigest {
  readonly turns: readonly TurnView[];
  readonly snapshots: readonly RequestSnapshotView[];
  readonly compactions: ReadonlyMap<number, CompactionDetails>;
  /** The summary the active generation opens with; null before any compaction (or after its undo). */
  readonly activeSummary: string | null;
  readonly sessionCostUsd: number;
  readonly tokensSaved: number;
  /** The cache-hit share of the last main request that has usage. */
  readonly lastCacheHitShare: number | null;
  /** The first typed user message on one line, at most 80 characters. */
  readonly title: string;
  /** Where each turn's user message sits in the conversation, by turn index (a restore starts from it). */
  readonly userPlaces: ReadonlyMap<number, { readonly generation: number; readonly index: number }>;
}

/**
 * Builds the digest; `records` in journal order (e.g. `journal.readAll()`). `images`: makes the thumbnails of the
 * images users sent (without it, a message shows its images' lines only).
 */
export async function digestJournal(
  records: AsyncIterable<JournalRecord> | Iterable<JournalRecord>,
  images?: UserImageViews,
): Promise<JournalDigest> {
  const turns: { index: number; items: TranscriptItem[]; usage?: TurnUsageView }[] = [];
  // Numbered in journal order: the composer's own count starts again after a reopen.
  const snapshots: RequestSnapshotView[] = [];
  const compactions = new Map<number, CompactionDetails>();
  const summaries = new Map<number, { summary: string; previous: number }>();
  // By the provider's tool_use id, which the ledger stores with every result. A result stored without one
  // (a journal from before the id was stored) is shown without its bracket rather than guessed by order.
  const heads = new ResultHeads();
  const places = new Set<string>();
  /**
   * Blocks of each user message place already shown: a message no request carried yet may grow (the user's
   * text joins the unsent results of a cancelled call) and is journalled again at the same place; only what it
   * gained is new.
   */
  const userBlocksShown = new Map<string, number>();
  let activeGeneration = 0;
  let tokensSaved = 0;
  let title = '';
  let lastToolCalls: string[] = [];
  const userPlaces = new Map<number, { generation: number; index: number }>();
  /** The images each user message carried, by the message's item: their views are made once the journal is read. */
  const sentImages = new Map<TranscriptItem, UserImage[]>();
  /** The note of a branch started before the first message: shown in the new first turn. */
  let pendingNote: TranscriptItem | undefined;

  const currentTurn = (): { index: number; items: TranscriptItem[]; usage?: TurnUsageView } => {
    if (turns.length === 0) turns.push({ index: 0, items: [] });
    return turns[turns.length - 1]!;
  };
  const currentItems = (): TranscriptItem[] => currentTurn().items;
  const firstTimeAt = (record: { generation?: number; index?: number }): boolean => {
    if (record.generation === undefined || record.index === undefined) return true;
    const key = `${record.generation}:${record.index}`;
    if (places.has(key)) return false;
    places.add(key);
    return true;
  };

  /**
   * A user message's blocks from `from` on: results complete their calls; the user's own words (never the
   * blocks Cairn wrote: rules deltas, attached files, a continue prompt) start a turn. A message may hold
   * both: the text the user sent after a cancelled call rides with that call's result.
   */
  const onUser = (record: UserMessageRecord, from: number): void => {
    const blocks = record.message.content.slice(from);
    const entry = { message: record.message, ...(record.syntheticBlocks ? { syntheticBlocks: record.syntheticBlocks } : {}) };
    if (blocks.some((b) => b.type === 'tool_result')) {
      tokensSaved += fillResults(currentItems(), { role: 'user', content: blocks }, heads);
    }
    const texts = record.message.content.flatMap((block, index) => (index >= from && block.type === 'text' ? [{ block, index }] : []));
    // No marks: none of its blocks is Cairn's (the recorder omits an empty list), or a journal from before they
    // were marked, whose rules delta came before the user's text: either way the user's words are the last text.
    const own = record.syntheticBlocks
      ? texts.filter(({ index }) => !isSyntheticBlock(entry, index)).map(({ block }) => block.text)
      : texts.slice(-1).map(({ block }) => block.text);
    if (own.length === 0) return;
    const words = own.join('\n\n');
    if (!title) title = words.replace(/\s+/g, ' ').trim().slice(0, 80);
    // The skills the message turned on or off (`/name`, the skills list): said on the message that carried them.
    const skills = skillChangesIn(record.message, record, from);
    const user: TranscriptItem = skills.length > 0 ? { type: 'user', text: words, skills } : { type: 'user', text: words };
    const attached = userImagesIn(record.message, record, from);
    if (attached.length > 0) sentImages.set(user, attached);
    turns.push({ index: turns.length, items: [user, ...(pendingNote ? [pendingNote] : [])] });
    pendingNote = undefined;
  };

  const onAssistant = (message: AssistantMessage, incomplete: boolean): void => {
    lastToolCalls = appendAssistant(currentItems(), message, incomplete);
  };
  // The children's blocks (issue 19): their records build their transcripts on the parent's `task` lines.
  const children = new SubagentDigest(heads, currentItems);

  for await (const record of records) {
    switch (record.type) {
      case 'user_message': {
        if (record.synthetic) break;
        const place = record.generation === undefined || record.index === undefined ? undefined : `${record.generation}:${record.index}`;
        const shown = place === undefined ? 0 : (userBlocksShown.get(place) ?? 0);
        if (place !== undefined) userBlocksShown.set(place, Math.max(shown, record.message.content.length));
        if (shown >= record.message.content.length) break;
        const turnsBefore = turns.length;
        onUser(record, shown);
        if (turns.length > turnsBefore) userPlaces.set(turns.length - 1, { generation: record.generation ?? 0, index: record.index ?? 0 });
        break;
      }
      case 'checkpoint': {
        // A turn's checkpoint is closed when the turn ends: its files go at the end of the turn.
        const [checkpoint] = checkpointsFromRecords([record]);
        if (checkpoint && shownInTurn(checkpoint)) currentItems().push({ type: 'changes', ...turnChangesOf(checkpoint) });
        break;
      }
      case 'assistant_message':
        if (!firstTimeAt(record)) break;
        onAssistant(record.message, record.incomplete === true);
        break;
      case 'tool_result': {
        const r = record.result;
        const callId = record.callId ?? r.callId;
        if (callId) {
          heads.add(callId, {
            id: r.id,
            tool: r.tool,
            bracket: r.bracket,
            kind: r.kind,
            fullChars: r.body.length,
            ...(r.durationMs !== undefined ? { durationMs: r.durationMs } : {}),
            ...(r.imageTokensKeptOut !== undefined ? { imageTokensKeptOut: r.imageTokensKeptOut } : {}),
          });
        }
        break;
      }
      case 'subagent_started':
      case 'subagent_finished':
        children.observe(record);
        break;
      case 'subagent_record': {
        const snapshot = children.observe(record);
        if (snapshot) {
          snapshots.push({ ...snapshot, index: snapshots.length, turn: Math.max(turns.length - 1, 0) });
          addToTurnUsage(currentTurn(), snapshot);
        }
        break;
      }
      case 'notice':
        currentItems().push({
          type: 'notice',
          level: record.level,
          kind: record.kind,
          message: record.message,
          // A turn the window's reload or close stopped: Continue, while nothing came after it.
          ...(record.kind === SESSION_CLOSED_NOTICE.kind ? { action: 'continue' as const } : {}),
        });
        break;
      case 'run_failed': {
        // The card the live chat showed (`eventProjection.ts`); its Retry stays only while nothing came after it.
        const action = actionForError(record.kind);
        currentItems().push({
          type: 'error',
          kind: record.kind,
          message: errorText(record.message, record.advice),
          ...(action ? { action } : {}),
        });
        break;
      }
      case 'snapshot':
        if (isRequestSnapshot(record.snapshot)) {
          const view = snapshotViewOf(record.snapshot);
          snapshots.push({ ...view, index: snapshots.length, turn: Math.max(turns.length - 1, 0) });
          addToTurnUsage(currentTurn(), view);
        }
        break;
      case 'generation_started':
        if (isGenerationDetail(record.detail)) {
          const d = record.detail;
          compactions.set(record.generation, { generation: record.generation, summary: d.summary, filesTable: d.filesTable });
          summaries.set(record.generation, { summary: d.summary, previous: d.previousGeneration });
          currentItems().push({
            type: 'compaction',
            generation: record.generation,
            tokensBefore: d.tokensBefore,
            tokensAfter: d.tokensAfter,
            hasDetails: true,
          });
        } else if (isElisionDetail(record.detail)) {
          // An elision keeps the generation's opening (and its summary); undo returns to the one it came from.
          const prior = summaries.get(record.detail.previousGeneration);
          summaries.set(record.generation, { summary: prior?.summary ?? '', previous: record.detail.previousGeneration });
        }
        if (isRewindDetail(record.detail)) {
          // Edit and resend, regenerate, restore of the conversation: the chat shows the new branch only.
          const from = turnOfPlace(userPlaces, record.detail.previousGeneration, record.detail.fromIndex);
          if (from !== undefined) {
            const dropped = turns.length - from;
            turns.length = from;
            for (const turn of [...userPlaces.keys()]) if (turn >= from) userPlaces.delete(turn);
            const note = branchNote(record.detail.reason, from, dropped);
            if (from > 0) turns[from - 1]!.items.push(note);
            else pendingNote = note;
          }
        }
        if (isRewindDetail(record.detail) || isElisionDetail(record.detail)) {
          // Both open with the previous generation's first entries at the same indexes: those messages can still be returned to.
          keepPlacesInto(userPlaces, record.detail.previousGeneration, record.detail.entries.length, record.generation);
        }
        activeGeneration = record.generation;
        break;
      case 'compaction_undone': {
        const previous = summaries.get(record.generation)?.previous ?? 0;
        // An undone elision's generation held the same messages at the same places: they are the earlier one's again.
        keepPlacesInto(userPlaces, record.generation, Number.POSITIVE_INFINITY, previous);
        activeGeneration = previous;
        break;
      }
      default:
        break;
    }
  }

  tokensSaved += children.finish();
  // A call with no result that is not the newest was cut off by a crash or a cancel.
  for (const turn of turns) {
    turn.items = turn.items.map((item) =>
      item.type === 'tool' && item.status === 'running' && !lastToolCalls.includes(item.callId) ? { ...item, status: 'cancelled' } : item,
    );
  }
  for (const turn of turns) {
    const user = turn.items[0];
    const attached = user && sentImages.get(user);
    if (user?.type !== 'user' || !attached) continue;
    const views = images ? await images.of(attached) : attached.map(({ line }) => ({ line }));
    turn.items[0] = { ...user, images: views };
  }
  const withUsage = snapshots.filter((s) => s.purpose === 'main' && s.agent === undefined && s.cacheHitShare !== undefined);
  return {
    turns: settleLastThingActions(turns),
    snapshots,
    compactions,
    activeSummary: summaries.get(activeGeneration)?.summary || null,
    sessionCostUsd: snapshots.reduce((sum, s) => sum + (s.costUsd ?? 0), 0),
    tokensSaved,
    lastCacheHitShare: withUsage.at(-1)?.cacheHitShare ?? null,
    title,
    userPlaces,
  };
}

/** The digest of an open journal, computed again only once the journal has grown. */
export class JournalDigestCache {
  private cached: { seq: number; digest: JournalDigest } | undefined;

  constructor(private readonly images?: UserImageViews) {}

  async of(journal: Pick<SessionJournal, 'lastSeq' | 'readAll'>): Promise<JournalDigest> {
    const seq = journal.lastSeq;
    const cached = this.cached;
    if (cached && cached.seq === seq) return cached.digest;
    const digest = await digestJournal(journal.readAll(), this.images);
    this.cached = { seq, digest };
    return digest;
  }

  /** Forgets it (another session, or a change the journal's length does not show). */
  clear(): void {
    this.cached = undefined;
  }
}

/**
 * Adds a request's tokens and cost to its turn's usage line, as the live chat does (`turnUsage`): every
 * request of the session agent (its compaction requests too) and of its sub-agents. Kept on the turn itself, so a
 * branch that drops turns drops their figures with them.
 */
function addToTurnUsage(turn: { usage?: TurnUsageView }, view: Omit<RequestSnapshotView, 'index'>): void {
  const event = turnUsageOf(view, 0);
  if (event) turn.usage = withTurnUsage(turn.usage, event);
}
