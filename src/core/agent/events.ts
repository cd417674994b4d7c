import type { LedgerResult } from '../ledger/types';
import type { AssistantMessage, ModelUsage } from '../model/types';
import type { RequestSnapshot } from '../compose/snapshot';
import type { ApprovalDetail, BoundQuestion } from './approval';
import type { SubagentInfo, SubagentOutcome } from '../subagentTypes';

export type NoticeLevel = 'info' | 'warning' | 'critical';

/** What the loop tells the UI and the headless runner, in order. */
export type AgentEvent =
  | { type: 'user_message'; text: string }
  | { type: 'request_started'; requestIndex: number; generation: number }
  | { type: 'text_delta'; text: string }
  | { type: 'thinking_delta'; text: string }
  | { type: 'assistant_message'; message: AssistantMessage; incomplete: boolean }
  | { type: 'tool_started'; callId: string; tool: string; input: unknown; summary: string }
  /** `bound`: the question is whether to go past a bound (the call is the one that would pass it), not whether to run it. */
  | {
      type: 'approval_requested';
      callId: string;
      tool: string;
      summary: string;
      detail?: ApprovalDetail;
      reason?: string;
      bound?: BoundQuestion;
    }
  /** Output of a running command as it comes, already cleaned and redacted like its result. */
  | { type: 'tool_output'; callId: string; text: string }
  /** `durationMs`: how long the tool itself ran (absent when it was answered without running). */
  | { type: 'tool_finished'; callId: string; result: LedgerResult; durationMs?: number }
  | { type: 'usage'; requestIndex: number; usage: ModelUsage }
  /**
   * Every request leaves a snapshot: what was sent, from which source, at what cost, and why.
   * `requestIndex` counts the run's requests, compaction's summary requests included.
   */
  | { type: 'request_finished'; requestIndex: number; snapshot: RequestSnapshot }
  | { type: 'notice'; level: NoticeLevel; kind: string; message: string }
  | { type: 'error'; kind: string; message: string; advice?: string }
  | {
      type: 'compacted';
      generation: number;
      tokensBefore: number;
      tokensAfter: number;
      summary: string;
      filesTable: string;
      reason: 'auto' | 'manual' | 'overflow';
      stage: 'normal' | 'emergency';
    }
  /** The model's plan changed (the `todo` tool): the chat shows it above the input. */
  | { type: 'todo'; items: ReadonlyArray<{ readonly text: string; readonly status: 'pending' | 'in_progress' | 'done' }> }
  /** A `task` call started a child agent (`core/subagents/`); its own events follow as `subagent_event`. */
  | { type: 'subagent_started'; agent: SubagentInfo }
  /**
   * One event of a child agent, as its own loop emitted it (its requests are numbered from 1 within the child).
   * A child's `approval_requested` is answered through the same approver, its request naming the child.
   */
  | { type: 'subagent_event'; agentId: string; event: AgentEvent }
  /** A child ended; its `task` call is answered next (the result's id is on that call's `tool_finished`). */
  | { type: 'subagent_finished'; agentId: string; callId: string; outcome: SubagentOutcome }
  | { type: 'done'; reason: DoneReason };

/** `budget`: stopped before a request because the user chose not to go past a bound (`RunBounds.beforeRequest`). */
export type DoneReason = 'end_turn' | 'cancelled' | 'max_turns' | 'max_tokens' | 'refusal' | 'error' | 'budget';
