/**
 * The editor's keep-warm driver (`src/host/keepWarmTimer.ts`) on a real session (the loop, the composer, the
 * journal, the SDK) against the local server, whose prompt cache expires on the same fake clock: the test moves
 * time and fires the timers that came due; no one sleeps.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RequestSnapshot } from '../../src/core/compose/snapshot';
import type { KeepWarmState } from '../../src/core/session/keepWarm';
import { CHECK_MS, KeepWarmTimer } from '../../src/host/keepWarmTimer';
import { startScenarioSession, type ScenarioSession } from './harness';

const MINUTE = 60_000;
let open: ScenarioSession | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

/** A fake clock and fake one-shot timers: `pass` moves the clock and runs each timer when its time comes. */
class FakeTime {
  now = 1_000_000_000_000;
  private timers: { at: number; run: () => void }[] = [];
  /** Runs that a timer started (a ping's request), so `pass` can wait for them. */
  private running: Promise<unknown>[] = [];

  setTimer = (run: () => void, ms: number) => {
    const timer = { at: this.now + ms, run };
    this.timers.push(timer);
    return { dispose: () => void (this.timers = this.timers.filter((t) => t !== timer)) };
  };

  get pending(): number {
    return this.timers.length;
  }

  /** Moves the clock `ms` on, firing every timer due on the way at its own time and waiting for what it started. */
  async pass(ms: number): Promise<void> {
    const end = this.now + ms;
    for (;;) {
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.now = Math.max(this.now, next.at);
      next.run();
      // The tick awaits the ping's request; let it finish, and the tick schedule its next, before the clock moves on.
      await this.settle();
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    this.now = end;
  }

  /** Jumps the clock without firing anything in between (the machine slept), then fires what is due. */
  async sleep(ms: number): Promise<void> {
    this.now += ms;
    await this.pass(0);
  }

  track(promise: Promise<unknown>): void {
    this.running.push(promise);
  }

  private async settle(): Promise<void> {
    await Promise.all(this.running.splice(0));
  }
}

const scenario = {
  model: { id: 'claude-test-model', context_window: 200000, max_output: 8000 },
  workspace: { 'notes.md': { lines: 600, text: 'note {n}: something worth reading twice, long enough to be cached' } },
  turns: [
    { assistant: { tool_calls: [{ name: 'read', input: { path: 'notes.md' } }] } },
    { assistant: { text: 'read them' } },
    { assistant: { text: 'welcome back' } },
  ],
};

async function warmSession(time: FakeTime) {
  open = await startScenarioSession(scenario, {
    clock: { now: () => time.now },
    serverClock: () => time.now,
    compaction: { cache: { ttl: '5m', keepWarm: 'auto' } },
  });
  const states: KeepWarmState[] = [];
  const timer = new KeepWarmTimer({
    onState: (state) => states.push(state),
    now: () => time.now,
    setTimer: (run, ms) =>
      time.setTimer(() => {
        run();
        // The tick sends its ping at once: the fake time waits for its answer before moving on.
        time.track(open!.assembled.session.keepWarm!.settled());
      }, ms),
  });
  const session = open.assembled.session;
  return { session, timer, states, server: open.server };
}

async function snapshotsOf(session: ScenarioSession): Promise<RequestSnapshot[]> {
  const all: RequestSnapshot[] = [];
  for await (const record of session.assembled.journal.readAll({ types: ['snapshot'] })) {
    if (record.type === 'snapshot') all.push(record.snapshot as RequestSnapshot);
  }
  return all;
}

describe('keep-warm in the editor (the host drives its time)', () => {
  it('pings at its time while the window is open, each a snapshot with its decision; the return reads the prefix', async () => {
    const time = new FakeTime();
    const { session, timer, states, server } = await warmSession(time);
    await session.send('read the notes');
    timer.arm(session);
    expect(states.at(-1)).toMatchObject({ kind: 'warming', pingsSent: 0 });
    const planned = (states.at(-1) as Extract<KeepWarmState, { kind: 'warming' }>).pingsPlanned;
    expect(planned).toBeGreaterThanOrEqual(2);

    // Twelve minutes away: pings at 4.5 and 9 minutes keep the entry alive past 12.
    await time.pass(12 * MINUTE);
    const pings = server.requests.filter((r) => r.kind === 'keep_warm');
    expect(pings).toHaveLength(2);
    for (const ping of pings) expect(ping.usage!.cache_creation_input_tokens).toBe(0);
    expect(states.at(-1)).toMatchObject({ kind: 'warming', pingsSent: 2 });

    await session.send('back');
    const mains = server.requests.filter((r) => r.kind === 'main');
    const firstWrite = mains.slice(0, 2).reduce((n, r) => n + r.usage!.cache_creation_input_tokens, 0);
    expect(mains.at(-1)!.usage!.cache_read_input_tokens).toBeGreaterThanOrEqual(firstWrite);
    const keepWarm = (await snapshotsOf(open!)).filter((s) => s.purpose === 'keep_warm');
    expect(keepWarm.map((s) => s.decisions[0]!.keepWarm!.ping)).toEqual([1, 2]);
    expect(keepWarm[0]!.decisions[0]!.keepWarm!.predictedSaving).toBeGreaterThan(0);
    timer.dispose();
  });

  it('sends nothing once the window closes', async () => {
    const time = new FakeTime();
    const { session, timer, states, server } = await warmSession(time);
    await session.send('read the notes');
    timer.arm(session);
    await time.pass(2 * MINUTE);
    timer.dispose();
    expect(states.at(-1)).toMatchObject({ kind: 'warming' });
    expect(session.keepWarm!.state()).toEqual({ kind: 'stopped', reason: 'window_closed', pingsSent: 0 });
    expect(time.pending).toBe(0);
    await time.pass(30 * MINUTE);
    expect(server.requests.filter((r) => r.kind === 'keep_warm')).toHaveLength(0);
    // An arm after the close (a run that ended as the window closed) starts nothing.
    timer.arm(session);
    expect(time.pending).toBe(0);
  });

  it('sends nothing when the machine slept past the expiry: the ping would write the whole prefix again', async () => {
    const time = new FakeTime();
    const { session, timer, states, server } = await warmSession(time);
    await session.send('read the notes');
    timer.arm(session);
    // The first check is at most CHECK_MS away; the machine sleeps through it and wakes six minutes on.
    await time.sleep(6 * MINUTE);
    expect(CHECK_MS).toBeLessThan(MINUTE);
    expect(server.requests.filter((r) => r.kind === 'keep_warm')).toHaveLength(0);
    expect(states.at(-1)).toEqual({ kind: 'stopped', reason: 'cache_expired', pingsSent: 0 });
    expect(time.pending).toBe(0);
  });

  it('stops with the user’s next message, and plans again when that turn ends', async () => {
    const time = new FakeTime();
    const { session, timer, server } = await warmSession(time);
    await session.send('read the notes');
    timer.arm(session);
    await time.pass(5 * MINUTE);
    expect(server.requests.filter((r) => r.kind === 'keep_warm')).toHaveLength(1);
    const sending = session.send('back');
    expect(session.keepWarm!.state()).toMatchObject({ kind: 'stopped', reason: 'user_returned', pingsSent: 1 });
    await sending;
    timer.arm(session);
    expect(session.keepWarm!.state()).toMatchObject({ kind: 'warming', pingsSent: 0 });
    timer.dispose();
  });
});

describe('keep-warm during a long tool run (issue 31 item 4; keepWarmToolRuns, off until measured)', () => {
  // The command waits for the test's word, while the fake clock moves six minutes on.
  const longRun = {
    model: scenario.model,
    workspace: scenario.workspace,
    turns: [
      { assistant: { tool_calls: [{ name: 'read', input: { path: 'notes.md' } }] } },
      { assistant: { tool_calls: [{ name: 'bash', input: { command: 'while [ ! -f release ]; do sleep 0.05; done; echo built' } }] } },
      { assistant: { text: 'built' } },
    ],
  };

  async function runLong(keepWarmToolRuns: boolean) {
    const time = new FakeTime();
    open = await startScenarioSession(longRun, {
      clock: { now: () => time.now },
      serverClock: () => time.now,
      compaction: { cache: { ttl: '5m', keepWarm: 'auto', keepWarmToolRuns } },
    });
    const session = open.assembled.session;
    const timer = new KeepWarmTimer({
      onState: () => undefined,
      now: () => time.now,
      setTimer: (run, ms) =>
        time.setTimer(() => {
          run();
          time.track(session.keepWarm!.settled());
        }, ms),
    });
    const sending = session.send('build it');
    await waitUntil(
      () =>
        open!.server.requests.filter((r) => r.kind === 'main').length === 2 &&
        open!.events.some((e) => e.type === 'tool_started' && e.tool === 'bash'),
    );
    timer.arm(session);
    await time.pass(6 * MINUTE);
    const duringRun = session.keepWarm!.state();
    await writeFile(join(open.workspaceDir, 'release'), '');
    await sending;
    timer.dispose();
    const mains = open.server.requests.filter((r) => r.kind === 'main');
    return { duringRun, pings: open.server.requests.filter((r) => r.kind === 'keep_warm'), mains, snapshots: await snapshotsOf(open) };
  }

  it('pings while the command runs past the lifetime, recorded as a tool-run decision, so the turn’s next request reads the prefix', async () => {
    const on = await runLong(true);
    expect(on.duringRun).toMatchObject({ kind: 'warming', during: 'tool_run', pingsSent: 1 });
    expect(on.pings).toHaveLength(1);
    const [, beforeRun, afterRun] = on.mains;
    expect(afterRun!.usage!.cache_read_input_tokens).toBeGreaterThanOrEqual(
      beforeRun!.usage!.cache_read_input_tokens + beforeRun!.usage!.cache_creation_input_tokens,
    );
    const decision = on.snapshots.find((s) => s.purpose === 'keep_warm')!.decisions[0]!;
    expect(decision).toMatchObject({ kind: 'keep_warm', keepWarm: { ping: 1, during: 'tool_run' } });
    expect(decision.detail).toContain('during a long tool run');
  });

  it('off (the default), the run expires the prefix and the next request writes it again', async () => {
    const off = await runLong(false);
    expect(off.pings).toHaveLength(0);
    const [, beforeRun, afterRun] = off.mains;
    expect(afterRun!.usage!.cache_read_input_tokens).toBeLessThan(beforeRun!.usage!.cache_creation_input_tokens);
  });
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 3000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error('Timed out waiting for the tool run to start');
}
