/**
 * Buttons that act on the last thing in the conversation: a failed run's Retry (ask again for the answer the
 * conversation waits for) and a stop's Continue. Once the conversation goes on (a new message, an answer, a
 * tool call), the failure or the stop is history: its card stays, its button goes, or it would act on
 * something else (Retry sent the newest message again). One rule, read off the transcript itself: the live
 * chat applies it as each event arrives (`transcript.ts`), a reload to the turns it rebuilds from the journal
 * (`host/journalDigest.ts`), so both show the same buttons.
 */
import type { HostAction, TranscriptItem, TurnView } from './protocol';

type Turns = readonly TurnView[];

const LAST_THING_ACTIONS: ReadonlySet<HostAction> = new Set<HostAction>(['retry', 'continue']);

/** Items that carry the conversation on. Notices, errors, a turn's changes and a compaction's mark do not. */
function carriesOn(item: TranscriptItem): boolean {
  return item.type === 'user' || item.type === 'assistant' || item.type === 'thinking' || item.type === 'tool';
}

function offersLastThingAction(item: TranscriptItem): boolean {
  return (item.type === 'error' || item.type === 'notice') && item.action !== undefined && LAST_THING_ACTIONS.has(item.action);
}

function withoutAction(item: TranscriptItem): TranscriptItem {
  if (item.type !== 'error' && item.type !== 'notice') return item;
  const { action: _action, ...rest } = item;
  return rest;
}

/**
 * The conversation is about to go on (the caller applies the event next): the buttons offered since the last
 * item that carried it on go. Only that tail is looked at: every earlier button went when its own tail was
 * passed, so a streaming answer costs one look per delta.
 */
export function retireLastThingActions(turns: Turns): Turns {
  const last = turns.at(-1);
  if (!last) return turns;
  let items: TranscriptItem[] | undefined;
  for (let i = last.items.length - 1; i >= 0; i--) {
    const item = last.items[i]!;
    if (offersLastThingAction(item)) (items ??= last.items.slice())[i] = withoutAction(item);
    if (carriesOn(item)) break;
  }
  return items ? [...turns.slice(0, -1), { ...last, items }] : turns;
}

/** Turns rebuilt from the journal: a button stays only where nothing carried the conversation on after it. */
export function settleLastThingActions(turns: Turns): TurnView[] {
  let movedOn = false;
  const settled = [...turns];
  for (let t = settled.length - 1; t >= 0; t--) {
    const turn = settled[t]!;
    let items: TranscriptItem[] | undefined;
    for (let i = turn.items.length - 1; i >= 0; i--) {
      const item = turn.items[i]!;
      if (movedOn && offersLastThingAction(item)) (items ??= turn.items.slice())[i] = withoutAction(item);
      if (carriesOn(item)) movedOn = true;
    }
    if (items) settled[t] = { ...turn, items };
  }
  return settled;
}

/** The kind of the failure the conversation ends on (nothing carried it on since), if it ends on one. */
export function lastFailure(turns: Turns): string | undefined {
  const items = turns.at(-1)?.items ?? [];
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type === 'error') return item.kind;
    if (carriesOn(item)) return undefined;
  }
  return undefined;
}

/** The last message the user typed (Retry's label, and what it sends again once every message has its answer). */
export function lastUserText(turns: Turns): string | undefined {
  for (let t = turns.length - 1; t >= 0; t--) {
    const user = turns[t]!.items.find((item) => item.type === 'user');
    if (user?.type === 'user') return user.text;
  }
  return undefined;
}
