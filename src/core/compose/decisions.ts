/**
 * Why the context looks the way it does: each request's snapshot lists the decisions taken since
 * the previous request, each naming the result ids involved so the report can link them to recall.
 */
export type DecisionKind =
  | 'stub' // an unchanged re-read answered with a stub
  | 'cap' // long output capped head + tail
  | 'same_result' // the same search answered "Same result as"
  | 'diff' // an edit answered with its diff
  | 'budget_cut' // a source cut or compacted to fit its budget
  | 'rules_delta' // a changed rules file sent as a delta in a user message
  | 'compaction' // a compaction choice (stage, model, what was kept)
  | 'elision' // superseded results elided (lossless), with the cost model's verdict
  | 'cache_break' // the request does not extend the previous one's cached prefix
  | 'cold_cache' // the cache had expired before a message: what the user chose at the chat's notice, with its estimate
  | 'cache_ttl' // the cache lifetime bought at a turn's start (cairn.cache.ttl), with the cost model's verdict
  | 'keep_warm' // a keep-warm request while the user is away (cairn.cache.keepWarm), with the plan's prediction
  | 'pack' // a context pack sent full, compact, truncated or skipped under its budget
  | 'skill' // a skill activated, deactivated, re-injected or cut to its cap
  | 'other';

export interface Decision {
  kind: DecisionKind;
  detail: string;
  resultIds: string[];
  /**
   * Tokens the decision kept out of the context (issue 35 §4): a stub's, cap's, same-result's or diff's full body
   * less what the model was shown (`ledger/tokensSaved.ts`); an elision's tokens before less after. Absent for
   * decisions that save nothing by themselves (and in snapshots older than it).
   */
  tokensSaved?: number;
  /** An elision's cost-model figures, so the report can set the realised saving beside the prediction. */
  elision?: ElisionFigures;
  /** A cache-lifetime choice's cost-model figures (`compose/cacheTtlChoice.ts`), for the same comparison. */
  lifetime?: LifetimeFigures;
  /** A keep-warm plan's figures: pings planned, this one's number, the predicted saving over the pause. */
  keepWarm?: {
    readonly planned: number;
    readonly ping: number;
    readonly predictedSaving: number;
    /** Set for a ping during a long tool run (issue 31 item 4); absent: while the user is away after a turn. */
    readonly during?: 'tool_run';
  };
}

/** In base-input-token units; see `compose/cacheTtlChoice.ts`. */
export interface LifetimeFigures {
  readonly stable: '5m' | '1h';
  readonly tail: '5m' | '1h';
  /** The estimated share of pauses between five minutes and an hour. */
  readonly midPauseShare: number;
  /** Tokens up to the turn start (what an hour's entry keeps) and those written at its price now. */
  readonly prefixTokens: number;
  readonly writeTokens: number;
  /** The hour's net saving over the next pause (negative: it would cost). */
  readonly predictedSaving: number;
}

/** In base-input-token units (a cache read is 0.1, a cache write 1.25); see core/elision/README.md. */
export interface ElisionFigures {
  /** Tokens every later request no longer carries. */
  savedPerRequest: number;
  /** The predicted extra cost of the next request (the rewritten tail), 0 when the cache had expired. */
  breakCost: number;
  breakEvenRequests: number;
  expectedRequests: number;
  predictedSaving: number;
}

export function cloneDecision(decision: Decision): Decision {
  return {
    kind: decision.kind,
    detail: decision.detail,
    resultIds: [...decision.resultIds],
    ...(decision.tokensSaved !== undefined ? { tokensSaved: decision.tokensSaved } : {}),
    ...(decision.elision ? { elision: { ...decision.elision } } : {}),
    ...(decision.lifetime ? { lifetime: { ...decision.lifetime } } : {}),
    ...(decision.keepWarm ? { keepWarm: { ...decision.keepWarm } } : {}),
  };
}

/**
 * The decisions taken since the last main request, waiting for its snapshot: the one queue every part
 * adds to (the ledger's answers through the loop, the composer's static part and rules deltas, compaction)
 * and the loop takes from when it composes a main request.
 */
export class DecisionQueue {
  private pending: Decision[] = [];
  /** How many times the queue was taken: a mark from before a take names decisions already reported. */
  private takes = 0;

  add(...decisions: readonly Decision[]): void {
    for (const decision of decisions) this.pending.push(cloneDecision(decision));
  }

  /** Everything queued, in order; the queue is empty after. */
  take(): Decision[] {
    const taken = this.pending;
    this.pending = [];
    this.takes++;
    return taken;
  }

  /** Where the queue is now, so a move that is undone before any request can take its decisions back. */
  mark(): DecisionMark {
    return { takes: this.takes, length: this.pending.length };
  }

  /**
   * Drops what was queued since `mark` (an undone compaction or elision: its decisions describe something
   * that no request will have). Nothing happens once a request took them: they were reported as they were.
   */
  rollback(mark: DecisionMark): void {
    if (mark.takes === this.takes && mark.length <= this.pending.length) this.pending.length = mark.length;
  }
}

export interface DecisionMark {
  readonly takes: number;
  readonly length: number;
}
