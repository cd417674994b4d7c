import { isElisionDetail, isGenerationDetail } from '../conversation/generationDetail';
import { isRewindDetail } from '../conversation/rewind';
import type { JournalRecord, LoadedRecord } from '../journal/records';
import type { Message } from '../model/types';
import { parseTodoInput, TODO_TOOL_NAME, type TodoItem } from './todo';

/** What the active branch of a session has done so far: the model's answers and its latest plan. */
export interface BranchFacts {
  readonly turns: number;
  readonly todo: readonly TodoItem[];
}

interface GenerationFold {
  /** Messages by index, as last journalled (a message no request carried may be journalled again as it grows). */
  readonly messages: Map<number, Message>;
  /** What the branch had done before this generation's own messages (its opening entries are its own). */
  readonly before: BranchFacts;
  /** The generation that was active before this one started, for an undo. */
  readonly previous: number;
}

/**
 * The working memory of the active branch, folded from the journal (issue 29): the model's answers and its
 * latest `todo` list along the chain of generations that leads to the active one. A rewind (edit and resend,
 * a restore of the conversation) drops what came after its message; an undone compaction or elision returns
 * to the generation before it; a compaction keeps what it summarized. Abandoned branches count for nothing,
 * so the next compaction never tells the model that abandoned work was done.
 *
 * - A compaction's generation starts after everything of the one it summarized, less the kept tail, which
 *   its opening entries hold again.
 * - An elision's or a rewind's generation opens with copies of the earlier one's messages (all, or those
 *   before the message returned to): only what that generation had before its own messages carries over.
 */
export function branchFactsOf(records: Iterable<LoadedRecord | JournalRecord>): BranchFacts {
  const generations = new Map<number, GenerationFold>([[0, { messages: new Map(), before: { turns: 0, todo: [] }, previous: 0 }]]);
  let active = 0;
  const fold = (number: number): GenerationFold => {
    let found = generations.get(number);
    if (!found) {
      found = { messages: new Map(), before: { turns: 0, todo: [] }, previous: active };
      generations.set(number, found);
    }
    return found;
  };
  for (const record of records) {
    switch (record.type) {
      case 'user_message':
      case 'assistant_message': {
        const generation = fold(record.generation ?? active);
        generation.messages.set(record.index ?? generation.messages.size, record.message);
        break;
      }
      case 'generation_started': {
        const parent = fold(isKnownDetail(record.detail) ? record.detail.previousGeneration : active);
        const opening = isKnownDetail(record.detail) ? record.detail.entries.map((entry) => entry.message) : [];
        const before = isGenerationDetail(record.detail) ? afterCompaction(parent, opening) : parent.before;
        const started: GenerationFold = { messages: new Map(opening.map((message, index) => [index, message])), before, previous: active };
        generations.set(record.generation, started);
        active = record.generation;
        break;
      }
      case 'compaction_undone':
        active = generations.get(record.generation)?.previous ?? active;
        break;
      default:
        break;
    }
  }
  return factsOf(generations.get(active) ?? fold(active));
}

function isKnownDetail(detail: unknown): detail is { previousGeneration: number; entries: readonly { message: Message }[] } {
  return isGenerationDetail(detail) || isElisionDetail(detail) || isRewindDetail(detail);
}

/** What a compaction's new generation starts after: the summarized one's whole branch, less the kept tail's answers. */
function afterCompaction(parent: GenerationFold, opening: readonly Message[]): BranchFacts {
  const all = factsOf(parent);
  return { turns: Math.max(0, all.turns - answers(opening)), todo: all.todo };
}

function factsOf(generation: GenerationFold): BranchFacts {
  const messages = [...generation.messages.entries()].sort(([a], [b]) => a - b).map(([, message]) => message);
  return { turns: generation.before.turns + answers(messages), todo: lastTodo(messages) ?? generation.before.todo };
}

function answers(messages: readonly Message[]): number {
  return messages.filter((message) => message.role === 'assistant').length;
}

function lastTodo(messages: readonly Message[]): TodoItem[] | undefined {
  let latest: TodoItem[] | undefined;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_use' || block.name !== TODO_TOOL_NAME) continue;
      const parsed = parseTodoInput(block.input);
      if (parsed.ok) latest = parsed.items;
    }
  }
  return latest;
}
