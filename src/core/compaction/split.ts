import type { ConversationEntry } from '../conversation/conversation';

/**
 * Where a generation is cut: everything before `tailStart` is summarized, everything from it is kept.
 * A cut only ever falls where a tool_use and its tool_result stay on the same side.
 */
export interface CompactionSplit {
  readonly stage: 'normal' | 'emergency';
  readonly tailStart: number;
  /** Whole turns kept; 0 when one long turn was cut between its exchanges. */
  readonly turnsKept: number;
  /** The normal stage moved the cut back to keep the latest message the user typed. */
  readonly anchoredToUser: boolean;
}

/** A user message the user typed (not tool results, not a message Cairn wrote). */
export function isRealUserMessage(entry: ConversationEntry): boolean {
  return entry.message.role === 'user' && !entry.synthetic && entry.message.content.every((block) => block.type !== 'tool_result');
}

/** A user message that starts a turn: text, no tool results (which belong to the turn before). */
function startsTurn(entry: ConversationEntry): boolean {
  return entry.message.role === 'user' && entry.message.content.every((block) => block.type !== 'tool_result');
}

/**
 * The normal stage keeps the `keep` most recent turns (a turn is a user message and everything after it
 * up to the next), moved back to include the latest real user message; it does not apply when there are
 * no more turns than that. The emergency stage keeps `keep` turns without the anchor; when the whole
 * generation is one turn (a long chain of tool calls after one request) it keeps the `keep` newest
 * exchanges (an assistant message and the results that answer it) instead. Undefined: nothing to summarize
 * at this stage, or only the previous summary.
 */
export function splitForCompaction(
  entries: readonly ConversationEntry[],
  stage: 'normal' | 'emergency',
  keep: number,
): CompactionSplit | undefined {
  const turnStarts: number[] = [];
  const exchanges: number[] = [];
  entries.forEach((entry, index) => {
    if (startsTurn(entry)) turnStarts.push(index);
    else if (entry.message.role === 'assistant' && index > 0) exchanges.push(index);
  });
  let tailStart: number | undefined;
  let turnsKept = 0;
  if (turnStarts.length > keep) {
    tailStart = turnStarts[turnStarts.length - keep];
    turnsKept = keep;
  } else if (stage === 'emergency' && exchanges.length > keep) {
    tailStart = exchanges[exchanges.length - keep];
  }
  if (tailStart === undefined || tailStart <= 0) return undefined;
  // Summarizing nothing but the previous summary frees nothing and loses detail.
  if (tailStart === 1 && entries[0]?.synthetic) return undefined;

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
