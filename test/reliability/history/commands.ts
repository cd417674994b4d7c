/**
 * The user's moves as fast-check commands (README.md beside this file). Each runs on the model and the real
 * session, says in advance whether the session must refuse it (and a refusal is accepted only then), and is
 * followed by every check of `checks.ts`.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import type { AsyncCommand } from 'fast-check';
import { RewindRangeError } from '../../../src/core/conversation/rewind';
import type { FileState } from '../../../src/core/checkpoints/types';
import { behaviourArb, type Behaviour } from './behaviour';
import { checkStep, HistoryCheckError, opensWithSummary, userTexts } from './checks';
import { count, fileContent, FILES, type HistoryModel } from './model';
import type { HistoryRig } from './rig';
import { BUSY_MOVES, runTurn, type BusyMove } from './turn';

export type HistoryCommand = AsyncCommand<HistoryModel, HistoryRig>;

const CACHE_COLD_MS = 6 * 60_000;

/** The base of every command: counts the move, runs it, then checks everything. */
abstract class Move implements HistoryCommand {
  /** What the run resolved to (files, texts, checkpoints), for the failure report. */
  protected said = '';

  abstract readonly name: string;
  check(_model: Readonly<HistoryModel>): boolean {
    return true;
  }
  async run(model: HistoryModel, rig: HistoryRig): Promise<void> {
    model.stats.steps++;
    count(model.stats.moves, this.name);
    this.said = '';
    const started = performance.now();
    await this.move(model, rig);
    await checkStep(model, rig, this.step());
    model.stats.moveMs.set(this.name, (model.stats.moveMs.get(this.name) ?? 0) + performance.now() - started);
  }
  protected abstract move(model: HistoryModel, rig: HistoryRig): Promise<void>;
  protected abstract args(): string;
  /** The move as fast-check prints a sequence: what was generated, so it replays. */
  toString(): string {
    return `${this.name}(${this.args()})`;
  }
  /** The move as this run resolved it (texts, checkpoints), for a failure's message. */
  protected step(): string {
    return `${this.toString()}${this.said ? ` [${this.said}]` : ''}`;
  }
}

function behaviourLine(behaviour: Behaviour): string {
  const steps = behaviour.steps.map((step) =>
    // Every field of a call, so a shrunk report can be written back as a regression test.
    step
      .map(
        (c) => `${c.tool}${'file' in c ? FILES[c.file] : ''}${'lines' in c ? `×${c.lines}` : ''}${'command' in c ? `#${c.command}` : ''}`,
      )
      .join('+'),
  );
  const faults = [
    ...(behaviour.overloaded !== undefined ? [`529 at ${behaviour.overloaded}`] : []),
    ...(behaviour.cut !== undefined ? [`cut answer ${behaviour.cut.answer} after ${behaviour.cut.events} events`] : []),
  ];
  return `${steps.join(' / ') || 'no tools'} → ${behaviour.end}${faults.length ? `, ${faults.join(', ')}` : ''}`;
}

class Send extends Move {
  readonly name = 'send';
  constructor(readonly behaviour: Behaviour) {
    super();
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const text = model.nextText('please');
    this.said = text;
    await runTurn(model, rig, text, this.behaviour);
  }
  protected args(): string {
    return behaviourLine(this.behaviour);
  }
}

/** Retry: asks again for the waiting messages (offered only while one waits). */
class Retry extends Move {
  readonly name = 'retry';
  constructor(readonly behaviour: Behaviour) {
    super();
  }
  override check(model: Readonly<HistoryModel>): boolean {
    return model.unanswered;
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    await runTurn(model, rig, undefined, this.behaviour);
  }
  protected args(): string {
    return behaviourLine(this.behaviour);
  }
}

/** Retry when every message has its answer: refused, saying there is nothing to retry, and nothing changes. */
class RetryNothing extends Move {
  readonly name = 'retry with nothing waiting';
  override check(model: Readonly<HistoryModel>): boolean {
    return !model.unanswered;
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    await refused(
      model,
      'retry',
      () => rig.session.retryUnanswered('retry'),
      (e) => /nothing to retry/.test(e.message),
    );
  }
  protected args(): string {
    return '';
  }
}

/** "Cairn: Compact Context": a manual compaction (the server writes the summary from the request). */
class Compact extends Move {
  readonly name = 'compact';
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    rig.events = [];
    const outcome = await rig.session.compact({ reason: 'manual' }, new AbortController().signal);
    this.said = outcome.applied ? 'applied' : 'nothing to compact';
    if (outcome.applied) {
      model.compacted('compaction');
      model.stats.manualCompactions++;
    }
  }
  protected args(): string {
    return '';
  }
}

/** Undo of the last compaction or elision (offered until a request has used it): the conversation as it was before. */
class Undo extends Move {
  readonly name = 'undo';
  override check(model: Readonly<HistoryModel>): boolean {
    return model.undoable !== undefined;
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const undone = await rig.session.undoCompaction();
    if (!undone) throw new HistoryCheckError(this.step(), 'undo', 'refused; the model expects it offered');
    model.undone();
    model.stats.undos++;
  }
  protected args(): string {
    return '';
  }
}

/** Undo when nothing can be undone: false, and the conversation is unchanged. */
class UndoNothing extends Move {
  readonly name = 'undo with nothing to undo';
  override check(model: Readonly<HistoryModel>): boolean {
    return model.undoable === undefined;
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const before = JSON.stringify(rig.session.generation.conversation.all());
    if (await rig.session.undoCompaction())
      throw new HistoryCheckError(this.step(), 'undo', 'went through; the model expects nothing to undo');
    if (JSON.stringify(rig.session.generation.conversation.all()) !== before) {
      throw new HistoryCheckError(this.step(), 'undo', 'an undo that was not offered changed the conversation');
    }
    count(model.stats.refusals, 'undo');
  }
  protected args(): string {
    return '';
  }
}

/** Edit and resend: the conversation starts again before one of the user's messages, and the new text goes out. */
class EditAndResend extends Move {
  readonly name = 'edit and resend';
  constructor(
    readonly pick: number,
    readonly behaviour: Behaviour,
  ) {
    super();
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const visible = userTexts(rig.session.generation.conversation.all());
    if (visible.length === 0) {
      this.said = 'no message of the user in this generation';
      return;
    }
    const chosen = visible[this.pick % visible.length]!;
    const at = model.branch.findIndex((t) => t.text === chosen.text);
    if (at < 0) throw new HistoryCheckError(this.step(), 'user texts', `"${chosen.text}" is in the generation, not on the model's branch`);
    const opening = chosen.index === 0 && opensWithSummary(rig.session.generation.conversation.all()[0]);
    await rig.session.startGenerationFrom(chosen.index, 'edit and resend');
    model.rewindToText(at, opening);
    model.stats.edits++;
    const text = model.nextText('edited');
    this.said = `"${chosen.text}" at ${chosen.index} → "${text}"`;
    await runTurn(model, rig, text, this.behaviour);
  }
  protected args(): string {
    return `message ${this.pick}, ${behaviourLine(this.behaviour)}`;
  }
}

/**
 * "Restore files to before this message" (files only, or files and conversation), on one of the session's
 * checkpoints, conflicts kept or taken. The preview must name every file the model's turns changed since, with
 * the content it had before; the restore must write exactly those; "and conversation" must go back exactly when
 * the model says the checkpoint's message is still in the active generation, and be refused (changing nothing)
 * otherwise.
 */
class Restore extends Move {
  readonly name = 'restore';
  constructor(
    readonly pick: number,
    readonly conversation: boolean,
    readonly takeConflicts: boolean,
  ) {
    super();
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const checkpoints = rig.session.checkpoints!;
    const list = checkpoints.list();
    if (list.length === 0) {
      this.said = 'no checkpoint';
      return;
    }
    const chosen = list[this.pick % list.length]!;
    const fact = model.checkpoints.find((c) => c.id === chosen.id);
    const fail = (check: string, detail: string): never => {
      throw new HistoryCheckError(this.step(), check, detail);
    };
    if (!fact) return fail('checkpoints', `${chosen.id} is not one the model knows`);
    const plan = await checkpoints.preview(chosen.id);
    const targets = model.restoreTargets(fact);
    const planned = plan.items.map((i) => i.path).sort();
    if (planned.join() !== [...targets.keys()].sort().join()) {
      fail(
        'restore preview',
        `${chosen.id} names [${planned.join(', ')}]; the model's turns since changed [${[...targets.keys()].sort().join(', ')}]`,
      );
    }
    for (const item of plan.items) {
      if (!sameContent(item.target, targets.get(item.path))) {
        fail(
          'restore preview',
          `${item.path} would go back to ${describeState(item.target)}; the model says ${describeContent(targets.get(item.path))}`,
        );
      }
      if (item.conflict && !model.mayConflict(fact, item.path))
        fail('restore preview', `${item.path} is a conflict ("${item.conflict}") the model knows no reason for`);
    }
    const choices = new Map(plan.items.filter((i) => i.conflict && this.takeConflicts).map((i) => [i.path, 'take_checkpoint' as const]));
    const reachable = !this.conversation || model.conversationReachable(fact);
    this.said = `${chosen.id} (${fact.kind}${fact.text ? ` "${fact.text}"` : ''}), ${reachable ? 'expected to go back' : 'conversation expected refused'}`;
    const filesBefore = new Map(model.files);
    const ids = new Set(list.map((c) => c.id));
    if (!reachable) {
      await refused(
        model,
        'restore and conversation',
        () => rig.session.restoreCheckpoint(plan, choices, { conversation: true }),
        (e) => e instanceof RewindRangeError || /no longer in the conversation the model has/.test(e.message),
      );
      return;
    }
    const opening = chosen.turn.index === 0 && opensWithSummary(rig.session.generation.conversation.all()[0]);
    const outcome = await rig.session.restoreCheckpoint(plan, choices, { conversation: this.conversation });
    const restored = new Map<string, string | undefined>();
    for (const item of outcome.restored) {
      restored.set(item.path, filesBefore.get(item.path));
      const content = targets.get(item.path);
      if (content === undefined) model.files.delete(item.path);
      else model.files.set(item.path, content);
    }
    for (const item of plan.items) {
      const written = outcome.restored.some((r) => r.path === item.path);
      const due = item.action !== 'unchanged' && item.action !== 'not_restorable' && (!item.conflict || this.takeConflicts);
      if (written !== due)
        fail('restore', `${item.path} (${item.action}${item.conflict ? ', conflict' : ''}) was ${written ? '' : 'not '}written`);
    }
    model.stats.fileRestores++;
    const fresh = checkpoints.list().filter((c) => !ids.has(c.id));
    if (fresh.length > 1 || (fresh.length === 1) !== restored.size > 0) {
      fail('checkpoints', `a restore that wrote ${restored.size} files made ${fresh.length} checkpoints`);
    }
    if (fresh[0]) {
      model.checkpoints.push({
        id: fresh[0].id,
        kind: 'restore',
        generation: model.generation,
        textsBefore: model.branch.length,
        atResults: false,
        before: restored,
        crashed: false,
      });
    }
    if (this.conversation) {
      model.rewindToCheckpoint(fact, opening);
      model.stats.conversationRestores++;
    }
  }
  protected args(): string {
    return `checkpoint ${this.pick}, ${this.conversation ? 'files and conversation' : 'files'}${this.takeConflicts ? ', conflicts taken' : ''}`;
  }
}

/** The user is away long enough for the provider's cache to expire: the next request may elide. */
class Idle extends Move {
  readonly name = 'idle';
  protected async move(_model: HistoryModel, rig: HistoryRig): Promise<void> {
    rig.clock.advance(CACHE_COLD_MS);
  }
  protected args(): string {
    return '6 min';
  }
}

/** The user changes a file outside Cairn (a later restore may call it a conflict). */
class UserEdit extends Move {
  readonly name = 'user edits a file';
  constructor(readonly file: number) {
    super();
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const path = FILES[this.file]!;
    const content = fileContent(path, model.nextVersion(), 3);
    rig.writeFile(path, content);
    model.files.set(path, content);
    model.userEdits.push({ path, checkpoints: model.checkpoints.length });
    this.said = path;
  }
  protected args(): string {
    return FILES[this.file]!;
  }
}

/** The editor closes and the session is opened again from its journal: the same conversation and checkpoints. */
class Reopen extends Move {
  readonly name = 'reopen';
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const before = JSON.stringify(rig.session.generation.conversation.messages());
    const checkpoints = JSON.stringify(rig.session.checkpoints?.list().map((c) => [c.id, c.turn, c.closed]));
    await rig.reopen();
    model.undoable = undefined;
    model.stats.reopens++;
    if (JSON.stringify(rig.session.generation.conversation.messages()) !== before) {
      throw new HistoryCheckError(this.step(), 'reopen', 'the reopened conversation differs from the one closed');
    }
    if (JSON.stringify(rig.session.checkpoints?.list().map((c) => [c.id, c.turn, c.closed])) !== checkpoints) {
      throw new HistoryCheckError(this.step(), 'reopen', 'the reopened checkpoints differ from the ones closed');
    }
  }
  protected args(): string {
    return '';
  }
}

/** A send during which the process dies (at its `at`-th event); the session is reopened from what it left. */
class Crash extends Move {
  readonly name = 'crash';
  constructor(
    readonly at: number,
    readonly behaviour: Behaviour,
  ) {
    super();
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const text = model.nextText('crashing');
    const report = await runTurn(model, rig, text, this.behaviour, { crashAt: this.at });
    this.said = `${text}, ${report.crashedInside ? 'inside the run' : 'after it'}`;
  }
  protected args(): string {
    return `at event ${this.at}, ${behaviourLine(this.behaviour)}`;
  }
}

/** A send during which another move is tried: refused with SessionBusyError, nothing changed. */
class Busy extends Move {
  readonly name = 'move while busy';
  constructor(
    readonly busy: BusyMove,
    readonly behaviour: Behaviour,
  ) {
    super();
  }
  protected async move(model: HistoryModel, rig: HistoryRig): Promise<void> {
    const text = model.nextText('busy');
    this.said = text;
    await runTurn(model, rig, text, this.behaviour, { busy: this.busy });
    count(model.stats.refusals, `${this.busy} while busy`);
  }
  protected args(): string {
    return `${this.busy}, ${behaviourLine(this.behaviour)}`;
  }
}

/** Runs a move the model says is refused: it must throw an error `expected` accepts, and change nothing. */
async function refused(
  model: HistoryModel,
  name: string,
  move: () => Promise<unknown>,
  expected: (error: Error) => boolean,
): Promise<void> {
  const error = await move().then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error) || !expected(error)) {
    throw new HistoryCheckError(
      name,
      'refusal',
      error === undefined ? 'went through; the model expects a refusal' : `refused with ${String(error)}`,
    );
  }
  count(model.stats.refusals, name);
}

function sameContent(state: FileState, content: string | undefined): boolean {
  if (content === undefined) return state.kind === 'absent';
  return state.kind === 'content' && state.sha === createHash('sha256').update(content).digest('hex');
}

function describeState(state: FileState): string {
  return state.kind === 'content' ? `content ${state.sha.slice(0, 8)}` : state.kind;
}

function describeContent(content: string | undefined): string {
  return content === undefined ? 'absent' : JSON.stringify(content.split('\n', 1)[0]);
}

/** Every move, weighted as a user's session would have them: mostly sends, every other move now and then. */
export function historyCommands(): Array<fc.Arbitrary<HistoryCommand>> {
  const weighted = <T extends HistoryCommand>(arb: fc.Arbitrary<T>, times: number): Array<fc.Arbitrary<HistoryCommand>> =>
    Array.from({ length: times }, () => arb);
  return [
    ...weighted(
      behaviourArb.map((b) => new Send(b)),
      6,
    ),
    ...weighted(
      behaviourArb.map((b) => new Retry(b)),
      3,
    ),
    ...weighted(
      fc.constant(null).map(() => new RetryNothing()),
      1,
    ),
    ...weighted(
      fc.constant(null).map(() => new Compact()),
      1,
    ),
    ...weighted(
      fc.constant(null).map(() => new Undo()),
      3,
    ),
    ...weighted(
      fc.constant(null).map(() => new UndoNothing()),
      1,
    ),
    ...weighted(
      fc.tuple(fc.nat(20), behaviourArb).map(([pick, b]) => new EditAndResend(pick, b)),
      2,
    ),
    ...weighted(
      fc.tuple(fc.nat(20), fc.boolean(), fc.boolean()).map(([pick, conversation, take]) => new Restore(pick, conversation, take)),
      3,
    ),
    ...weighted(
      fc.constant(null).map(() => new Idle()),
      2,
    ),
    ...weighted(
      fc.nat(FILES.length - 1).map((file) => new UserEdit(file)),
      1,
    ),
    ...weighted(
      fc.constant(null).map(() => new Reopen()),
      1,
    ),
    ...weighted(
      fc.tuple(fc.nat(40), behaviourArb).map(([at, b]) => new Crash(at, b)),
      1,
    ),
    ...weighted(
      fc.tuple(fc.constantFrom(...BUSY_MOVES), behaviourArb).map(([move, b]) => new Busy(move, b)),
      1,
    ),
  ];
}

export { Busy, Compact, Crash, EditAndResend, Idle, Reopen, Restore, Retry, RetryNothing, Send, Undo, UndoNothing, UserEdit };
