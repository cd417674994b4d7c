import type { Approver, BoundQuestion } from './approval';
import type { AgentEvent } from './events';

/** The user's answer to a bound: go past it, stop at it, or no answer (the run was cancelled while asking). */
export type BoundAnswer = 'continue' | 'stop' | 'cancelled';

/** Who asks: the approver, and the views and agent of the call the question is shown on. */
export interface BoundAskDeps {
  readonly approver: Approver;
  readonly emit: (event: AgentEvent) => void;
  /** The sub-agent whose call it is; absent for the session's own agent. */
  readonly agent?: string;
}

/**
 * Asks whether to go past a bound, through the same approver and `approval_requested` event as a tool's
 * approval, so the chat, the headless runner and every test answer it the way they answer those: on
 * `call`, the call that would pass the bound (or, for a child, the parent's call that started it). Allow
 * (or "always", taken as once) continues; deny stops. An approver that fails is taken as "stop": a bound
 * is never passed on nobody's word.
 */
export async function askPastBound(
  deps: BoundAskDeps,
  call: { readonly callId: string; readonly tool: string; readonly input: unknown; readonly summary: string },
  bound: BoundQuestion,
  signal: AbortSignal,
): Promise<BoundAnswer> {
  if (signal.aborted) return 'cancelled';
  deps.emit({ type: 'approval_requested', callId: call.callId, tool: call.tool, summary: call.summary, bound });
  let stop: boolean;
  try {
    const decision = await deps.approver.request(
      {
        callId: call.callId,
        tool: call.tool,
        input: call.input,
        summary: call.summary,
        bound,
        ...(deps.agent !== undefined ? { agent: deps.agent } : {}),
      },
      signal,
    );
    stop = decision.kind === 'deny';
  } catch {
    stop = true;
  }
  if (signal.aborted) return 'cancelled';
  return stop ? 'stop' : 'continue';
}
