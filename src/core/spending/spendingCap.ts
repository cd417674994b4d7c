import type { AgentEvent } from '../agent/events';
import { resolvePrices, type PriceTable } from '../pricing/prices';
import { estimateRequestUsd, expectedCachedTokens, requestCostOf, type NextRequest } from './requestCost';

/** `cairn.budget.turn` and `cairn.budget.session`, in US$; undefined: no cap. */
export interface SpendingCaps {
  readonly turn?: number;
  readonly session?: number;
}

export type CapScope = 'turn' | 'session';

/** What the user is asked before a request that could pass a cap. */
export interface CapQuestion {
  readonly scope: CapScope;
  /** The cap as it stands (the setting, or what the user raised it to). */
  readonly capUsd: number;
  /** Spent so far against it: every request of the turn (or session), its sub-agents' and compaction's included. */
  readonly spentUsd: number;
  /** The most the next request is expected to cost (`estimateRequestUsd`). */
  readonly estimateUsd: number;
  /** The sub-agent whose request it is; absent for the session's agent. */
  readonly agent?: string;
  /** The question in a sentence: what was spent and what each answer does. */
  readonly text: string;
}

/** Continue once (this request goes; the next past the cap asks again), a new cap, or stop. */
export type CapAnswer = { readonly kind: 'once' } | { readonly kind: 'raise'; readonly capUsd: number } | { readonly kind: 'stop' };

/** Who answers a cap (the editor asks the user; the headless runner answers from its flag). */
export interface SpendingApprover {
  askPastCap(question: CapQuestion, signal: AbortSignal): Promise<CapAnswer>;
}

/** Spent against the caps, for the chat. */
export interface SpendingStatus {
  readonly turnUsd: number;
  readonly sessionUsd: number;
  readonly turnCapUsd?: number;
  readonly sessionCapUsd?: number;
}

/** A sub-agent's share of what its turn had left when it started (`SpendingCap.shareForChild`). */
export interface ChildShare {
  readonly limitUsd: number;
  spentUsd: number;
}

/**
 * A child may spend at most this share of what remained of the tightest cap when it started; past it, it
 * stops and answers with what it has (as at its `maxTurns`). The caps themselves still hold for every
 * request of every child, so this only keeps one child from spending what its siblings and parent need.
 */
export const CHILD_SHARE = 0.5;

/**
 * The session's spending caps (issue 32 §3), one per session. Counts what every request of the session cost
 * (`note`, from the session's events: its own, compaction's and every sub-agent's), and before each request
 * of the session's agent or a child (`beforeRequest`) asks the user when that request could pass a cap:
 * continue once, raise, or stop. A stop ends the turn: the loop stops before that request (every call is
 * answered by then), and every child of the turn stops before its next one. With no one to answer, or an
 * answerer that fails, the answer is stop: a cap is never passed on nobody's word.
 */
export class SpendingCap {
  private turnSpent = 0;
  private sessionSpent: number;
  private turnRaised: number | undefined;
  private sessionRaised: number | undefined;
  private stopped: string | undefined;
  /** The question being asked: requests that reach a cap meanwhile wait for its answer, then look again. */
  private asking: Promise<CapAnswer> | undefined;
  private readonly prices: PriceTable;

  constructor(
    private readonly caps: () => SpendingCaps,
    prices: PriceTable | undefined,
    private readonly approver: SpendingApprover | undefined,
    /** What the session spent before this window opened it (its journal's requests). */
    sessionSpentUsd = 0,
  ) {
    this.prices = resolvePrices(prices);
    this.sessionSpent = sessionSpentUsd;
  }

  /** The session's agent starts a run: the turn's spending, its raised cap and its stop start again. */
  startTurn(): void {
    this.turnSpent = 0;
    this.turnRaised = undefined;
    this.stopped = undefined;
  }

  /** An event of the session's views: a finished request (at any depth) adds its cost. */
  note(event: AgentEvent): void {
    const usd = requestCostOf(event);
    this.turnSpent += usd;
    this.sessionSpent += usd;
  }

  status(): SpendingStatus {
    const { turn, session } = this.current();
    return {
      turnUsd: this.turnSpent,
      sessionUsd: this.sessionSpent,
      ...(turn !== undefined ? { turnCapUsd: turn } : {}),
      ...(session !== undefined ? { sessionCapUsd: session } : {}),
    };
  }

  /** A starting child's share of what is left (undefined when no cap is set). */
  shareForChild(): ChildShare | undefined {
    const { turn, session } = this.current();
    const left = [
      turn !== undefined ? turn - this.turnSpent : undefined,
      session !== undefined ? session - this.sessionSpent : undefined,
    ].filter((n): n is number => n !== undefined);
    if (left.length === 0) return undefined;
    return { limitUsd: Math.max(0, Math.min(...left)) * CHILD_SHARE, spentUsd: 0 };
  }

  /**
   * Before a request of the session's agent or a child: undefined to send it, or why the run stops (the loop
   * ends `budget` with it). A child past its `share` stops without asking; past a cap the user is asked.
   */
  async beforeRequest(
    request: NextRequest | (() => Promise<NextRequest>),
    signal: AbortSignal,
    who: { agent?: string; share?: ChildShare } = {},
  ): Promise<string | undefined> {
    if (this.stopped === undefined && !who.share) {
      const { turn, session } = this.current();
      // No cap: nothing to estimate (the estimate reads the whole prompt).
      if (turn === undefined && session === undefined) return undefined;
    }
    const next = typeof request === 'function' ? await request() : request;
    for (;;) {
      if (this.stopped !== undefined) return this.stopped;
      const estimate = estimateRequestUsd(next, this.prices);
      // A model without a price cannot be held to a cap in dollars (the README says so).
      if (estimate === null) return undefined;
      if (who.share && who.share.spentUsd + estimate > who.share.limitUsd) {
        return `${who.agent ?? 'This sub-agent'} stopped before a request that could pass its share of the turn's spending cap: it may spend ${usd(who.share.limitUsd)} (half of what was left when it started), it has spent ${usd(who.share.spentUsd)} and the next request could cost up to ${usd(estimate)}.`;
      }
      const over = this.capPassed(estimate);
      if (over === undefined) return undefined;
      if (signal.aborted) return 'Cancelled by the user.';
      if (this.asking) {
        await this.asking.catch(() => undefined);
        continue;
      }
      const question = this.question(over, estimate, next, who.agent);
      this.asking = this.ask(question, signal);
      let answer: CapAnswer;
      try {
        answer = await this.asking;
      } finally {
        this.asking = undefined;
      }
      if (signal.aborted) return 'Cancelled by the user.';
      if (answer.kind === 'once') return undefined;
      if (answer.kind === 'raise' && Number.isFinite(answer.capUsd) && answer.capUsd > question.capUsd) {
        if (over.scope === 'turn') this.turnRaised = answer.capUsd;
        else this.sessionRaised = answer.capUsd;
        continue;
      }
      this.stopped = stopMessage(question);
      return this.stopped;
    }
  }

  private async ask(question: CapQuestion, signal: AbortSignal): Promise<CapAnswer> {
    if (!this.approver) return { kind: 'stop' };
    try {
      return await this.approver.askPastCap(question, signal);
    } catch {
      return { kind: 'stop' };
    }
  }

  private current(): SpendingCaps {
    const caps = this.caps();
    const turn = this.turnRaised ?? caps.turn;
    const session = this.sessionRaised ?? caps.session;
    return { ...(turn !== undefined ? { turn } : {}), ...(session !== undefined ? { session } : {}) };
  }

  /** The first cap the request could pass (the turn's before the session's), with what was spent against it. */
  private capPassed(estimate: number): { scope: CapScope; capUsd: number; spentUsd: number } | undefined {
    const { turn, session } = this.current();
    if (turn !== undefined && this.turnSpent + estimate > turn) return { scope: 'turn', capUsd: turn, spentUsd: this.turnSpent };
    if (session !== undefined && this.sessionSpent + estimate > session)
      return { scope: 'session', capUsd: session, spentUsd: this.sessionSpent };
    return undefined;
  }

  private question(
    over: { scope: CapScope; capUsd: number; spentUsd: number },
    estimate: number,
    next: NextRequest,
    agent?: string,
  ): CapQuestion {
    const whose = agent !== undefined ? `${agent}'s next request` : 'The next request';
    const text =
      `${whose} could pass ${capName(over.scope)}: ` +
      `${usd(over.spentUsd)} spent of ${usd(over.capUsd)} (${settingOf(over.scope)}), and it could cost up to ${usd(estimate)} ` +
      `(about ${next.promptTokens.toLocaleString('en-US')} prompt tokens, ${expectedCachedTokens(next).toLocaleString('en-US')} of them expected from the cache, and up to ${next.maxTokens.toLocaleString('en-US')} output tokens). ` +
      `Continue once: this request goes, and the next one past the cap asks again. Raise: a higher cap for ${over.scope === 'turn' ? 'the rest of this turn' : 'the rest of this session'}. ` +
      `Stop: the turn ends before this request${agent !== undefined ? ' (each sub-agent answers with what it has)' : ''}.`;
    return { ...over, estimateUsd: estimate, ...(agent !== undefined ? { agent } : {}), text };
  }
}

function capName(scope: CapScope): string {
  return scope === 'turn' ? "this turn's spending cap" : "this session's spending cap";
}

function settingOf(scope: CapScope): string {
  return scope === 'turn' ? 'cairn.budget.turn' : 'cairn.budget.session';
}

function stopMessage(question: CapQuestion): string {
  return (
    `Stopped before a request that could pass ${capName(question.scope)}: ${usd(question.spentUsd)} spent of ${usd(question.capUsd)} ` +
    `(${settingOf(question.scope)}), and the next request could cost up to ${usd(question.estimateUsd)}. ` +
    (question.scope === 'turn'
      ? 'Send a message to go on (a new turn has its own cap), or raise cairn.budget.turn in your user settings.'
      : 'Raise cairn.budget.session in your user settings to go on in this session, or start a new session.')
  );
}

export function usd(value: number): string {
  return `$${value.toFixed(4)}`;
}
