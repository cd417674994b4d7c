/**
 * The child agents' blocks in the transcript (issue 19): pure updates of a list of items by the
 * `subagent*` notifications. A child's block lives on its `task` call's tool line; its items are updated
 * by the same item reducer as a turn's (passed in by `transcript.ts`, so this file does not import it
 * back), which also applies a grandchild's events inside the child's own items.
 */
import type { ApprovalDecision, SubagentNotification, SubagentUsageView, SubagentView, TranscriptItem, TurnEvent } from './protocol';

/** Every turn event but the one that starts a turn: what a list of items is updated by. */
export type ItemEvent = Exclude<TurnEvent, { type: 'turnStarted' | 'userImages' }>;

type Items = readonly TranscriptItem[];
type ToolItem = Extract<TranscriptItem, { type: 'tool' }>;
type ApplyItem = (items: Items, event: ItemEvent) => Items;

export function isSubagentEvent(event: ItemEvent): event is SubagentNotification {
  return event.type === 'subagentStarted' || event.type === 'subagentEvent' || event.type === 'subagentFinished';
}

/** The position of the tool line that holds child `agentId` (the newest, should an id ever repeat). */
function blockAt(items: Items, agentId: string): number {
  return items.findLastIndex((item) => item.type === 'tool' && item.subagent?.id === agentId);
}

function withBlock(items: Items, position: number, update: (agent: SubagentView) => SubagentView): Items {
  const tool = items[position] as ToolItem;
  const next = items.slice();
  next[position] = { ...tool, subagent: update(tool.subagent!) };
  return next;
}

function addUsage(before: SubagentUsageView | undefined, event: Extract<ItemEvent, { type: 'turnUsage' }>): SubagentUsageView {
  const cost = before && before.costUsd === null ? null : event.costUsd === null ? null : (before?.costUsd ?? 0) + event.costUsd;
  return {
    requests: (before?.requests ?? 0) + 1,
    inputTokens: (before?.inputTokens ?? 0) + event.inputTokens,
    outputTokens: (before?.outputTokens ?? 0) + event.outputTokens,
    cacheReadTokens: (before?.cacheReadTokens ?? 0) + (event.cacheReadTokens ?? 0),
    costUsd: cost,
  };
}

/** Applies one `subagent*` notification to the items that hold (or will hold) the child's block. */
export function applySubagentEvent(items: Items, event: SubagentNotification, applyItem: ApplyItem): Items {
  switch (event.type) {
    case 'subagentStarted': {
      const { agent } = event;
      if (blockAt(items, agent.id) !== -1) return items;
      const fresh: SubagentView = { ...agent, status: 'running', items: [] };
      const call = items.findLastIndex((item) => item.type === 'tool' && item.callId === agent.callId);
      if (call === -1) {
        // The call's line was not seen (a view opened mid-run from an older page): the block makes its own.
        const summary = agent.description ? `task ${agent.description}` : 'task';
        return [...items, { type: 'tool', callId: agent.callId, tool: 'task', summary, status: 'running', subagent: fresh }];
      }
      const next = items.slice();
      next[call] = { ...(items[call] as ToolItem), subagent: fresh };
      return next;
    }
    case 'subagentEvent': {
      const position = blockAt(items, event.agentId);
      if (position === -1) return items;
      const inner = event.event;
      return withBlock(items, position, (agent) => {
        if (inner.type === 'turnUsage') return { ...agent, usage: addUsage(agent.usage, inner) };
        const childItems = applyItem(agent.items, inner);
        return childItems === agent.items ? agent : { ...agent, items: childItems };
      });
    }
    case 'subagentFinished': {
      const position = blockAt(items, event.agentId);
      if (position === -1) return items;
      return withBlock(items, position, (agent) => ({
        ...agent,
        status: event.reason === 'interrupted' ? 'interrupted' : 'done',
        reason: event.reason,
        usage: event.usage,
        items: settleItems(agent.items),
      }));
    }
  }
}

/** A child that ended: nothing in it streams or runs any more (a call without a result was cut off). */
function settleItems(items: Items): Items {
  let changed = false;
  const next = items.map((item): TranscriptItem => {
    if ((item.type === 'assistant' || item.type === 'thinking') && item.streaming) {
      changed = true;
      return { ...item, streaming: false };
    }
    if (item.type !== 'tool') return item;
    const open = item.status === 'running' || item.status === 'awaiting-approval' || item.status === 'approved';
    const subagent = item.subagent && item.subagent.status === 'running' ? interrupted(item.subagent) : item.subagent;
    if (!open && subagent === item.subagent) return item;
    changed = true;
    return { ...item, ...(open ? { status: 'cancelled' as const } : {}), ...(subagent ? { subagent } : {}) };
  });
  return changed ? next : items;
}

function interrupted(agent: SubagentView): SubagentView {
  return { ...agent, status: 'interrupted', reason: 'interrupted', items: settleItems(agent.items) };
}

/** The run ended: every child still shown as running in these items was interrupted, at any depth. */
export function settleSubagents(items: Items): Items {
  if (!items.some((item) => item.type === 'tool' && item.subagent?.status === 'running')) return items;
  return items.map((item) =>
    item.type === 'tool' && item.subagent?.status === 'running' ? { ...item, subagent: interrupted(item.subagent) } : item,
  );
}

/** Whether a call in these items (or in any child's block inside them) waits for the user. */
export function waitsForApproval(items: Items): boolean {
  return items.some(
    (item) =>
      item.type === 'tool' &&
      (item.status === 'awaiting-approval' || (item.subagent !== undefined && waitsForApproval(item.subagent.items))),
  );
}

/**
 * The user answered child `agentId`'s prompt for `callId`: shown at once in its block, at whatever depth.
 * Only the child's own line changes, never a parent's call that happens to share the id.
 */
export function answerInSubagent(items: Items, agentId: string, callId: string, decision: ApprovalDecision): Items {
  return updateWaitingInSubagent(items, agentId, callId, (tool) => ({ ...tool, status: decision === 'deny' ? 'denied' : 'approved' }));
}

/** `update` applied to child `agentId`'s call `callId` while it waits for approval, wherever the child's block is. */
export function updateWaitingInSubagent(items: Items, agentId: string, callId: string, update: (tool: ToolItem) => ToolItem): Items {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.type !== 'tool' || !item.subagent) continue;
    const agent = item.subagent;
    const childItems =
      agent.id === agentId ? updateWaitingHere(agent.items, callId, update) : updateWaitingInSubagent(agent.items, agentId, callId, update);
    if (childItems !== agent.items) return withBlock(items, i, (a) => ({ ...a, items: childItems }));
  }
  return items;
}

/** `update` applied to call `callId` of these items while it waits for approval. */
export function updateWaitingHere(items: Items, callId: string, update: (tool: ToolItem) => ToolItem): Items {
  const position = items.findLastIndex((item) => item.type === 'tool' && item.callId === callId && item.status === 'awaiting-approval');
  if (position === -1) return items;
  const next = items.slice();
  next[position] = update(items[position] as ToolItem);
  return next;
}

/** The blocks of every child in these items, depth first (for the meter's list and the report's totals). */
export function subagentsIn(items: Items): SubagentView[] {
  return items.flatMap((item) => (item.type === 'tool' && item.subagent ? [item.subagent, ...subagentsIn(item.subagent.items)] : []));
}
