/**
 * What the model-based history suite checks after every step (README.md beside this file). Each check throws
 * a `HistoryCheckError` naming the step and what broke; fast-check then shrinks the sequence.
 */
import type { ConversationEntry } from '../../../src/core/conversation/conversation';
import { isSyntheticBlock } from '../../../src/core/conversation/conversation';
import { compactionOpeningBlocks } from '../../../src/core/conversation/compactionOpening';
import { replayConversation } from '../../../src/core/conversation/replay';
import { historyViolations } from '../../../src/core/history/invariants';
import type { JournalRecordType, LoadedRecord } from '../../../src/core/journal/records';
import type { HistoryModel } from './model';
import type { HistoryRig } from './rig';

export class HistoryCheckError extends Error {
  constructor(
    readonly step: string,
    readonly check: string,
    detail: string,
  ) {
    super(`after ${step}: ${check}: ${detail}`);
    this.name = 'HistoryCheckError';
  }
}

/** The user's own texts in a generation's messages, in order: each with the index of its message. */
export function userTexts(entries: readonly ConversationEntry[]): Array<{ text: string; index: number }> {
  const texts: Array<{ text: string; index: number }> = [];
  entries.forEach((entry, index) => {
    if (entry.message.role !== 'user' || entry.synthetic) return;
    entry.message.content.forEach((block, i) => {
      if (block.type === 'text' && !isSyntheticBlock(entry, i) && /^u\d+ /.test(block.text)) texts.push({ text: block.text, index });
    });
  });
  return texts;
}

/** Everything the suite checks after a step; `step` names it in the error. */
export async function checkStep(model: HistoryModel, rig: HistoryRig, step: string): Promise<void> {
  const fail = (check: string, detail: string): never => {
    throw new HistoryCheckError(step, check, detail);
  };
  const session = rig.session;
  const entries = session.generation.conversation.all();

  // 1. The invariants of core/history, on the conversation as the move left it (not after checkHistory's repair).
  const violations = historyViolations(entries, { atRest: true, references: true });
  if (violations.length > 0) fail('history invariants', violations.map((v) => `${v.kind} at ${v.entry}: ${v.detail}`).join('; '));
  // The session's own check after each move logs what it found (and repairs an unanswered last call): any line is a violation.
  const found = rig.newLogLines().filter((line) => line.startsWith('[History]'));
  if (found.length > 0) fail('history invariants (the session found)', found.join('; '));

  // 2. Every request the server received was valid: a non-200 answer is only ever one the script asked for.
  for (const request of rig.newRequests()) {
    if (request.kind !== 'main' && request.kind !== 'compaction') continue;
    if (request.status !== 200 && !request.fault) {
      fail(
        'requests',
        `request ${request.index} (${request.kind}${request.agent ? `, ${request.agent}` : ''}) got ${request.status}: ${request.error}`,
      );
    }
  }
  // The script and the session agree on the requests made: none was answered from a turn meant for another.
  if (rig.server.notices.length > 0) fail('script', rig.server.notices.join('; '));
  if (!rig.server.player.done) fail('script', `turns left unplayed from ${rig.server.player.position}`);
  const unplayed = rig.server.player.unplayedChildTurns();
  if (unplayed.length > 0) fail('script', `children's turns left unplayed: ${unplayed.map((t) => `${t.agent} #${t.index}`).join(', ')}`);

  // 3. The session agrees with the model.
  if (session.generation.number !== model.generation) {
    fail('generation', `the session is in generation ${session.generation.number}, the model expects ${model.generation}`);
  }
  if (session.hasUnanswered !== model.unanswered) {
    fail('waiting message', `hasUnanswered is ${session.hasUnanswered}, the model expects ${model.unanswered}`);
  }
  if (session.canUndoCompaction !== (model.undoable !== undefined)) {
    fail('undo offered', `canUndoCompaction is ${session.canUndoCompaction}, the model expects ${model.undoable !== undefined}`);
  }
  const texts = userTexts(entries).map((t) => t.text);
  const expected = model.branch.map((t) => t.text);
  // A compaction summarises the older texts: the generation holds the newest ones, in order, and none other.
  if (texts.length > expected.length || texts.some((text, i) => text !== expected[expected.length - texts.length + i])) {
    fail('user texts', `the generation holds [${texts.join(' | ')}]; the branch is [${expected.join(' | ')}]`);
  }
  // Texts the generation no longer holds were summarised: the summary must then be in front of the model.
  if (texts.length < expected.length && !holdsSummary(entries)) {
    fail(
      'summary',
      `the branch's texts [${expected.slice(0, expected.length - texts.length).join(' | ')}] are neither in the generation nor in a summary`,
    );
  }
  const files = rig.files();
  for (const path of new Set([...files.keys(), ...model.files.keys()])) {
    if (files.get(path) !== model.files.get(path)) {
      fail('files', `${path} is ${describe(files.get(path))} on disk, the model expects ${describe(model.files.get(path))}`);
    }
  }

  // 4. What a reopen would show now: the journal replays to the very conversation the session holds.
  const records: LoadedRecord[] = [];
  for await (const record of rig.assembled.journal.readAll({ types: REPLAYED })) records.push(record as LoadedRecord);
  const replayed = replayConversation(records);
  if (replayed.number !== session.generation.number) {
    fail('journal', `a reopen would be in generation ${replayed.number}, the session is in ${session.generation.number}`);
  }
  const mine = JSON.stringify(entries.map(comparable));
  const theirs = JSON.stringify(replayed.conversation.all().map(comparable));
  if (mine !== theirs) fail('journal', `a reopen would replay another conversation:\n  session ${mine}\n  journal ${theirs}`);

  // 5. Each checkpoint is the model's, and names the message of its turn when its generation is the active one.
  const list = session.checkpoints?.list() ?? [];
  const ids = list.map((c) => c.id);
  const known = model.checkpoints.map((c) => c.id);
  if (ids.join() !== known.join()) fail('checkpoints', `the session has [${ids.join(', ')}], the model [${known.join(', ')}]`);
  for (const checkpoint of list) {
    const fact = model.checkpoints.find((c) => c.id === checkpoint.id)!;
    if (checkpoint.turn.generation !== fact.generation) {
      fail('checkpoint place', `${checkpoint.id} names generation ${checkpoint.turn.generation}; its turn began in ${fact.generation}`);
    }
    if (
      checkpoint.turn.generation !== session.generation.number ||
      !model.conversationReachable(fact) ||
      fact.textsBefore > model.branch.length
    )
      continue;
    const at = entries[checkpoint.turn.index];
    const where = `${checkpoint.id} (${fact.kind}) names message ${checkpoint.turn.index}`;
    // A Retry of the compaction's opening alone answered Cairn's own first message: that is the message it names.
    const ownOpening = fact.opening === true && checkpoint.turn.index === 0 && opensWithSummary(at);
    if (!at || at.message.role !== 'user' || (at.synthetic && !ownOpening))
      fail('checkpoint place', `${where}, which is not a user message`);
    if (fact.text !== undefined && !userTexts([at!]).some((t) => t.text === fact.text)) {
      fail('checkpoint place', `${where}, which does not hold its text "${fact.text}"`);
    }
  }
}

/** Whether a message opens a compacted generation (its summary and state): a rewind to it keeps them. */
export function opensWithSummary(entry: ConversationEntry | undefined): boolean {
  return entry !== undefined && compactionOpeningBlocks(entry).length > 0;
}

/** Whether the generation opens with a compaction's summary. */
function holdsSummary(entries: readonly ConversationEntry[]): boolean {
  return opensWithSummary(entries[0]);
}

/** The journal's record types a reopen replays the conversation from. */
const REPLAYED: JournalRecordType[] = ['generation_started', 'compaction_undone', 'user_message', 'assistant_message'];

/** An entry as the journal keeps it. */
function comparable(entry: ConversationEntry): unknown {
  return {
    message: entry.message,
    synthetic: Boolean(entry.synthetic),
    syntheticBlocks: entry.syntheticBlocks?.length ? entry.syntheticBlocks : undefined,
    incomplete: Boolean(entry.incomplete),
  };
}

function describe(content: string | undefined): string {
  return content === undefined ? 'absent' : JSON.stringify(content.split('\n', 1)[0]);
}
