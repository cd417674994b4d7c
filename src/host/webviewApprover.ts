/**
 * The Approver port answered by the chat's inline prompt. The loop emits `approval_requested` (the chat
 * shows the prompt) and waits here; the webview's `approval` message settles it. "Always for this tool"
 * is remembered by the caller-supplied `allowAlways` (the workspace's state), never by the model.
 *
 * Prompts are keyed by the agent and the call: a child agent's call (`request.agent`, issue 19) may carry
 * the same id as the parent's or another child's, and an answer must settle only the call it was given for.
 * "Always" means the same for a child as for the parent: the tool is allowed for every agent of the session.
 * A question about a bound (`request.bound`: go past it or stop) has no "always": one is taken as once.
 */
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/agent/approval';
import type { ApprovalDecision as WebviewDecision } from '../shared/protocol';

interface Pending {
  /** What "always" remembers: the request's `alwaysKey` (an MCP tool's server identity and tool), else the tool's name. */
  readonly always: string;
  /** A bound's question: an "always" continues once and allows no tool. */
  readonly bound: boolean;
  readonly resolve: (decision: ApprovalDecision) => void;
}

/** The pending prompt's key: the agent (none for the session's own) and the call id. */
function keyOf(callId: string, agent: string | undefined): string {
  return JSON.stringify([agent ?? null, callId]);
}

export class WebviewApprover implements Approver {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly allowAlways: (tool: string) => void) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.resolve({ kind: 'deny', reason: 'cancelled' });
    // A second request for the same call replaces the first (answered as denied) rather than leaking it.
    const key = keyOf(request.callId, request.agent);
    this.pending.get(key)?.resolve({ kind: 'deny', reason: 'asked again' });
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => settle({ kind: 'deny', reason: 'cancelled' });
      const settle = (decision: ApprovalDecision): void => {
        signal.removeEventListener('abort', onAbort);
        if (this.pending.get(key)?.resolve === settle) this.pending.delete(key);
        resolve(decision);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, { always: request.alwaysKey ?? request.tool, bound: request.bound !== undefined, resolve: settle });
    });
  }

  /** Whether a prompt for this call (of child `agent`, when given) is waiting. */
  isPending(callId: string, agent?: string): boolean {
    return this.pending.has(keyOf(callId, agent));
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Settles one waiting prompt. Returns false (and does nothing) for a call that is not waiting: a stale
   * or forged answer from the webview can never approve anything.
   */
  answer(callId: string, decision: WebviewDecision, reason?: string, agent?: string): boolean {
    const pending = this.pending.get(keyOf(callId, agent));
    if (!pending) return false;
    if (decision === 'allow-always' && !pending.bound) {
      this.allowAlways(pending.always);
      pending.resolve({ kind: 'allow_always' });
    } else if (decision === 'allow-once' || decision === 'allow-always') {
      pending.resolve({ kind: 'allow' });
    } else {
      pending.resolve(reason !== undefined && reason.trim() !== '' ? { kind: 'deny', reason } : { kind: 'deny' });
    }
    return true;
  }

  /** Denies every waiting prompt (the session is closing or being replaced). */
  denyAll(reason: string): void {
    for (const pending of [...this.pending.values()]) pending.resolve({ kind: 'deny', reason });
    this.pending.clear();
  }
}
