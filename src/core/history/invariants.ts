import type { ConversationEntry } from '../conversation/conversation';
import { ELIDED_MARK, resultFacts } from '../elision/resultFacts';

/**
 * What must hold of a generation's conversation after every move of it (issue 29): a send, tool results,
 * a fault and Retry, a compaction, an elision, an undo, a rewind, a reopen. Checked in the tests after every
 * step of the model-based suite, and cheaply in production after each move (a violation is logged and, where
 * it can be, repaired before anything is sent; never sent as is).
 */
export type HistoryViolationKind =
  /** A message of the wrong role where it is (the first is the user's, then they alternate). */
  | 'roles'
  /** A `tool_use` whose next message does not answer it (or, at rest, a last message with calls). */
  | 'unanswered_call'
  /** A `tool_result` for no call of the message before it, or a second result for one call. */
  | 'stray_result'
  /** A stub ("Unchanged since #id") or a "Same result as #id" answer naming a result not in front of the model. */
  | 'dangling_reference';

export interface HistoryViolation {
  readonly kind: HistoryViolationKind;
  /** The entry it is in. */
  readonly entry: number;
  readonly detail: string;
}

export interface HistoryCheckOptions {
  /**
   * No run is going on: a last assistant message with calls is then unanswered (mid-run, its results are
   * on their way).
   */
  readonly atRest: boolean;
  /** Also check that stubs and same-result answers name results in front of the model (parses every result). */
  readonly references?: boolean;
}

export function historyViolations(entries: readonly ConversationEntry[], options: HistoryCheckOptions): HistoryViolation[] {
  const violations: HistoryViolation[] = [];
  entries.forEach((entry, index) => {
    const expected = index % 2 === 0 ? 'user' : 'assistant';
    if (entry.message.role !== expected) {
      violations.push({
        kind: 'roles',
        entry: index,
        detail: `message ${index} is the ${entry.message.role}'s; the ${expected}'s was due`,
      });
    }
  });
  entries.forEach((entry, index) => {
    if (entry.message.role !== 'assistant') return;
    const calls = entry.message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []));
    const next = entries[index + 1];
    if (!next) {
      if (options.atRest && calls.length > 0) {
        violations.push({ kind: 'unanswered_call', entry: index, detail: `the last message's calls ${calls.join(', ')} have no results` });
      }
      return;
    }
    const answered = new Map<string, number>();
    for (const block of next.message.content) {
      if (block.type !== 'tool_result') continue;
      answered.set(block.tool_use_id, (answered.get(block.tool_use_id) ?? 0) + 1);
    }
    for (const id of calls) {
      if (!answered.has(id))
        violations.push({ kind: 'unanswered_call', entry: index, detail: `call ${id} has no result in the next message` });
    }
    for (const [id, count] of answered) {
      if (!calls.includes(id))
        violations.push({ kind: 'stray_result', entry: index + 1, detail: `a result for ${id}, which the message before did not call` });
      else if (count > 1) violations.push({ kind: 'stray_result', entry: index + 1, detail: `${count} results for call ${id}` });
    }
  });
  entries.forEach((entry, index) => {
    if (entry.message.role !== 'user' || index === 0) return;
    const previous = entries[index - 1]!;
    if (previous.message.role === 'assistant' && previous.message.content.some((b) => b.type === 'tool_use')) return;
    if (entry.message.content.some((b) => b.type === 'tool_result')) {
      violations.push({ kind: 'stray_result', entry: index, detail: `results in message ${index}, after a message that called nothing` });
    }
  });
  if (options.references) violations.push(...danglingReferences(entries));
  return violations;
}

/** Stubs and same-result answers whose named result is not in front of the model, whole, before them. */
function danglingReferences(entries: readonly ConversationEntry[]): HistoryViolation[] {
  const violations: HistoryViolation[] = [];
  const shown = new Set<string>();
  for (const fact of resultFacts(entries)) {
    const named = fact.type === 'read' ? fact.stubOf : fact.type === 'other' ? fact.refersTo[0] : undefined;
    const elided = fact.text.split('\n', 1)[0]!.includes(ELIDED_MARK);
    if (named !== undefined && !elided && !shown.has(named)) {
      violations.push({
        kind: 'dangling_reference',
        entry: fact.entry,
        detail: `${fact.id} names ${named}, which is not in front of the model`,
      });
    }
    if (!elided) shown.add(fact.id);
  }
  return violations;
}
