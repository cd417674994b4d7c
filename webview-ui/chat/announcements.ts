/**
 * What the chat's polite live region says, so a screen reader hears what a sighted user sees appear: a
 * new answer (its opening words), an approval that waits, the end of a run. Worked out from the host's
 * notifications after the store applied them.
 */
import type { HostNotification, TurnView } from '../../src/shared/protocol';

/** Enough of an answer to know what it is about; the rest is read in the transcript. */
const ANSWER_WORDS = 200;

/** The approval shortcut, said with every approval (ChatView handles it). */
export const APPROVAL_SHORTCUT_LABEL = 'Alt+A';

function lastAnswer(turns: readonly TurnView[], turn: number): string | undefined {
  const items = turns.find((t) => t.index === turn)?.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type === 'assistant') return item.text;
  }
  return undefined;
}

/** A child's approval is said with its name; its streamed answers stay in its block (the parent's answer is said). */
function childAnnouncement(agentId: string, event: Extract<HostNotification, { type: 'subagentEvent' }>['event']): string | undefined {
  if (event.type === 'subagentEvent') return childAnnouncement(event.agentId, event.event);
  if (event.type === 'approvalRequested')
    return event.bound !== undefined
      ? `${event.bound.text} Press ${APPROVAL_SHORTCUT_LABEL} to answer.`
      : `${agentId} wants to run ${event.summary || event.tool}. Press ${APPROVAL_SHORTCUT_LABEL} to answer.`;
  if (event.type === 'error') return `Error in ${agentId}: ${event.message}`;
  return undefined;
}

export function announcementFor(message: HostNotification, turns: readonly TurnView[]): string | undefined {
  switch (message.type) {
    case 'assistantDone': {
      const text = lastAnswer(turns, message.turn)?.replace(/\s+/g, ' ').trim();
      if (!text) return undefined;
      const opening = text.length > ANSWER_WORDS ? `${text.slice(0, ANSWER_WORDS)}…` : text;
      return `Cairn answered${message.incomplete ? ' (cut off)' : ''}: ${opening}`;
    }
    case 'approvalRequested':
      return message.bound !== undefined
        ? `${message.bound.text} Press ${APPROVAL_SHORTCUT_LABEL} to answer.`
        : `Cairn asks to run ${message.summary || message.tool}. Press ${APPROVAL_SHORTCUT_LABEL} to answer.`;
    case 'error':
      return `Error: ${message.message}`;
    case 'busy':
      return message.busy ? undefined : 'Cairn is done.';
    case 'subagentStarted':
      return `Sub-agent ${message.agent.id} started: ${message.agent.description}`;
    case 'subagentFinished':
      return `Sub-agent ${message.agentId} ${message.reason === 'end_turn' ? 'finished' : `ended (${message.reason})`}.`;
    case 'subagentEvent':
      return childAnnouncement(message.agentId, message.event);
    default:
      return undefined;
  }
}
