/**
 * The Approver port answered by the chat's inline prompt. The loop emits `approval_requested` (the chat
 * shows the prompt) and waits here; the webview's `approval` message settles it. "This session" and "always"
 * are granted through the caller-supplied `allow` (the `Allowances` list), never by the model; the edit family
 * is one allowance (`allowanceKeyOf`).
 *
 * Prompts are keyed by the agent and the call: a child agent's call (`request.agent`, issue 19) may carry
 * the same id as the parent's or another child's, and an answer must settle only the call it was given for.
 * "Always" means the same for a child as for the parent: the tool is allowed for every agent of the session.
 * A question about a bound (`request.bound`: go past it or stop) has no "always": one is taken as once.
 */
import { allowanceKeyOf, type ApprovalDecision, type ApprovalRequest, type Approver } from '../core/agent/approval';
import type { ChangePlan, RevisedTexts } from '../core/tools/changePlan';
import type { ApprovalDecision as WebviewDecision } from '../shared/protocol';

/** What an answer allowed beyond this call: its allowance key (`allowanceKeyOf`, an MCP tool's `alwaysKey`), the tool, how long. */
export interface Grant {
  readonly key: string;
  readonly tool: string;
  readonly scope: 'session' | 'user';
}

/** The diff editor's review of a waiting change (`ProposalReviews`), as the approver uses it. */
export interface ChangeReviews {
  begin(plan: ChangePlan): string;
  open(reviewId: string, path?: string): Promise<boolean>;
  /** What the user changed in review (undefined: nothing), read when they answer. */
  revised(reviewId: string): RevisedTexts | undefined;
  end(reviewId: string): Promise<void>;
}

interface Pending {
  readonly callId: string;
  readonly agent: string | undefined;
  /** The review of the call's proposed change in the diff editor (a writing call's). */
  readonly reviewId?: string;
  /** What an allowance remembers: the request's `alwaysKey` (an MCP tool's server identity and tool), else `allowanceKeyOf` the tool. */
  readonly always: string;
  readonly tool: string;
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

  constructor(
    private readonly allow: (grant: Grant) => void,
    private readonly reviews?: ChangeReviews,
  ) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return Promise.resolve({ kind: 'deny', reason: 'cancelled' });
    // A second request for the same call replaces the first (answered as denied) rather than leaking it.
    const key = keyOf(request.callId, request.agent);
    this.pending.get(key)?.resolve({ kind: 'deny', reason: 'asked again' });
    return new Promise<ApprovalDecision>((resolve) => {
      const onAbort = (): void => settle({ kind: 'deny', reason: 'cancelled' });
      const reviewId = request.proposal && this.reviews ? this.reviews.begin(request.proposal) : undefined;
      const settle = (decision: ApprovalDecision): void => {
        signal.removeEventListener('abort', onAbort);
        if (this.pending.get(key)?.resolve === settle) this.pending.delete(key);
        if (reviewId !== undefined) void this.reviews?.end(reviewId);
        resolve(decision);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(key, {
        callId: request.callId,
        agent: request.agent,
        ...(reviewId !== undefined ? { reviewId } : {}),
        always: request.alwaysKey ?? allowanceKeyOf(request.tool),
        tool: request.tool,
        bound: request.bound !== undefined,
        resolve: settle,
      });
    });
  }

  /** Whether a prompt for this call (of child `agent`, when given) is waiting. */
  isPending(callId: string, agent?: string): boolean {
    return this.pending.has(keyOf(callId, agent));
  }

  /**
   * Opens the waiting call's proposed change in the diff editor (one file of it: `path`, else the first), to be
   * reviewed before it is answered. False when no such call waits or it proposes no change.
   */
  async openReview(callId: string, path?: string, agent?: string): Promise<boolean> {
    const reviewId = this.pending.get(keyOf(callId, agent))?.reviewId;
    return reviewId !== undefined && this.reviews !== undefined ? this.reviews.open(reviewId, path) : false;
  }

  /** The waiting call a review belongs to (its id and agent), for the chat to show the review's changes. */
  callOfReview(reviewId: string): { readonly callId: string; readonly agent?: string } | undefined {
    for (const pending of this.pending.values()) {
      if (pending.reviewId === reviewId)
        return { callId: pending.callId, ...(pending.agent !== undefined ? { agent: pending.agent } : {}) };
    }
    return undefined;
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
    // What the user left in the diff editor is what is approved: their revision, read as they answer.
    const revisedTexts = pending.reviewId !== undefined ? this.reviews?.revised(pending.reviewId) : undefined;
    const revised = revisedTexts ? { revised: revisedTexts } : {};
    if ((decision === 'allow-always' || decision === 'allow-session') && !pending.bound) {
      this.allow({ key: pending.always, tool: pending.tool, scope: decision === 'allow-always' ? 'user' : 'session' });
      pending.resolve({ kind: 'allow_always', ...revised });
    } else if (decision !== 'deny') {
      pending.resolve({ kind: 'allow', ...revised });
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
