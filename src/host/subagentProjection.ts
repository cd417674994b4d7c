/**
 * A child agent's events as the chat's notifications (issue 19). The child's own events are projected
 * like the session's (`projectItemEvent`, passed in so this file does not import its caller) and wrapped
 * in a `subagentEvent` naming the child; a grandchild's are wrapped once more by its parent's. The child's
 * first message is its task (shown in the block's header), so it adds no turn and no item.
 */
import type { AgentEvent } from '../core/agent/events';
import type { SubagentOutcome } from '../core/subagentTypes';
import { SUBAGENT_INNER_EVENT_TYPES, type HostNotification, type SubagentInnerEvent, type SubagentUsageView } from '../shared/protocol';
import { isRequestSnapshot, snapshotViewOf } from './snapshotView';

export type SubagentAgentEvent = Extract<AgentEvent, { type: 'subagent_started' | 'subagent_event' | 'subagent_finished' }>;

type ProjectItem = (event: AgentEvent, turn: number) => HostNotification[];

const INNER_TYPES: ReadonlySet<string> = new Set(SUBAGENT_INNER_EVENT_TYPES);

function isInner(message: HostNotification): message is SubagentInnerEvent {
  return INNER_TYPES.has(message.type);
}

export function isSubagentAgentEvent(event: AgentEvent): event is SubagentAgentEvent {
  return event.type === 'subagent_started' || event.type === 'subagent_event' || event.type === 'subagent_finished';
}

/**
 * A child's notification as its block shows it: no buttons (Retry, Set API Key… act on the session, not on
 * the child, which has ended or will end on its own), and no compaction details to fetch (the host's are
 * the parent's generations; a child's are in its journal records only).
 */
function inBlock(message: SubagentInnerEvent): SubagentInnerEvent {
  if ((message.type === 'error' || message.type === 'notice') && message.action !== undefined) {
    const { action: _action, ...rest } = message;
    return rest;
  }
  if (message.type === 'compacted') return { ...message, mark: { ...message.mark, hasDetails: false } };
  return message;
}

/** A child's outcome as its block's header shows it. */
export function subagentUsageOf(outcome: SubagentOutcome): SubagentUsageView {
  const { usage } = outcome;
  return {
    requests: outcome.requests,
    inputTokens: usage.input + usage.cacheWrite + usage.cacheRead,
    outputTokens: usage.output,
    cacheReadTokens: usage.cacheRead,
    costUsd: outcome.costUsd,
  };
}

/** One request of a child, for its block's running figures (none before the response's usage). */
function requestUsage(event: Extract<AgentEvent, { type: 'request_finished' }>, turn: number): HostNotification[] {
  if (!isRequestSnapshot(event.snapshot)) return [];
  const view = snapshotViewOf(event.snapshot);
  if (!view.usage) return [];
  return [
    {
      type: 'turnUsage',
      turn,
      model: view.model,
      inputTokens: view.usage.input + view.usage.cacheWrite + view.usage.cacheRead,
      outputTokens: view.usage.output,
      cacheReadTokens: view.usage.cacheRead,
      costUsd: view.costUsd ?? null,
    },
  ];
}

/** The notifications one `subagent_*` event makes, for the parent's turn `turn`. */
export function projectSubagentEvent(event: SubagentAgentEvent, turn: number, projectItem: ProjectItem): HostNotification[] {
  switch (event.type) {
    case 'subagent_started': {
      const { id, callId, kind, description, prompt } = event.agent;
      return [{ type: 'subagentStarted', turn, agent: { id, callId, kind, description, prompt } }];
    }
    case 'subagent_finished':
      return [
        { type: 'subagentFinished', turn, agentId: event.agentId, reason: event.outcome.reason, usage: subagentUsageOf(event.outcome) },
      ];
    case 'subagent_event': {
      const inner = event.event;
      let projected: HostNotification[];
      if (inner.type === 'user_message') projected = [];
      else if (inner.type === 'request_finished') projected = requestUsage(inner, turn);
      else if (isSubagentAgentEvent(inner)) projected = projectSubagentEvent(inner, turn, projectItem);
      else projected = projectItem(inner, turn);
      return projected.filter(isInner).map((message) => ({ type: 'subagentEvent', turn, agentId: event.agentId, event: inBlock(message) }));
    }
  }
}

/** A running command's output inside a child (at any depth): the children it is nested in, outermost first. */
export function childOutput(event: AgentEvent): { path: string[]; callId: string; text: string } | undefined {
  const path: string[] = [];
  let current = event;
  while (current.type === 'subagent_event') {
    path.push(current.agentId);
    current = current.event;
  }
  return path.length > 0 && current.type === 'tool_output' ? { path, callId: current.callId, text: current.text } : undefined;
}

/** `childOutput`'s parts put back into the event they came from. */
export function wrapChildOutput(path: readonly string[], callId: string, text: string): AgentEvent {
  let event: AgentEvent = { type: 'tool_output', callId, text };
  for (const agentId of [...path].reverse()) event = { type: 'subagent_event', agentId, event };
  return event;
}

/** A child's finished call (at any depth): its throttle key, to drop output the result replaces. */
export function childFinishedCall(event: AgentEvent): string | undefined {
  const path: string[] = [];
  let current = event;
  while (current.type === 'subagent_event') {
    path.push(current.agentId);
    current = current.event;
  }
  return path.length > 0 && current.type === 'tool_finished' ? outputKey(path, current.callId) : undefined;
}

/** The throttle's key for a child's call: the children's ids and the call id (call ids may repeat across agents). */
export function outputKey(path: readonly string[], callId: string): string {
  return JSON.stringify([...path, callId]);
}
