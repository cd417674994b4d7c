/** The `Compactor`: failures, undo and escalation (see `compactor.test.ts`). */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addTurns,
  compactorWith,
  noticeEvents,
  scratchFolder,
  signal,
  useScratchFolder,
  type Harness,
} from '../../../test/support/compaction/compactorHarness';
import type { AgentEvent } from '../agent/events';
import type { GenerationRef } from '../conversation/activeGeneration';

useScratchFolder();

describe('Compactor: failures', () => {
  it('a summary that fails is not applied: a compaction_failed warning is journalled and returned', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    h.summarizer.behaviour = async () => {
      throw new Error('the model is down');
    };
    const before = h.generations.current;

    const outcome = await h.compactor.compact({ reason: 'manual' }, signal());

    expect(outcome.applied).toBe(false);
    expect(h.generations.current).toBe(before);
    expect(h.journalled.map((j) => j.record.type)).toEqual([]);
    expect(h.order).toEqual(['notice:compaction_failed']);
    const reason = 'The summary could not be written (the model is down); the conversation continues uncompacted.';
    expect(outcome).toEqual({
      applied: false,
      reason,
      failure: 'summary_failed',
      events: [{ type: 'notice', level: 'warning', kind: 'compaction_failed', message: reason }],
    });
    expect(h.notices).toEqual([{ level: 'warning', kind: 'compaction_failed', message: reason }]);
    expect(h.decisions.take()).toEqual([]);
  });

  // "On any failure the conversation goes on uncompacted with a notice": only an automatic attempt that
  // finds nothing worth compacting stays quiet (a failing summary model once did too, until the hard fit).
  it('an automatic attempt whose summary fails warns (not only a log line)', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 700);
    h.summarizer.behaviour = async () => {
      throw new Error('the model is down');
    };
    const change = await h.compactor.beforeRequest(signal());
    expect(change.newGeneration).toBe(false);
    expect(noticeEvents(change.events).map((e) => e.kind)).toEqual(['compaction_failed']);
  });

  it('a cancelled summary leaves the conversation unchanged', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const controller = new AbortController();
    h.summarizer.behaviour = (_request, summarySignal) =>
      new Promise((_resolve, reject) => {
        summarySignal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        controller.abort();
      });
    const before = h.generations.current;

    const outcome = await h.compactor.compact({ reason: 'manual' }, controller.signal);

    expect(outcome).toMatchObject({ applied: false, reason: 'Compaction was cancelled; the conversation is unchanged.' });
    expect(h.generations.current).toBe(before);
    expect(h.journalled).toEqual([]);
    expect(h.compactor.canUndo).toBe(false);
  });

  it('a plan made before the conversation grew is refused', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const planned = await h.compactor.plan({ reason: 'manual' }, signal());
    if (!planned.ok) throw new Error(planned.reason);
    h.conversation().appendUser([{ type: 'text', text: 'meanwhile' }]);

    const outcome = await h.compactor.apply(planned.plan);

    expect(outcome).toEqual({
      applied: false,
      reason: 'The conversation moved on since this compaction was prepared; prepare it again.',
      events: [],
    });
    expect(h.generations.current.number).toBe(0);
    expect(h.journalled).toEqual([]);
  });

  it('a plan for a generation that is no longer current is refused', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const planned = await h.compactor.plan({ reason: 'manual' }, signal());
    if (!planned.ok) throw new Error(planned.reason);
    expect((await h.compactor.apply(planned.plan)).applied).toBe(true);
    expect((await h.compactor.apply(planned.plan)).applied).toBe(false);
    expect(h.generations.current.number).toBe(1);
  });

  it('history.md that cannot be written is a warning; the compaction is still applied', async () => {
    const h = compactorWith({ sessionDir: join(scratchFolder(), 'no', 'such', 'folder') });
    addTurns(h.conversation(), 6, 100);

    const outcome = await h.compactor.compact({ reason: 'manual' }, signal());

    expect(outcome.applied).toBe(true);
    expect(h.generations.current.number).toBe(1);
    expect(outcome.events.map((e) => e.type)).toEqual(['notice', 'compacted']);
    expect(noticeEvents(outcome.events)[0]).toMatchObject({ level: 'warning', kind: 'history_archive' });
    expect(noticeEvents(outcome.events)[0]!.message).toContain('the journal still has all of it');
    expect(h.notices.map((n) => n.kind)).toEqual(['history_archive']);
  });
});

describe('Compactor: undo', () => {
  it('can undo until a request is sent in the new generation', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    expect(h.compactor.canUndo).toBe(false);
    await h.compactor.compact({ reason: 'manual' }, signal());
    expect(h.compactor.canUndo).toBe(true);

    h.conversation().markSent();

    expect(h.compactor.canUndo).toBe(false);
    expect(await h.compactor.undo()).toEqual({ undone: false, events: [] });
    expect(h.generations.current.number).toBe(1);
  });

  it('undo restores the previous generation object and journals compaction_undone', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    const previous: GenerationRef = h.generations.current;
    await h.compactor.compact({ reason: 'manual' }, signal());
    h.journalled.length = 0;
    h.order.length = 0;

    const undone = await h.compactor.undo();

    expect(undone.undone).toBe(true);
    expect(h.generations.current).toBe(previous);
    expect(h.conversation().length).toBe(12);
    expect(h.order).toEqual([
      'journal:compaction_undone',
      // The static part the generation had, never one rebuilt from the files (issue 29 item 6).
      'composer.returnTo',
      'journal:static_context',
      'notice:compaction_undone',
    ]);
    expect(h.journalled.map((j) => j.record)).toEqual([
      { type: 'compaction_undone', generation: 1 },
      { type: 'static_context', generation: 0, state: h.composer.staticState() },
    ]);
    const message = 'The last compaction was undone: the model has the conversation as it was before the summary.';
    expect(undone.events).toEqual([{ type: 'notice', level: 'info', kind: 'compaction_undone', message }]);
    expect(h.compactor.canUndo).toBe(false);
    // Generation numbers are never given twice: the next compaction is generation 2.
    await h.compactor.compact({ reason: 'manual' }, signal());
    expect(h.generations.current.number).toBe(2);
  });

  it('the automatic trigger makes a compaction final once the new generation was sent', async () => {
    const h = compactorWith();
    addTurns(h.conversation(), 6, 100);
    await h.compactor.compact({ reason: 'manual' }, signal());
    h.conversation().markSent();
    await h.compactor.beforeRequest(signal());
    // Even if the new generation's conversation were to look unsent again, the compaction stays final.
    h.conversation().unmarkSent(0);
    expect(h.compactor.canUndo).toBe(false);
  });
});

describe('Compactor: escalation', () => {
  async function compactOnce(h: Harness): Promise<readonly AgentEvent[]> {
    addTurns(h.conversation(), 6, 100);
    const outcome = await h.compactor.compact({ reason: 'manual' }, signal());
    if (!outcome.applied) throw new Error(outcome.reason);
    return outcome.events;
  }

  it('warns at the second compaction of a run and is critical from the third; startRun() resets the count', async () => {
    const h = compactorWith();
    h.compactor.startRun();
    expect(noticeEvents(await compactOnce(h))).toEqual([]);
    const second = noticeEvents(await compactOnce(h));
    expect(second.map((e) => [e.level, e.kind])).toEqual([['warning', 'compaction_escalation']]);
    const third = noticeEvents(await compactOnce(h));
    expect(third.map((e) => [e.level, e.kind])).toEqual([['critical', 'compaction_escalation']]);
    expect(third[0]!.message).toMatch(/^3 compactions in this run/);
    expect(h.notices.map((n) => n.level)).toEqual(['warning', 'critical']);

    h.compactor.startRun();
    expect(noticeEvents(await compactOnce(h))).toEqual([]);
    expect(noticeEvents(await compactOnce(h)).map((e) => e.level)).toEqual(['warning']);
  });

  it('returns the escalation after the compacted event', async () => {
    const h = compactorWith();
    await compactOnce(h);
    expect((await compactOnce(h)).map((e) => e.type)).toEqual(['compacted', 'notice']);
  });
});
