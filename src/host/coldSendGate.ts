/**
 * The cold-send notice (issue 31 §3): before a message goes to a prompt cache that has expired (or will have
 * by the send), the chat says what this send writes again and costs, and what eliding or compacting first
 * would, and waits for the user's choice. The message is held here meanwhile and shown in the notice; a view
 * opened meanwhile gets the notice again (`view`), and a session closed meanwhile hands it back for the input.
 *
 * The moves are the session's own: "Elide first" is `AgentSession.elideSuperseded` (the compactor's elider),
 * "Compact first" the Compact Context run (`CompactionRunner`). The choice and its figures are listed in the
 * next request's snapshot as a `cold_cache` decision, so the journal keeps what the user chose and why.
 * Escape answers "send as is", which is what Cairn did before this notice existed; so does "don't ask again
 * this session".
 */
import { cacheWarmth, coldBySend, type CacheWarmth } from '../core/cacheTime/cacheLifetime';
import { coldSendEstimate } from '../core/cacheTime/coldSendEstimate';
import type { PriceTable } from '../core/pricing/prices';
import { errorMessage } from '../core/errorMessage';
import type { AgentSession } from '../core/session/agentSession';
import type { ColdSendChoice, ColdSendView } from '../shared/protocol';

/** When the cache was last used and for how long it keeps (from the session's last main request). */
export interface CacheUse {
  readonly at: number;
  readonly lifetimeMs: number;
}

export interface ColdSendGateDeps {
  /** The session's own agent's last main request: when, and its cache lifetime; undefined before any. */
  lastCacheUse(): CacheUse | undefined;
  now(): number;
  /** The model the next request uses, and the prices the snapshots use. */
  model(): string;
  prices(): PriceTable;
  publish(view: ColdSendView | null): void;
  /** Compact Context's run (progress, notice, undo), as the chat's Compact… starts it. */
  compactNow(): Promise<void>;
  log: { info(line: string): void; warn(line: string): void };
}

/** What the controller does next: send (after the chosen move), or nothing (the message went back to the input). */
export type ColdSendOutcome = { readonly send: true } | { readonly send: false; readonly text: string };

interface Waiting {
  readonly view: ColdSendView;
  readonly answer: (choice: { readonly choice: ColdSendChoice; readonly dontAskAgain: boolean } | 'abandoned') => void;
}

export class ColdSendGate {
  private waiting: Waiting | undefined;
  private lastId = 0;
  /** "Don't ask again this session": every later send goes as is. */
  private quiet = false;

  constructor(private readonly deps: ColdSendGateDeps) {}

  /** The notice waiting for an answer, for a view that opens meanwhile. */
  get view(): ColdSendView | undefined {
    return this.waiting?.view;
  }

  /** Where the cache stands now. */
  warmth(): CacheWarmth {
    const use = this.deps.lastCacheUse();
    return cacheWarmth(use?.at, use?.lifetimeMs ?? 0, this.deps.now());
  }

  /**
   * Before `text` is sent on `session`: on a cold cache, shows the notice and waits for the choice, then makes
   * the chosen move. A warm cache, no request yet, or "don't ask again" sends at once, as before.
   */
  async beforeSend(session: AgentSession, text: string): Promise<ColdSendOutcome> {
    const warmth = this.warmth();
    if (this.quiet || !coldBySend(warmth) || warmth.state === 'none') return { send: true };
    const view = await this.notice(session, text, warmth).catch((error: unknown) => {
      // The figures could not be worked out: the message goes as it always did, rather than wait on a broken notice.
      this.deps.log.warn(`The cold-cache notice could not be prepared (${errorMessage(error)}); sending as is.`);
      return undefined;
    });
    if (!view) return { send: true };
    const answer = await new Promise<Parameters<Waiting['answer']>[0]>((resolve) => {
      this.waiting = { view, answer: resolve };
      this.deps.publish(view);
    });
    this.waiting = undefined;
    this.deps.publish(null);
    if (answer === 'abandoned') return { send: false, text };
    if (answer.dontAskAgain) this.quiet = true;
    session.noteDecision({ kind: 'cold_cache', detail: decisionDetail(view, answer.choice, answer.dontAskAgain), resultIds: [] });
    this.deps.log.info(
      `[Context] cold cache: the user chose ${answer.choice}${answer.dontAskAgain ? ' (and not to be asked again)' : ''}.`,
    );
    if (answer.choice === 'elide') await this.elide(session);
    else if (answer.choice === 'compact') await this.compact();
    return { send: true };
  }

  /** The webview's answer; one naming another (an older) notice does nothing. */
  answer(id: number, choice: ColdSendChoice, dontAskAgain: boolean): void {
    const waiting = this.waiting;
    if (!waiting || waiting.view.id !== id) {
      this.deps.log.warn(`A cold-cache choice for notice ${id} came, but it is not the one waiting; ignored.`);
      return;
    }
    waiting.answer({ choice, dontAskAgain });
  }

  /** The session closes or changes while a message waits: the message is handed back (the controller puts it in the input). */
  abandon(): void {
    this.waiting?.answer('abandoned');
  }

  /** A new session: it asks again. */
  reset(): void {
    this.abandon();
    this.quiet = false;
  }

  private async notice(session: AgentSession, text: string, warmth: CacheWarmth & { state: 'warm' | 'expired' }): Promise<ColdSendView> {
    const facts = await session.coldSendFacts(Math.ceil(text.length / 4));
    const model = this.deps.model();
    const estimate = coldSendEstimate(facts, model, this.deps.prices(), warmth.lifetimeMs > 5 * 60_000 ? '1h' : '5m');
    return {
      id: ++this.lastId,
      text,
      expiredForMs: warmth.state === 'expired' ? warmth.expiredForMs : -warmth.expiresInMs,
      lifetimeMinutes: Math.round(warmth.lifetimeMs / 60_000),
      model,
      asIs: estimate.asIs,
      ...(estimate.automatic ? { automatic: estimate.automatic } : {}),
      ...(estimate.elide ? { elide: estimate.elide } : {}),
      ...(estimate.compact ? { compact: estimate.compact } : {}),
    };
  }

  private async elide(session: AgentSession): Promise<void> {
    try {
      if (!(await session.elideSuperseded())) this.deps.log.info('[Context] Elide first: nothing was superseded any more; sending as is.');
    } catch (error) {
      this.deps.log.warn(`Elide first failed (${errorMessage(error)}); sending as is.`);
    }
  }

  private async compact(): Promise<void> {
    try {
      await this.deps.compactNow();
    } catch (error) {
      // The compaction's own notice says what failed; the message still goes, as the user meant it to.
      this.deps.log.warn(`Compact first failed (${errorMessage(error)}); sending as is.`);
    }
  }
}

/** The snapshot's line: what the notice said and what the user chose. */
function decisionDetail(view: ColdSendView, choice: ColdSendChoice, dontAskAgain: boolean): string {
  const usd = (value: number | null): string => (value === null ? '' : ` ($${value.toFixed(4)})`);
  const ways = [
    `as is ~${view.asIs.tokens} tokens${usd(view.asIs.usd)}${view.automatic ? ` (Cairn's own ${view.automatic} included)` : ''}`,
    ...(view.elide ? [`elide first ~${view.elide.tokens}${usd(view.elide.usd)}, ${view.elide.results} result(s)`] : []),
    ...(view.compact ? [`compact first at most ~${view.compact.tokens}${usd(view.compact.usd)} with the summary`] : []),
  ];
  const when =
    view.expiredForMs > 0
      ? `had expired ${Math.round(view.expiredForMs / 60_000)} min before the send`
      : `was to expire within ${Math.ceil(-view.expiredForMs / 1000)} s of the send`;
  const chosen = { asIs: 'send as is', elide: 'elide first', compact: 'compact first' }[choice];
  return `The cache (${view.lifetimeMinutes}-minute lifetime) ${when}; the user chose ${chosen}${dontAskAgain ? ' and not to be asked again this session' : ''}. Estimates written again: ${ways.join('; ')}.`;
}
