/**
 * The editor's clock for keep-warm (issue 31 §2, `cairn.cache.keepWarm`): while the window is open, sends the
 * session's keep-warm request when it comes due (`KeepWarm.nextPingAt()`), and tells the status bar where it
 * stands. The plan, the requests and their decisions are the core's (`core/session/keepWarm.ts`); this file
 * only drives its time. A turn's end arms it (the session has planned by then); the user's next message stops
 * the plan in the session itself; a session switch stops it ('session_closed') and the window's close
 * ('window_closed', `dispose`), so no request ever goes while no window is open.
 *
 * It looks at the wall clock at most every `CHECK_MS` rather than waiting once for the due time: a timer does
 * not count the time the machine slept, and a ping that comes after the expiry would write the whole prefix
 * again instead of reading it (the session then sends none and says so).
 */
import type { AgentSession } from '../core/session/agentSession';
import type { KeepWarmState } from '../core/session/keepWarm';

/** How often the due time is checked against the wall clock while a ping is planned. */
export const CHECK_MS = 10_000;
/** The shortest wait, so a due time already past never turns into a busy loop. */
const MIN_WAIT_MS = 1_000;

export interface KeepWarmTimerDeps {
  /** Told whenever keep-warm's state may have changed (the status bar). */
  readonly onState: (state: KeepWarmState) => void;
  readonly now?: () => number;
  /** A one-shot timer; the tests give their own to move time without waiting. */
  readonly setTimer?: (run: () => void, ms: number) => { dispose(): void };
}

type Warmable = Pick<AgentSession, 'keepWarm'>;

function realTimer(run: () => void, ms: number): { dispose(): void } {
  const handle = setTimeout(run, ms);
  return { dispose: () => clearTimeout(handle) };
}

export class KeepWarmTimer {
  private session: Warmable | undefined;
  private timer: { dispose(): void } | undefined;
  private closed = false;

  constructor(private readonly deps: KeepWarmTimerDeps) {}

  /** A turn of `session` ended (or the session opened): waits for its next ping, if it planned one. */
  arm(session: Warmable): void {
    if (this.closed) return;
    if (this.session && this.session !== session) this.session.keepWarm?.stop('session_closed');
    this.session = session;
    this.schedule();
  }

  /** The session is being closed or switched away from: no more pings for it. */
  detach(): void {
    this.session?.keepWarm?.stop('session_closed');
    this.clear();
    this.session = undefined;
    this.deps.onState({ kind: 'off' });
  }

  /** The window is closing: nothing is sent after this. */
  dispose(): void {
    this.closed = true;
    this.session?.keepWarm?.stop('window_closed');
    this.clear();
    this.session = undefined;
  }

  private schedule(): void {
    this.clear();
    const keepWarm = this.session?.keepWarm;
    this.deps.onState(keepWarm?.state() ?? { kind: 'off' });
    const due = keepWarm?.nextPingAt();
    if (due === undefined || this.closed) return;
    const wait = Math.min(CHECK_MS, Math.max(MIN_WAIT_MS, due - this.now()));
    this.timer = (this.deps.setTimer ?? realTimer)(() => void this.tick(), wait);
  }

  private async tick(): Promise<void> {
    this.timer = undefined;
    const session = this.session;
    const keepWarm = session?.keepWarm;
    const due = keepWarm?.nextPingAt();
    if (keepWarm && due !== undefined && this.now() >= due) {
      // The session's own stop (a message, a close) aborts it; a failure ends the plan and is logged there.
      await keepWarm.ping(new AbortController().signal);
    }
    if (this.session === session && !this.closed) this.schedule();
  }

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  private clear(): void {
    this.timer?.dispose();
    this.timer = undefined;
  }
}
