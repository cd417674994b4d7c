/**
 * One run of the agent (a send or a Retry) on both sides: the model's behaviour appended to the server's
 * script, the run, then the model moved as the run's events say (automatic compactions and elisions, answered
 * requests, the tool steps that leave a results message waiting) and the run's checkpoint learnt.
 */
import { SessionBusyError } from '../../../src/core/session/agentSession';
import type { AgentEvent } from '../../../src/core/agent/events';
import type { DoneReason } from '../../../src/core/agent/events';
import { resolveBehaviour, type Behaviour, type ResolvedBehaviour } from './behaviour';
import { HistoryCheckError, userTexts } from './checks';
import { count, type HistoryModel, type Place } from './model';
import type { HistoryRig } from './rig';

/** A move tried while the run goes on: it must be refused (`SessionBusyError`) and change nothing. */
export type BusyMove = 'send' | 'retry' | 'compact' | 'undo' | 'edit' | 'restore';
export const BUSY_MOVES: readonly BusyMove[] = ['send', 'retry', 'compact', 'undo', 'edit', 'restore'];

export interface TurnOptions {
  /** Crash at this event of the run (`HistoryRig.crashDuring`). */
  readonly crashAt?: number;
  /** Try this move at the run's first request. */
  readonly busy?: BusyMove;
}

export interface TurnReport {
  readonly resolved: ResolvedBehaviour;
  readonly done: DoneReason;
  readonly crashedInside?: boolean;
}

/** Runs one send (`text`) or Retry (`text` undefined) with `behaviour`, and moves the model with it. */
export async function runTurn(
  model: HistoryModel,
  rig: HistoryRig,
  text: string | undefined,
  behaviour: Behaviour,
  options: TurnOptions = {},
): Promise<TurnReport> {
  const step = text === undefined ? 'retry' : `send "${text}"`;
  const fail = (check: string, detail: string): never => {
    throw new HistoryCheckError(step, check, detail);
  };
  const resolved = resolveBehaviour(behaviour, model);
  rig.append(resolved.turns);
  const filesBefore = new Map(model.files);
  const generationAtStart = model.generation;
  // What the conversation had lost before the run: after a crash inside it, only what the journal kept counts.
  const lostBefore = new Set(model.lost);
  // Generations the run makes are numbered above every one the journal holds (an undone compaction's included).
  const highestBefore = options.crashAt !== undefined ? await highestGeneration(rig) : 0;
  const place = text === undefined ? model.retryPlace() : model.sendText(text);
  const checkpointsBefore = new Set((rig.session.checkpoints?.list() ?? []).map((c) => c.id));
  rig.events = [];

  let busy: Promise<unknown> | undefined;
  const watch = options.busy
    ? rig.session.onEvent((event) => {
        // Caught at once (an unhandled refusal would fail the run); looked at when the run is over.
        if (event.type === 'request_started' && busy === undefined) {
          busy = tryWhileBusy(rig, options.busy!).then(
            () => undefined,
            (error: unknown) => error,
          );
        }
      })
    : undefined;
  const start = (): Promise<DoneReason> => (text === undefined ? rig.session.retryUnanswered('retry') : rig.session.send(text));
  let done: DoneReason;
  let crashedInside: boolean | undefined;
  try {
    if (options.crashAt !== undefined) {
      const crashed = await rig.crashDuring(options.crashAt, start);
      done = crashed.result;
      crashedInside = crashed.inside;
    } else {
      done = await start();
    }
  } finally {
    watch?.dispose();
  }
  if (options.busy) {
    if (!busy) fail('busy', 'the run made no request');
    const refusal = await busy!;
    if (!(refusal instanceof SessionBusyError)) {
      fail(
        'busy',
        `${options.busy} during a run was ${refusal === undefined ? 'accepted' : `refused with ${String(refusal)}`}, not SessionBusyError`,
      );
    }
  }

  const expectedDone: DoneReason = behaviour.end === 'answer' ? 'end_turn' : 'error';
  if (done !== expectedDone) fail('run', `ended ${done}, the model expects ${expectedDone}; events: ${eventLine(rig.events)}`);
  const summarizedItsMessage = followEvents(model, rig.events, text !== undefined);
  model.files = resolved.files;
  model.children += resolved.children;
  if (behaviour.end === 'fault') model.stats.faults++;

  if (options.crashAt !== undefined && crashedInside) {
    await resync(model, rig, { text, place, generationAtStart, filesBefore, checkpointsBefore, lostBefore, highestBefore });
    return { resolved, done, crashedInside };
  }
  if (options.crashAt !== undefined) {
    // The copy was taken after the run: what the reopen replays is what the run left, dangling calls none.
    model.undoable = undefined;
  }
  learnCheckpoint(model, rig, { place, generationAtStart, checkpointsBefore, changed: resolved.changed, fail });
  // A compaction inside the run, after the run's message was placed, leaves that message behind it: the run's own
  // checkpoint can no longer take the conversation back (its place is in the generation before the compaction).
  const made = model.checkpoints.at(-1);
  if (summarizedItsMessage && made && !checkpointsBefore.has(made.id)) model.lost.add(made.id);
  return { resolved, done, ...(crashedInside !== undefined ? { crashedInside } : {}) };
}

/**
 * Moves the model along the run's events: its own generation changes and what each answer left. Returns whether
 * a compaction came after the run's message was placed (a send's text when its `user_message` event is out; a
 * Retry's message was placed before the run).
 */
function followEvents(model: HistoryModel, events: readonly AgentEvent[], sendsText: boolean): boolean {
  let placed = !sendsText;
  let compactedAfterPlaced = false;
  for (const event of events) {
    if (event.type === 'user_message') placed = true;
    if (event.type === 'compacted') {
      if (placed) compactedAfterPlaced = true;
      model.compacted('compaction');
      model.stats.autoCompactions++;
    } else if (event.type === 'notice' && event.kind === 'elision') {
      model.compacted('elision');
      model.stats.elisions++;
    } else if (event.type === 'usage') {
      model.requestAnswered();
      model.stats.requests++;
    } else if (event.type === 'assistant_message') {
      const calls = event.message.content.some((block) => block.type === 'tool_use');
      // Calls are answered by a results message, which waits until a request carries it; a final answer ends the wait.
      model.waiting = calls ? { message: model.nextMessage(), hasResults: true } : undefined;
    } else if (event.type === 'subagent_started') {
      model.stats.children++;
    }
  }
  return compactedAfterPlaced;
}

function learnCheckpoint(
  model: HistoryModel,
  rig: HistoryRig,
  turn: {
    place: Place;
    generationAtStart: number;
    checkpointsBefore: ReadonlySet<string>;
    changed: ReadonlyMap<string, string | undefined>;
    fail: (check: string, detail: string) => never;
  },
): void {
  const fresh = (rig.session.checkpoints?.list() ?? []).filter((c) => !turn.checkpointsBefore.has(c.id));
  if (fresh.length > 1) turn.fail('checkpoints', `one run made ${fresh.length} checkpoints: ${fresh.map((c) => c.id).join(', ')}`);
  if (turn.changed.size > 0 && fresh.length === 0)
    turn.fail('checkpoints', `the run changed ${[...turn.changed.keys()].join(', ')} and left no checkpoint`);
  if (turn.changed.size === 0 && fresh.length === 1) turn.fail('checkpoints', `the run changed no file and made ${fresh[0]!.id}`);
  if (fresh.length === 0) return;
  const paths = fresh[0]!.files.map((f) => f.path).sort();
  if (paths.join() !== [...turn.changed.keys()].sort().join()) {
    turn.fail(
      'checkpoints',
      `${fresh[0]!.id} lists [${paths.join(', ')}]; the run changed [${[...turn.changed.keys()].sort().join(', ')}]`,
    );
  }
  model.checkpoints.push({
    id: fresh[0]!.id,
    ...turn.place,
    generation: turn.generationAtStart,
    before: new Map(turn.changed),
    crashed: false,
  });
}

/**
 * After a crash inside the run the model cannot know how far the journal got: it takes what the reopened
 * session shows (the files, whether its text made it, whether a message waits, the generation, the children)
 * and keeps the checkpoints the journal kept.
 */
async function resync(
  model: HistoryModel,
  rig: HistoryRig,
  turn: {
    text: string | undefined;
    place: Place;
    generationAtStart: number;
    filesBefore: ReadonlyMap<string, string>;
    checkpointsBefore: ReadonlySet<string>;
    lostBefore: ReadonlySet<string>;
    highestBefore: number;
  },
): Promise<void> {
  const session = rig.session;
  const entries = session.generation.conversation.all();
  model.files = rig.files();
  // The text is on the branch if its message reached the journal (a compaction in the run may have summarised it since).
  if (turn.text !== undefined && !(await journalHolds(rig, turn.text))) model.branch = model.branch.filter((t) => t.text !== turn.text);
  const last = entries.at(-1);
  model.waiting =
    last?.message.role === 'user'
      ? { message: model.nextMessage(), hasResults: last.message.content.some((b) => b.type === 'tool_result') }
      : undefined;
  if (model.waiting && turn.text !== undefined) {
    // The text's message is the one waiting when the run never got an answer to it.
    const mine = userTexts([last!]).some((t) => t.text === turn.text);
    if (mine) {
      const ref = model.branch.find((t) => t.text === turn.text);
      if (ref) model.waiting = { message: ref.message, hasResults: model.waiting.hasResults };
    }
  }
  model.undoable = undefined;
  model.setGeneration(session.generation.number, await highestGeneration(rig));
  model.children = await childrenStarted(rig);
  const list = session.checkpoints?.list() ?? [];
  const kept = new Set(list.map((c) => c.id));
  model.checkpoints = model.checkpoints.filter((c) => kept.has(c.id));
  const fresh = list.filter((c) => !turn.checkpointsBefore.has(c.id));
  for (const checkpoint of fresh) {
    const before = new Map<string, string | undefined>();
    for (const file of checkpoint.files) before.set(file.path, turn.filesBefore.get(file.path));
    model.checkpoints.push({ id: checkpoint.id, ...turn.place, generation: turn.generationAtStart, before, crashed: !checkpoint.closed });
  }
  // The run's events moved the model through every compaction the process made; the reopened session has only
  // those the journal kept. A kept compaction loses every checkpoint before it, and the run's own once its
  // message is in the journal (a compaction in the run comes after the run's message).
  model.lost = new Set(turn.lostBefore);
  if (await compactedSince(rig, turn.highestBefore)) {
    const placed = turn.text === undefined || (await journalHolds(rig, turn.text));
    for (const checkpoint of model.checkpoints) {
      if (turn.checkpointsBefore.has(checkpoint.id) || placed) model.lost.add(checkpoint.id);
    }
  }
  model.stats.crashes++;
  count(model.stats.moves, 'crash inside a run');
}

async function journalHolds(rig: HistoryRig, text: string): Promise<boolean> {
  for await (const record of rig.assembled.journal.readAll({ types: ['user_message'] })) {
    if (JSON.stringify(record).includes(JSON.stringify(text).slice(1, -1))) return true;
  }
  return false;
}

/** Whether the journal holds a compaction that began a generation numbered above `generation` (one the run made). */
async function compactedSince(rig: HistoryRig, generation: number): Promise<boolean> {
  for await (const record of rig.assembled.journal.readAll({ types: ['generation_started'] })) {
    if (record.type !== 'generation_started' || record.generation <= generation) continue;
    if ((record.detail as { kind?: unknown } | undefined)?.kind === 'compaction') return true;
  }
  return false;
}

async function highestGeneration(rig: HistoryRig): Promise<number> {
  let highest = 0;
  for await (const record of rig.assembled.journal.readAll({ types: ['generation_started'] })) {
    if (record.type === 'generation_started') highest = Math.max(highest, record.generation);
  }
  return highest;
}

async function childrenStarted(rig: HistoryRig): Promise<number> {
  let children = 0;
  for await (const record of rig.assembled.journal.readAll({ types: ['subagent_started'] }))
    if (record.type === 'subagent_started') children++;
  return children;
}

/** Tries `move` while a run goes on; resolves with what it returned, rejects with its refusal. */
function tryWhileBusy(rig: HistoryRig, move: BusyMove): Promise<unknown> {
  const session = rig.session;
  const signal = new AbortController().signal;
  switch (move) {
    case 'send':
      return session.send('u0 while busy');
    case 'retry':
      return session.retryUnanswered('retry while busy');
    case 'compact':
      return session.compact({ reason: 'manual' }, signal);
    case 'undo':
      return session.undoCompaction();
    case 'edit':
      return session.startGenerationFrom(0, 'edit and resend');
    case 'restore':
      return session.restoreCheckpoint({ checkpointId: 'cp-1', label: '', items: [], undoes: [] }, new Map(), { conversation: true });
  }
}

function eventLine(events: readonly AgentEvent[]): string {
  return events
    .filter((e) => e.type !== 'text_delta' && e.type !== 'tool_output')
    .map((e) => (e.type === 'error' ? `error(${e.kind}: ${e.message})` : e.type === 'notice' ? `notice(${e.kind})` : e.type))
    .join(', ');
}
