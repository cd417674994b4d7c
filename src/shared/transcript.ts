/**
 * The chat transcript as a pure function of the host's notifications: each one yields a new list of
 * turns, sharing every turn it did not touch (so only the changed turn re-renders).
 */
import {
  TURN_EVENT_TYPES,
  type ApprovalDecision,
  type HostNotification,
  type TranscriptItem,
  type TurnEvent,
  type TurnPage,
  type TurnUsageView,
  type TurnView,
} from './protocol';
import {
  applySubagentEvent,
  updateWaitingHere,
  updateWaitingInSubagent,
  isSubagentEvent,
  settleSubagents,
  waitsForApproval,
  type ItemEvent,
} from './subagentTranscript';
import { retireLastThingActions } from './lastThingActions';

export type Turns = readonly TurnView[];

// Defined by the protocol beside the notifications it picks; the chat's code names it from here too.
export type { TurnEvent };

const TURN_EVENTS: ReadonlySet<string> = new Set(TURN_EVENT_TYPES);

/** The chat keeps at most this much of a running command's output: its newest lines. */
export const LIVE_OUTPUT_MAX_CHARS = 20_000;
export const LIVE_OUTPUT_MAX_LINES = 200;

/** The newest `LIVE_OUTPUT_MAX_LINES` lines, at most `LIVE_OUTPUT_MAX_CHARS` characters. */
export function liveOutputTail(text: string): string {
  const tail = text.length > LIVE_OUTPUT_MAX_CHARS ? text.slice(-LIVE_OUTPUT_MAX_CHARS) : text;
  // A final newline ends the last line; it does not start another.
  let at = tail.endsWith('\n') ? tail.length - 1 : tail.length;
  for (let lines = 1; ; lines++) {
    const newline = at > 0 ? tail.lastIndexOf('\n', at - 1) : -1;
    if (newline === -1) return tail;
    if (lines === LIVE_OUTPUT_MAX_LINES) return tail.slice(newline + 1);
    at = newline;
  }
}

export function isTurnEvent(message: HostNotification): message is TurnEvent {
  return TURN_EVENTS.has(message.type);
}

/** Replaces the turn numbered `index` (creating it at the end when it is new) with `update(items)`. */
function updateTurn(turns: Turns, index: number, update: (items: readonly TranscriptItem[]) => readonly TranscriptItem[]): Turns {
  const position = findTurn(turns, index);
  if (position === -1) {
    const lastIndex = turns.at(-1)?.index ?? -1;
    // A turn older than the loaded window is not on screen; its page will bring the change when asked for.
    if (index <= lastIndex) return turns;
    return [...turns, { index, items: update([]) }];
  }
  const turn = turns[position]!;
  const items = update(turn.items);
  if (items === turn.items) return turns;
  const next = turns.slice();
  next[position] = { ...turn, index, items };
  return next;
}

/** Turns are sorted by index; the newest is searched first because that is where streaming happens. */
function findTurn(turns: Turns, index: number): number {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turnIndex = turns[i]!.index;
    if (turnIndex === index) return i;
    if (turnIndex < index) return -1;
  }
  return -1;
}

/** Closes whatever is streaming: text after a tool call is a new block. */
function closeStreaming(items: readonly TranscriptItem[]): readonly TranscriptItem[] {
  const last = items.at(-1);
  if (!last || !((last.type === 'assistant' || last.type === 'thinking') && last.streaming)) return items;
  return [...items.slice(0, -1), { ...last, streaming: false }];
}

function appendText(items: readonly TranscriptItem[], type: 'assistant' | 'thinking', text: string): readonly TranscriptItem[] {
  const last = items.at(-1);
  if (last && last.type === type && last.streaming) {
    return [...items.slice(0, -1), { ...last, text: last.text + text }];
  }
  return [...closeStreaming(items), { type, text, streaming: true }];
}

function updateTool(
  items: readonly TranscriptItem[],
  callId: string,
  update: (item: Extract<TranscriptItem, { type: 'tool' }>) => TranscriptItem,
): readonly TranscriptItem[] {
  // The newest line with this id: should a call id ever repeat (the loop renames repeats, see
  // toolUseIds.ts), an approval must go to the call that asks now, never to an earlier call's line.
  const position = items.findLastIndex((item) => item.type === 'tool' && item.callId === callId);
  if (position === -1) return items;
  const next = items.slice();
  next[position] = update(items[position] as Extract<TranscriptItem, { type: 'tool' }>);
  return next;
}

/** Events that carry the conversation on: a failure's Retry or a stop's Continue before them goes (`lastThingActions.ts`). */
const CARRYING_ON: ReadonlySet<string> = new Set<TurnEvent['type']>([
  'turnStarted',
  'textDelta',
  'thinkingDelta',
  'toolStarted',
  'approvalRequested',
]);

export function applyTurnEvent(before: Turns, event: TurnEvent): Turns {
  const turns = CARRYING_ON.has(event.type) ? retireLastThingActions(before) : before;
  switch (event.type) {
    case 'turnStarted':
      return updateTurn(withoutUnsent(turns, event.text), event.turn, (items) => [
        ...closeStreaming(items),
        event.skills ? { type: 'user', text: event.text, skills: event.skills } : { type: 'user', text: event.text },
      ]);
    case 'turnUsage':
      return addTurnUsage(turns, event);
    case 'userImages':
      // On the turn's user message (the first item); a turn not on screen is left alone.
      return updateTurn(turns, event.turn, (items) =>
        items[0]?.type === 'user' ? [{ ...items[0], images: event.images }, ...items.slice(1)] : items,
      );
    default:
      return updateTurn(turns, event.turn, (items) => applyItemEvent(items, event));
  }
}

/** One event applied to a list of items: a turn's, or a child agent's inside its block. */
export function applyItemEvent(items: readonly TranscriptItem[], event: ItemEvent): readonly TranscriptItem[] {
  if (isSubagentEvent(event)) return applySubagentEvent(items, event, applyItemEvent);
  switch (event.type) {
    case 'textDelta':
      return appendText(items, 'assistant', event.text);
    case 'thinkingDelta':
      return appendText(items, 'thinking', event.text);
    case 'assistantDone': {
      const closed = closeStreaming(items);
      if (!event.incomplete) return closed;
      const last = closed.at(-1);
      return last?.type === 'assistant' ? [...closed.slice(0, -1), { ...last, incomplete: true }] : closed;
    }
    case 'toolStarted': {
      // A call asked about before it started (a bound past which it would go, `approvalBound`) has its line
      // already: the line moves to where the call starts (the calls stay in order), still denied if it was.
      const at = items.findLastIndex((item) => item.type === 'tool' && item.callId === event.callId);
      const line = at === -1 ? undefined : (items[at] as Extract<TranscriptItem, { type: 'tool' }>);
      if (line?.approvalBound !== undefined && line.result === undefined && line.status !== 'running') {
        const status = line.status === 'denied' ? 'denied' : 'running';
        return [...closeStreaming(items.filter((_, i) => i !== at)), { ...line, tool: event.tool, summary: event.summary, status }];
      }
      return [
        ...closeStreaming(items),
        { type: 'tool', callId: event.callId, tool: event.tool, summary: event.summary, status: 'running' },
      ];
    }
    case 'approvalRequested': {
      const approval = event.detail ? { approval: event.detail } : {};
      const known = items.some((item) => item.type === 'tool' && item.callId === event.callId);
      const reason = {
        ...(event.reason !== undefined ? { approvalReason: event.reason } : {}),
        ...(event.bound !== undefined ? { approvalBound: event.bound } : {}),
      };
      if (known) return updateTool(items, event.callId, (tool) => ({ ...tool, status: 'awaiting-approval', ...approval, ...reason }));
      return [
        ...closeStreaming(items),
        {
          type: 'tool',
          callId: event.callId,
          tool: event.tool,
          summary: event.summary,
          status: 'awaiting-approval',
          ...approval,
          ...reason,
        },
      ];
    }
    case 'toolOutput':
      return updateTool(items, event.callId, (tool) => ({ ...tool, liveOutput: liveOutputTail((tool.liveOutput ?? '') + event.text) }));
    case 'toolFinished':
      return updateTool(items, event.callId, ({ liveOutput: _live, ...tool }) => ({
        ...tool,
        // A denied call still gets a result (the refusal the model sees); keep saying it was denied.
        status: tool.status === 'denied' ? 'denied' : 'done',
        result: event.result,
      }));
    case 'toolCancelled':
      return updateTool(items, event.callId, (tool) => ({ ...tool, status: 'cancelled' }));
    case 'notice': {
      // A key was set: the "no key" card has been answered, so it leaves rather than contradicting the notice.
      let kept = event.kind === 'api_key' ? items.filter((item) => !(item.type === 'error' && item.kind === 'auth')) : items;
      // One line per kind that repeats itself: each retry (or key notice) updates the line instead of adding one.
      if (REPLACING_NOTICES.has(event.kind)) kept = kept.filter((item) => !(item.type === 'notice' && item.kind === event.kind));
      if (event.kind === 'stopped') kept = markStopped(kept);
      const action = event.action ? { action: event.action } : {};
      return [...kept, { type: 'notice', level: event.level, kind: event.kind, message: event.message, ...action }];
    }
    case 'error':
      return [
        // Errors of the same kind replace each other: a second identical card says nothing new.
        ...closeStreaming(items).filter((item) => !(item.type === 'error' && item.kind === event.kind)),
        {
          type: 'error',
          kind: event.kind,
          message: event.message,
          ...(event.action ? { action: event.action } : {}),
          ...(event.unsent !== undefined ? { unsent: event.unsent } : {}),
        },
      ];
    case 'compacted':
      return [...closeStreaming(items), { type: 'compaction', ...event.mark }];
    case 'turnChanges':
      return [...closeStreaming(items), { type: 'changes', ...event.changes }];
    case 'turnUsage':
      return items; // a turn's usage is the turn's; a child's is its block's (subagentTranscript.ts)
  }
}

/** Adds one request's tokens and cost to its turn (a turn not on screen is left alone). */
function addTurnUsage(turns: Turns, event: Extract<TurnEvent, { type: 'turnUsage' }>): Turns {
  const position = findTurn(turns, event.turn);
  if (position === -1) return turns;
  const turn = turns[position]!;
  const next = turns.slice();
  next[position] = { ...turn, usage: withTurnUsage(turn.usage, event) };
  return next;
}

/** A turn's usage line with one more request's tokens and cost (the live chat's, and a reload's from the journal). */
export function withTurnUsage(
  before: TurnUsageView | undefined,
  event: Pick<Extract<TurnEvent, { type: 'turnUsage' }>, 'model' | 'inputTokens' | 'outputTokens' | 'costUsd'>,
): TurnUsageView {
  const cost = before && before.costUsd === null ? null : event.costUsd === null ? null : (before?.costUsd ?? 0) + event.costUsd;
  return {
    model: event.model,
    requests: (before?.requests ?? 0) + 1,
    inputTokens: (before?.inputTokens ?? 0) + event.inputTokens,
    outputTokens: (before?.outputTokens ?? 0) + event.outputTokens,
    costUsd: cost,
  };
}

/** Notices that replace the turn's earlier one of their kind rather than pile up. */
const REPLACING_NOTICES: ReadonlySet<string> = new Set(['retrying', 'api_key', 'stopped']);

/** The user's cancel cut the last answer: it was stopped, not cut off by a failure. */
function markStopped(items: readonly TranscriptItem[]): readonly TranscriptItem[] {
  const position = items.findLastIndex((item) => item.type === 'assistant');
  const last = items[position];
  if (!last || last.type !== 'assistant' || !last.incomplete) return items;
  const next = items.slice();
  next[position] = { ...last, stopped: true };
  return next;
}

/** A message kept as unsent went out after all: its card leaves, and so does the Send Again that offered it. */
function withoutUnsent(turns: Turns, text: string): Turns {
  if (!turns.some((turn) => turn.items.some((item) => item.type === 'error' && item.unsent === text))) return turns;
  return turns.map((turn) => {
    if (
      !turn.items.some((item) => (item.type === 'error' && item.unsent === text) || (item.type === 'notice' && item.action === 'resend'))
    ) {
      return turn;
    }
    const items = turn.items
      .filter((item) => !(item.type === 'error' && item.unsent === text))
      .map((item) => (item.type === 'notice' && item.action === 'resend' ? withoutAction(item) : item));
    return { ...turn, items };
  });
}

function withoutAction(notice: Extract<TranscriptItem, { type: 'notice' }>): TranscriptItem {
  const { action: _action, ...rest } = notice;
  return rest;
}

/**
 * The user answered an approval prompt: show the answer at once, before the host acts on it. `agent`: the
 * child whose call it is (its block's line changes, never the parent's call with the same id).
 */
export function answerApproval(turns: Turns, callId: string, decision: ApprovalDecision, agent?: string): Turns {
  return updateWaiting(turns, callId, agent, (tool) => ({ ...tool, status: decision === 'deny' ? 'denied' : 'approved' }));
}

/** The user changed a waiting call's proposed change in the diff editor: its prompt shows what Allow writes now. */
export function reviseApproval(turns: Turns, event: Extract<HostNotification, { type: 'approvalRevised' }>): Turns {
  return updateWaiting(turns, event.callId, event.agent, (tool) => ({
    ...tool,
    approval: { ...tool.approval, diffs: event.diffs },
    approvalRevised: event.revised,
  }));
}

/** `update` applied to the call waiting for approval (a child's, when `agent` names it), newest turn first. */
function updateWaiting(turns: Turns, callId: string, agent: string | undefined, update: Parameters<typeof updateWaitingHere>[2]): Turns {
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    const items =
      agent !== undefined ? updateWaitingInSubagent(turn.items, agent, callId, update) : updateWaitingHere(turn.items, callId, update);
    if (items !== turn.items) {
      const next = turns.slice();
      next[i] = { ...turn, items };
      return next;
    }
  }
  return turns;
}

/** Puts a page of older turns in front of the loaded ones (ignoring any already loaded). */
export function prependOlder(turns: Turns, page: TurnPage): Turns {
  const first = turns[0]?.index ?? Number.POSITIVE_INFINITY;
  const older = page.turns.filter((turn) => turn.index < first).sort((a, b) => a.index - b.index);
  return older.length === 0 ? turns : [...older, ...turns];
}

/** Whether any tool call (a child's included) still waits for the user. */
export function awaitingApproval(turns: Turns): boolean {
  return turns.some((turn) => waitsForApproval(turn.items));
}

/**
 * The agent stopped: a call still shown as running or waiting for approval will get no result now
 * (the host may not say so for each one), so show it as cancelled rather than spinning forever; a child
 * still shown as running was interrupted.
 */
export function settleUnfinished(turns: Turns): Turns {
  const last = turns.at(-1);
  if (!last) return turns;
  const open = (item: TranscriptItem) =>
    item.type === 'tool' && (item.status === 'running' || item.status === 'awaiting-approval' || item.status === 'approved');
  const settled = settleSubagents(last.items);
  if (!settled.some(open)) return settled === last.items ? turns : [...turns.slice(0, -1), { ...last, items: settled }];
  const items = closeStreaming(settled).map((item) =>
    item.type === 'tool' && open(item) ? { ...item, status: 'cancelled' as const } : item,
  );
  return [...turns.slice(0, -1), { ...last, items }];
}
