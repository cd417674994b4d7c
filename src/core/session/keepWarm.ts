/**
 * Keeping the prompt cache warm while the user is away (issue 31 §2, `cairn.cache.keepWarm`): after a turn ends,
 * the cost model (`compose/keepWarmModel.ts`) plans up to a bounded number of minimal requests, the last main
 * request again with max_tokens 1, each sent half a minute before the cache entry would expire; the user's next
 * message, a closed window or the plan's end stops them. The host drives the clock (a timer for `nextPingAt()`,
 * `stop('window_closed')` when the window closes, `state()` for the status bar); the headless runner passes a
 * script's idle through `AgentSession.passIdle`, which sends the pings that fall in it.
 */
import { CACHE_TTL_MS, EXPIRY_MARGIN_MS } from '../cacheTime/cacheLifetime';
import type { AgentEvent } from '../agent/events';
import type { JournalRecorder } from '../agent/journalRecorder';
import type { RequestCounter } from '../agent/requestCounter';
import type { Composer } from '../compose/composer';
import { planKeepWarm, PING_INTERVAL_MS } from '../compose/keepWarmModel';
import type { ModelClient } from '../model/types';
import type { Clock } from '../ports';

/** What the status bar shows: a small typed value the host renders (`KeepWarm.state()`). */
export type KeepWarmState =
  | { readonly kind: 'off' }
  /** Nothing planned: a turn is running, none has ended yet, or the model found it not worth it. */
  | { readonly kind: 'idle'; readonly reason: string }
  | {
      readonly kind: 'warming';
      /** While the user is away after a turn, or during a long tool run. */
      readonly during: 'pause' | 'tool_run';
      readonly pingsSent: number;
      readonly pingsPlanned: number;
      /** Epoch ms of the next ping, and of the cache's expiry if no other request comes. */
      readonly nextPingAt: number;
      readonly cacheExpiresAt: number;
    }
  | { readonly kind: 'stopped'; readonly reason: KeepWarmStop; readonly pingsSent: number };

/**
 * Why keep-warm stopped: the user's next message, the window or the session closing, the plan's end, a failed
 * request, or the cache already gone when the ping came due (the machine slept past it: a ping then would
 * write the whole prefix at 1.25× instead of reading it, so none is sent).
 */
export type KeepWarmStop =
  | 'user_returned'
  | 'window_closed'
  | 'session_closed'
  | 'plan_done'
  | 'failed'
  | 'cache_expired'
  /** A tool run's plan: its calls ended, and the turn's next request reads the prefix itself. */
  | 'run_ended';

export interface KeepWarmDeps {
  readonly setting: () => 'off' | 'auto';
  /** Whether a long tool run is kept warm too (`CacheTimeSettings.keepWarmToolRuns`; off until measured). */
  readonly toolRuns?: () => boolean;
  readonly clock: Clock;
  readonly composer: Pick<Composer, 'keepWarmComposition' | 'pauses' | 'lastMainTokens' | 'observeUsage'>;
  readonly model: ModelClient;
  readonly recorder: Pick<JournalRecorder, 'snapshot'>;
  readonly requests: RequestCounter;
  readonly emit: (event: AgentEvent) => void;
  readonly log: (line: string) => void;
}

interface Plan {
  /** After a turn (the user away) or during a tool run (the turn goes on when it ends). */
  readonly during: 'pause' | 'tool_run';
  readonly planned: number;
  readonly predictedSaving: number;
  sent: number;
  lastAt: number;
}

export class KeepWarm {
  private plan: Plan | undefined;
  /** The ping in flight, aborted when keep-warm stops (the user's message goes instead). */
  private inFlight: AbortController | undefined;
  private pinging: Promise<void> = Promise.resolve();
  private current: KeepWarmState = { kind: 'idle', reason: 'No turn has ended yet.' };
  /** How long this session's tool runs took (ms): the pauses a tool-run plan is weighed on. */
  private readonly toolRunsMs: number[] = [];
  private toolRunFrom: number | undefined;

  constructor(private readonly deps: KeepWarmDeps) {}

  state(): KeepWarmState {
    return this.deps.setting() === 'off' ? { kind: 'off' } : this.current;
  }

  /** A turn ended: plans the pings from the last request's size and the session's pauses. */
  afterTurn(): void {
    this.plan = undefined;
    if (this.deps.setting() === 'off') return;
    this.planFor('pause', this.deps.composer.pauses());
  }

  /**
   * An answer's calls started running (issue 31 item 4): a command, an approval wait or a sub-agent that runs past
   * the cache's lifetime expires the parent's prefix mid-turn, and the next request is certain to come. The same
   * model plans the pings, weighed on this session's tool runs so far (short ones cost and save nothing).
   */
  toolRunStarted(): void {
    this.toolRunFrom = this.deps.clock.now();
    if (this.deps.setting() === 'off' || !this.deps.toolRuns?.()) return;
    this.plan = undefined;
    this.planFor('tool_run', this.toolRunsMs);
  }

  /** The calls ended: the turn's next request goes now, so a tool-run plan ends here. */
  toolRunEnded(): void {
    if (this.toolRunFrom !== undefined) this.toolRunsMs.push(this.deps.clock.now() - this.toolRunFrom);
    this.toolRunFrom = undefined;
    if (this.plan?.during !== 'tool_run') return;
    this.inFlight?.abort();
    this.inFlight = undefined;
    this.finish('run_ended');
  }

  private planFor(during: Plan['during'], pausesMs: readonly number[]): void {
    const now = this.deps.clock.now();
    const tokens = this.deps.composer.lastMainTokens(now);
    if (!tokens) return;
    const atStake = tokens.hourHeld === Infinity ? 0 : Math.max(0, tokens.prompt - tokens.hourHeld);
    const plan = planKeepWarm({ prefixTokens: tokens.prompt, atStakeTokens: atStake, pausesMs });
    this.deps.log(`[Cache] keep-warm ${during === 'pause' ? 'after the turn' : 'during the tool run'}: ${plan.reason}`);
    if (plan.pings === 0) {
      this.current = { kind: 'idle', reason: plan.reason };
      return;
    }
    this.plan = { during, planned: plan.pings, predictedSaving: plan.predictedSaving, sent: 0, lastAt: now };
    this.current = this.warming();
  }

  /** When the next ping is due (epoch ms), or undefined when none is planned. */
  nextPingAt(): number | undefined {
    const plan = this.plan;
    return plan && plan.sent < plan.planned ? plan.lastAt + PING_INTERVAL_MS : undefined;
  }

  /** The user sent a message, or the window or the session closed: no more pings, and the one in flight is cut. */
  stop(reason: 'user_returned' | 'window_closed' | 'session_closed'): void {
    this.inFlight?.abort();
    this.inFlight = undefined;
    if (!this.plan) return;
    this.current = { kind: 'stopped', reason, pingsSent: this.plan.sent };
    this.plan = undefined;
  }

  /** Resolves when no ping is in flight (a closing session waits for it before its journal closes). */
  settled(): Promise<void> {
    return this.pinging;
  }

  /** Sends the ping that is due (call at `nextPingAt()`); a failure ends the plan and is only logged. */
  ping(signal: AbortSignal): Promise<void> {
    if (this.inFlight) return this.pinging;
    this.pinging = this.pingDue(signal);
    return this.pinging;
  }

  private async pingDue(signal: AbortSignal): Promise<void> {
    const plan = this.plan;
    const due = this.nextPingAt();
    const now = this.deps.clock.now();
    if (!plan || due === undefined || now < due) return;
    if (this.deps.setting() === 'off') {
      this.plan = undefined;
      return;
    }
    if (now >= plan.lastAt + CACHE_TTL_MS['5m'] - EXPIRY_MARGIN_MS) {
      this.deps.log(`[Cache] keep-warm: the cache expired before ping ${plan.sent + 1} came due (was the machine asleep?); none sent.`);
      this.finish('cache_expired');
      return;
    }
    const composition = this.deps.composer.keepWarmComposition([
      {
        kind: 'keep_warm',
        detail: `keep-warm ${plan.sent + 1} of ${plan.planned}${plan.during === 'tool_run' ? ' during a long tool run' : ''}: the last request's prefix read again so it outlives the ${plan.during === 'tool_run' ? 'run' : 'pause'}; predicted saving ${Math.round(plan.predictedSaving)}`,
        resultIds: [],
        keepWarm: {
          planned: plan.planned,
          ping: plan.sent + 1,
          predictedSaving: plan.predictedSaving,
          ...(plan.during === 'tool_run' ? { during: 'tool_run' as const } : {}),
        },
      },
    ]);
    if (!composition) {
      this.finish('failed');
      return;
    }
    const index = this.deps.requests.take();
    plan.lastAt = now;
    plan.sent++;
    const inFlight = new AbortController();
    this.inFlight = inFlight;
    try {
      const response = await this.deps.model.stream(composition.request, {
        signal: AbortSignal.any([signal, inFlight.signal]),
        purpose: 'keep_warm',
      });
      // The main model's cache is as warm as after its own answer: elision and compaction judge it so.
      this.deps.requests.mainAnswered();
      const snapshot = this.deps.composer.observeUsage(composition.snapshot, response.usage);
      await this.deps.recorder.snapshot(snapshot);
      this.deps.emit({ type: 'request_finished', requestIndex: index, snapshot });
    } catch (error) {
      // Stopped while in flight (the user's message, a close): the stop already says why.
      if (this.plan !== plan) return;
      this.deps.log(`[Cache] keep-warm request failed: ${error instanceof Error ? error.message : String(error)}`);
      this.finish('failed');
      return;
    } finally {
      if (this.inFlight === inFlight) this.inFlight = undefined;
    }
    if (this.plan !== plan) return;
    if (plan.sent >= plan.planned) this.finish('plan_done');
    else this.current = this.warming();
  }

  private finish(reason: 'plan_done' | 'failed' | 'cache_expired' | 'run_ended'): void {
    this.current = { kind: 'stopped', reason, pingsSent: this.plan?.sent ?? 0 };
    this.plan = undefined;
  }

  private warming(): KeepWarmState {
    const plan = this.plan!;
    return {
      kind: 'warming',
      during: plan.during,
      pingsSent: plan.sent,
      pingsPlanned: plan.planned,
      nextPingAt: plan.lastAt + PING_INTERVAL_MS,
      cacheExpiresAt: plan.lastAt + CACHE_TTL_MS['5m'],
    };
  }
}
