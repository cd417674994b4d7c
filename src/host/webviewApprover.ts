/**
 * The Approver port answered by the chat's inline prompt. The loop emits `approval_requested` (the chat
 * shows the prompt) and waits here; the webview's `approval` message settles it. "Always for this tool"
 * is remembered by the caller-supplied `allowAlways` (the workspace's state), never by the model.
 */
import type { ApprovalDecision, ApprovalRequest, Approver } from '../core/agent/approval';
import type { ApprovalDecision as WebviewDecision } from '../shared/protocol';

interface Pending {
  readonly tool: string;
  readonly resolve: (decision: ApprovalDecision) => void;
}

export class WebviewApprover implements Approver {
  private readonly pending = new Map<string, Pending>();

  constructor(private readonly allowAlways: (tool: string) => void) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.resolve({ kind: 'deny', reason: 'cancelled' });
    // A second request for the same call replaces the first (answered as denied) rather than leaking it.
    this.pending.get(request.callId)?.resolve({ kind: 'deny', reason: 'asked again' });
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => settle({ kind: 'deny', reason: 'cancelled' });
      const settle = (decision: ApprovalDecision): void => {
        signal.removeEventListener('abort', onAbort);
        if (this.pending.get(request.callId)?.resolve === settle) this.pending.delete(request.callId);
        resolve(decision);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(request.callId, { tool: request.tool, resolve: settle });
    });
  }

  /** Whether a prompt for this call is waiting. */
  isPending(callId: string): boolean {
    return this.pending.has(callId);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Settles one waiting prompt. Returns false (and does nothing) for a call that is not waiting: a stale
   * or forged answer from the webview can never approve anything.
   */
  answer(callId: string, decision: WebviewDecision, reason?: string): boolean {
    const pending = this.pending.get(callId);
    if (!pending) return false;
    if (decision === 'allow-always') {
      this.allowAlways(pending.tool);
      pending.resolve({ kind: 'allow_always' });
    } else if (decision === 'allow-once') {
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
