import type { AgentEvent } from '../../core/agent/events';
import type { SubagentOutcome } from '../../core/subagentTypes';

type ChildEvent = Extract<AgentEvent, { type: 'subagent_started' | 'subagent_event' | 'subagent_finished' }>;

/**
 * A child agent's part of the headless transcript, under the parent's `task` call. Parallel children's
 * events interleave as they happen, so every line names its child (`  explore-1 │ …`), indented one
 * step per level of nesting. A child's tool results are shown by their first line (the bracket with
 * the result's id, which the parent may `recall`) and how many lines follow: the child's transcript
 * stays out of the parent's, here as in the parent's conversation; the journal keeps every line.
 */
export function childLines(event: ChildEvent, depth = 1): string[] {
  switch (event.type) {
    case 'subagent_started': {
      const { agent } = event;
      return ['', `${indent(depth)}▸ ${agent.id} (${agent.kind}) started for call ${agent.callId}: ${agent.description}`];
    }
    case 'subagent_finished':
      return [`${indent(depth)}◂ ${event.agentId} finished (${event.outcome.reason}): ${describeOutcome(event.outcome)}`];
    case 'subagent_event': {
      const inner = event.event;
      if (inner.type === 'subagent_started' || inner.type === 'subagent_event' || inner.type === 'subagent_finished') {
        return childLines(inner, depth + 1);
      }
      const prefix = `${indent(depth)}${event.agentId} │ `;
      return ownLines(inner).map((line) => prefix + line);
    }
  }
}

/** `3 requests, 4210 tokens, $0.0123; results #a1..#c3`: the same figures the parent's task result ends with. */
export function describeOutcome(outcome: SubagentOutcome): string {
  const { usage } = outcome;
  const tokens = usage.input + usage.cacheWrite + usage.cacheRead + usage.output;
  const cost = outcome.costUsd === null ? 'cost unknown (no price for its model)' : `$${outcome.costUsd.toFixed(4)}`;
  const ids = outcome.resultIds;
  const results = ids.length === 0 ? 'no results' : ids.length === 1 ? `result ${ids[0]}` : `results ${ids[0]}..${ids[ids.length - 1]}`;
  return `${outcome.requests} requests, ${tokens} tokens, ${cost}; ${results}`;
}

function ownLines(event: AgentEvent): string[] {
  switch (event.type) {
    case 'user_message':
      return ['task:', ...event.text.split('\n')];
    case 'assistant_message': {
      const lines: string[] = [];
      if (event.incomplete) lines.push('(interrupted)');
      for (const block of event.message.content) {
        if (block.type === 'text') lines.push(...block.text.split('\n'));
        else if (block.type === 'thinking') lines.push(`(thinking) ${block.thinking.split('\n').join(' ')}`);
        else if (block.type === 'tool_use') lines.push(`→ ${block.name} ${JSON.stringify(block.input)}`);
      }
      return lines;
    }
    case 'tool_finished': {
      const [first = '', ...rest] = event.result.text.split('\n');
      return [`← ${first}${rest.length > 0 ? ` (+${rest.length} lines)` : ''}`];
    }
    case 'notice':
      return [`[${event.level}] ${event.message}`];
    case 'approval_requested':
      return event.bound ? [`[bound: ${event.bound.setting}] ${event.bound.text}`] : [];
    case 'error':
      return [`[error: ${event.kind}] ${event.message}${event.advice ? ` — ${event.advice}` : ''}`];
    case 'compacted':
      return [`(compaction: ${event.reason}, generation ${event.generation}, about ${event.tokensBefore} → ${event.tokensAfter} tokens)`];
    default:
      return [];
  }
}

function indent(depth: number): string {
  return '  '.repeat(depth);
}
