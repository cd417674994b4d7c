import type { ConversationEntry } from '../agent/conversation';

/**
 * Where a generation is cut: everything before `tailStart` is summarized, everything from it is kept.
 * A cut only ever falls where a tool_use and its tool_result stay on the same side.
 */
export interface CompactionSplit {
  readonly stage: 'normal' | 'emergency';
  readonly tailStart: number;
  readonly turnsKept: number;
  /** The normal stage moved the cut back to keep the latest message the user typed. */
  readonly anchoredToUser: boolean;
}

/** A user message the user typed (not tool results, not a message Cairn wrote). */
export function isRealUserMessage(entry: ConversationEntry): boolean {
  return (
    entry.message.role === 'user' && !entry.synthetic && entry.message.content.every((block) => block.type !== 'tool_result')
  );
}

/** A user message that starts a turn: text, no tool results (which belong to the turn before). */
function startsTurn(entry: ConversationEntry): boolean {
  return entry.message.role === 'user' && entry.message.content.every((block) => block.type !== 'tool_result');
}

/**
 * Places where the tail may start. A turn start (a user message without tool results) is preferred; an
 * assistant message is a finer cut used when one turn holds the whole run (a long chain of tool calls
 * after one request), so a long agentic turn can still be compacted. Index 0 is never a cut: something
 * must remain to summarize.
 */
function cutPoints(entries: readonly ConversationEntry[]): { turns: number[]; exchanges: number[] } {
  const turns: number[] = [];
  const exchanges: number[] = [];
  entries.forEach((entry, index) => {
    if (index === 0) return;
    if (startsTurn(entry)) turns.push(index);
    else if (entry.message.role === 'assistant') exchanges.push(index);
  });
  return { turns, exchanges };
}

/**
 * The normal stage keeps the `keep` most recent turns, moved back to include the latest real user
 * message; the emergency stage keeps `keep` turns without the anchor. When turns are too few, the cut
 * falls before the `keep` most recent assistant exchanges instead. Undefined: nothing to summarize.
 */
export function splitForCompaction(
  entries: readonly ConversationEntry[],
  stage: 'normal' | 'emergency',
  keep: number,
): CompactionSplit | undefined {
  const { turns, exchanges } = cutPoints(entries);
  let tailStart: number | undefined;
  let turnsKept = 0;
  if (turns.length >= keep) {
    tailStart = turns[turns.length - keep];
    turnsKept = keep;
  } else if (exchanges.length > 0) {
    // Too few turns: keep the newest exchanges (assistant message + its results) instead.
    const candidates = exchanges.filter((i) => i > (turns[turns.length - 1] ?? 0));
    const pool = candidates.length >= keep ? candidates : exchanges;
    tailStart = pool[Math.max(0, pool.length - keep)];
    turnsKept = 0;
  }
  if (tailStart === undefined || tailStart <= 0) return undefined;

  let anchoredToUser = false;
  if (stage === 'normal') {
    let latestReal = -1;
    for (let i = entries.length - 1; i >= 0; i--) {
      if (isRealUserMessage(entries[i]!)) {
        latestReal = i;
        break;
      }
    }
    // Keep what the user last said verbatim, as long as something older remains to summarize.
    if (latestReal > 0 && latestReal < tailStart) {
      tailStart = latestReal;
      anchoredToUser = true;
    }
  }
  return { stage, tailStart, turnsKept, anchoredToUser };
}
