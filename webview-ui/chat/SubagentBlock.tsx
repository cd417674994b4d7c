import { useSignal } from '@preact/signals';
import type { ComponentType } from 'preact';
import type { ApprovalDecision, SubagentView, TranscriptItem } from '../../src/shared/protocol';
import { waitsForApproval } from '../../src/shared/subagentTranscript';
import { formatCost, formatTokens } from '../common/format';
import { RecallScope } from '../common/RecallScope';

type Answer = (callId: string, decision: ApprovalDecision, reason?: string, agent?: string) => void;

/** How a turn's item is drawn (`Turn.tsx`'s, passed in so the two files do not import each other). */
export type ItemComponent = ComponentType<{ item: TranscriptItem; onAnswer: Answer; turn: number; agent?: string }>;

const ENDING: Record<string, string> = {
  end_turn: 'done',
  cancelled: 'cancelled',
  max_turns: 'stopped at its request limit',
  max_tokens: 'cut off at its output limit',
  budget: "stopped at the turn's request bound (your answer)",
  refusal: 'refused',
  error: 'failed',
  interrupted: 'interrupted',
};

/** The header's state: "running…", "done", "interrupted", … */
export function subagentState(agent: SubagentView): string {
  if (agent.status === 'running') return 'running…';
  if (agent.status === 'interrupted') return 'interrupted';
  return ENDING[agent.reason ?? 'end_turn'] ?? agent.reason ?? 'done';
}

/** "3 requests · 12k tokens · $0.0123" (or nothing before its first request ended). */
export function subagentFigures(agent: SubagentView): string {
  const usage = agent.usage;
  if (!usage) return '';
  const requests = usage.requests === 1 ? '1 request' : `${usage.requests} requests`;
  const cost = usage.costUsd === null ? 'cost unknown' : formatCost(usage.costUsd);
  return `${requests} · ${formatTokens(usage.inputTokens + usage.outputTokens)} tokens · ${cost}`;
}

/**
 * A child agent's block on its `task` call's line (issue 19): titled with its id, kind and description,
 * its state and what it spent. Open while it runs (its streaming text, its tool lines, its approvals,
 * which name it) and whenever one of its calls waits for an answer; closed by default once it ended, and
 * opened to its whole transcript, result ids included (a click shows the result, as for the parent's).
 */
export function SubagentBlock({
  agent,
  onAnswer,
  turn,
  Item,
}: {
  agent: SubagentView;
  onAnswer: Answer;
  turn: number;
  Item: ItemComponent;
}) {
  /** The user's choice; until they make one, the block is open while the child runs or waits. */
  const chosen = useSignal<boolean | undefined>(undefined);
  const waiting = waitsForApproval(agent.items);
  const open = waiting || (chosen.value ?? agent.status === 'running');
  const bodyId = `subagent-${agent.id.replace(/[^\w-]/g, '_')}`;
  const figures = subagentFigures(agent);
  const state = subagentState(agent);
  // A grandchild's call answers under its own name; this block's calls under this child's.
  const answer: Answer = (callId, decision, reason, inner) => onAnswer(callId, decision, reason, inner ?? agent.id);
  return (
    <section class={`subagent subagent-${agent.status}`} aria-label={`Sub-agent ${agent.id}: ${agent.description}`} data-agent={agent.id}>
      <button
        type="button"
        class="subagent-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        aria-describedby={`${bodyId}-meta`}
        onClick={() => (chosen.value = !open)}
        disabled={waiting}
        title={waiting ? `${agent.id} waits for your approval` : open ? 'Hide its transcript' : 'Show its transcript'}
      >
        <span class="chevron" aria-hidden="true">
          {open ? '▾' : '▸'}
        </span>
        <span class="subagent-id">{agent.id}</span> <span class="subagent-kind">{agent.kind}</span>{' '}
        <span class="subagent-description">{agent.description}</span>
      </button>
      <div class="subagent-meta" id={`${bodyId}-meta`}>
        <span class={`subagent-state state-${agent.status}`}>{state}</span>
        {figures && <span class="subagent-figures">{figures}</span>}
      </div>
      {open && (
        <div class="subagent-body" id={bodyId} role="group" aria-label={`${agent.id}'s transcript`}>
          <RecallScope class="subagent-task">
            <span class="subagent-task-label">Task</span> {agent.prompt}
          </RecallScope>
          {agent.items.length === 0 && agent.status === 'running' && <p class="quiet">Starting…</p>}
          {agent.items.map((item, i) => (
            <Item key={item.type === 'tool' ? item.callId : i} item={item} onAnswer={answer} turn={turn} agent={agent.id} />
          ))}
          {agent.status === 'interrupted' && (
            <p class="quiet subagent-interrupted">Cairn stopped while {agent.id} ran; this is what it had done.</p>
          )}
        </div>
      )}
    </section>
  );
}
