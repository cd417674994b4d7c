/**
 * The time a scenario is played at: real time plus every idle the script has had so far (`{"user": "…",
 * "idle": SECONDS}`, `src/node/scenario/types.ts`). Nobody sleeps: an hour's idle is one addition.
 *
 * One clock per played script, owned by its `ScenarioPlayer`: the local server expires its prompt-cache entries
 * by it, and the headless runner hands the same clock to Cairn's session as its `Clock` port, so Cairn judges a
 * cold cache by the time the server keeps. Peers run as other processes and meet it through the server alone.
 */
import type { Clock } from '../../core/ports';

export class VirtualClock implements Clock {
  private idleMs = 0;

  /** `realNow`: the clock under the idle (tests give a fixed one). */
  constructor(private readonly realNow: () => number = Date.now) {}

  now(): number {
    return this.realNow() + this.idleMs;
  }

  /** The user was away this many seconds: everything after happens that much later. */
  advance(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`An idle is seconds ≥ 0, not ${seconds}.`);
    this.idleMs += seconds * 1000;
  }

  /** Every idle so far, in seconds. */
  get idleSeconds(): number {
    return this.idleMs / 1000;
  }
}
