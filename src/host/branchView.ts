/**
 * How a branch (a generation started again before a user message: edit and resend, regenerate, a restore
 * of the conversation) shows in the chat rebuilt from the journal: the old branch's later turns leave the
 * view, and a quiet note says they are kept and how to read them.
 */
import type { TranscriptItem } from '../shared/protocol';

type Places = Map<number, { generation: number; index: number }>;

/** The chat turn whose user message sits at `index` of `generation`. */
export function turnOfPlace(places: Places, generation: number, index: number): number | undefined {
  for (const [turn, place] of places) if (place.generation === generation && place.index === index) return turn;
  return undefined;
}

/** A generation that opens with the first `count` entries of `from`: those messages are in `into` now, at the same indexes. */
export function keepPlacesInto(places: Places, from: number, count: number, into: number): void {
  for (const [turn, place] of places) {
    if (place.generation === from && place.index < count) places.set(turn, { generation: into, index: place.index });
  }
}

const WHAT: Record<string, string> = {
  'edit and resend': 'You edited message',
  regenerate: 'You asked for a new answer to message',
  'restore files and conversation': 'The conversation went back to before message',
};

/** The quiet note where the old branch left the view. */
export function branchNote(reason: string, fromTurn: number, droppedTurns: number): TranscriptItem {
  const what = WHAT[reason] ?? 'The conversation started again from message';
  const kept = droppedTurns === 1 ? 'its earlier version is' : `the earlier branch (${droppedTurns} messages from there on) is`;
  return {
    type: 'notice',
    level: 'info',
    kind: 'branch',
    message: `${what} ${fromTurn + 1}; ${kept} kept in the session's journal. To read it, run Cairn: Export Session… (or /export): the Markdown holds every branch.`,
  };
}
