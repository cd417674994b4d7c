/**
 * One cursor over a scenario's turns, shared by the local server (which answers requests from it)
 * and, in-process, the headless runner (which feeds user turns, applies fs turns while the loop is
 * idle, and runs compact turns). Sharing one cursor is what keeps both sides in step.
 */
import { ChildScript } from './childScript';
import type { PlannedAnswer, RequestPlan, ScriptedRequestKind } from './requestPlan';
import { ToolResultIds } from './resultRefs';
import { parseTurns } from './scenario';
import { turnAgent, type AssistantTurn, type ChildTurn, type Fault, type FsTurn, type Scenario, type ScenarioTurn } from './types';
import { VirtualClock } from './virtualClock';

/**
 * `server`: nobody drives the script but the requests (CLI, editor tests where a person or a test
 * types), so user and compact turns are skipped. `runner`: the headless runner feeds user turns
 * and runs compactions itself, so a request that reaches one answers that the script has no
 * assistant turn there.
 */
export type PlayerDriver = 'server' | 'runner';

export interface PlayerOptions {
  readonly driver: PlayerDriver;
  /** Told about every script mismatch (skipped turns, missing turns, unknown `{result:K}`). */
  readonly onNotice?: (message: string) => void;
  /** The real clock under the script's idles (default `Date.now`; tests give a fixed one). */
  readonly realNow?: () => number;
}

/**
 * Children's turns (`"agent": "explore-1"`) are not on the parent's cursor: each child has its own
 * (`ChildScript`), and every method here that takes no agent is about the parent's turns only.
 */
export class ScenarioPlayer {
  readonly driver: PlayerDriver;
  /**
   * The script's time: real time plus the idle of every user turn taken so far, added when the turn is taken
   * (`advance`, or passed over by a server-driven request), so before that message's first request.
   */
  readonly clock: VirtualClock;
  /** Tool result ids seen in the parent's requests this session, for its `{result:K}`. */
  readonly resultIds = new ToolResultIds();
  private readonly children = new Map<string, ChildScript>();
  private readonly noticeList: string[] = [];
  /** The script's turns: the scenario's, then any appended while it plays (`appendTurns`). */
  private readonly turns: ScenarioTurn[];
  private cursor = 0;
  /** Turns answered from past a fault meant for the other kind of request, while that fault waits at the cursor. */
  private readonly taken = new Set<number>();
  // Requests are planned one at a time: planning awaits fs callbacks, and two interleaved plans
  // would consume turns out of order.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    readonly scenario: Scenario,
    private readonly options: PlayerOptions,
  ) {
    this.driver = options.driver;
    this.clock = new VirtualClock(options.realNow);
    this.turns = [...scenario.turns];
    for (const turn of this.turns) this.adoptChildTurn(turn);
  }

  /**
   * Adds turns at the end of the script while it plays (JSON turns in the scenario format, checked like a
   * file's; indexes continue). A driver that decides the model's next turns as it goes (the model-based
   * history suite, `test/reliability/history/`) appends what the next requests are to get, then makes them.
   * Children's turns join their agent's own cursor. Throws `ScenarioError` naming the bad turn; then none is added.
   */
  appendTurns(json: readonly unknown[]): readonly ScenarioTurn[] {
    const added = parseTurns(json, this.turns.length, this.scenario.source);
    for (const turn of added) {
      this.turns.push(turn);
      this.adoptChildTurn(turn);
    }
    return added;
  }

  /** Every turn of the script so far, the appended ones included. */
  get allTurns(): readonly ScenarioTurn[] {
    return this.turns;
  }

  private adoptChildTurn(turn: ScenarioTurn): void {
    const agent = turnAgent(turn);
    if (agent === undefined) return;
    let child = this.children.get(agent);
    if (!child) {
      child = new ChildScript(agent, [], (message) => this.notice(message));
      this.children.set(agent, child);
    }
    child.add(turn as ChildTurn);
  }

  /** The `{result:K}` table of the parent (no agent) or of a child; a child the script does not know has none. */
  resultIdsFor(agent: string | undefined): ToolResultIds {
    if (agent === undefined) return this.resultIds;
    return this.children.get(agent)?.resultIds ?? new ToolResultIds();
  }

  /** Children's turns no request took, in script order (a run that ends with some left did not go as written). */
  unplayedChildTurns(): readonly ChildTurn[] {
    return [...this.children.values()].flatMap((child) => child.unplayed).sort((a, b) => a.index - b.index);
  }

  /** Index of the next turn in `allTurns`. */
  get position(): number {
    return this.cursor;
  }

  get done(): boolean {
    return this.peek() === undefined;
  }

  get notices(): readonly string[] {
    return this.noticeList;
  }

  /** The parent's next turn (children's turns are passed over). */
  peek(): ScenarioTurn | undefined {
    while (this.passedOver(this.cursor)) this.cursor++;
    return this.turns[this.cursor];
  }

  /**
   * The assistant turn the next main request (of the parent, or of `agent`) would get, looking past fs
   * and fault turns; undefined when none.
   */
  upcomingAssistant(agent?: string): AssistantTurn | undefined {
    if (agent !== undefined) return this.children.get(agent)?.upcomingAssistant();
    const ahead = this.turns
      .slice(this.cursor)
      .find(
        (t) =>
          turnAgent(t) === undefined && t.kind !== 'fs' && t.kind !== 'fault' && !(this.driver === 'server' && this.skippable('main', t)),
      );
    return ahead?.kind === 'assistant' ? ahead : undefined;
  }

  /**
   * Consumes the turn at the cursor and returns it; a user turn's idle passes first, less `idlePassed` seconds
   * the caller already moved the clock by (the keep-warm requests sent while the user was away).
   */
  advance(idlePassed = 0): ScenarioTurn | undefined {
    const turn = this.peek();
    if (turn) this.take(turn, idlePassed);
    return turn;
  }

  /** Moves the cursor past `turn` (the one at the cursor); the user was away for its idle before sending it. */
  private take(turn: ScenarioTurn, idlePassed = 0): void {
    this.cursor++;
    if (turn.kind === 'user' && turn.idleSeconds !== undefined) this.clock.advance(Math.max(0, turn.idleSeconds - idlePassed));
  }

  notice(message: string): void {
    this.noticeList.push(message);
    this.options.onNotice?.(message);
  }

  /**
   * What a request gets: applies the fs turns at the cursor (through `applyFs`), takes a fault turn
   * if one is next, and picks the answer. A request that gets an HTTP error consumes only the fault,
   * so the retry gets the answer; a cut stream shows the answer without consuming it, so the next
   * request gets it whole; a slow stream consumes it.
   */
  planRequest(kind: ScriptedRequestKind, applyFs: (turn: FsTurn) => Promise<void>, agent?: string): Promise<RequestPlan> {
    const run = this.queue.then(() => (agent === undefined ? this.plan(kind, applyFs) : this.planChild(agent, kind)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A child's request: its own turns only; the parent's fs and user turns are left for the parent. */
  private planChild(agent: string, kind: ScriptedRequestKind): RequestPlan {
    const child = this.children.get(agent);
    if (child) return child.plan(kind);
    const text = `The script has no turns for agent ${agent}.`;
    this.notice(`a ${kind} request from agent ${agent} answered "${text}"`);
    return { answer: kind === 'compaction' ? { type: 'generated_summary' } : { type: 'no_turn', text } };
  }

  private async plan(kind: ScriptedRequestKind, applyFs: (turn: FsTurn) => Promise<void>): Promise<RequestPlan> {
    let fault: { fault: Fault; index: number } | undefined;
    for (;;) {
      const turn = this.peek();
      if (!turn) break;
      if (turn.kind === 'fs') {
        this.cursor++;
        await applyFs(turn);
        continue;
      }
      if (turn.kind === 'fault' && turn.for === kind && !fault) {
        this.cursor++;
        fault = { fault: turn.fault, index: turn.index };
        if (turn.fault.type === 'status' || turn.fault.type === 'prompt_too_long') {
          return { fault: turn.fault, faultTurnIndex: turn.index };
        }
        continue;
      }
      if (this.driver === 'server' && this.skippable(kind, turn)) {
        // The person typing stands in for the user turn; its idle still passes before this request.
        this.take(turn);
        this.notice(`turn ${turn.index} (${turn.kind}) skipped: the server drives this script and a ${kind} request came`);
        continue;
      }
      break;
    }
    const answer = this.pickAnswer(kind, fault?.fault);
    return fault ? { fault: fault.fault, faultTurnIndex: fault.index, answer } : { answer };
  }

  /** Not the parent's to play at this index: taken already, or a child's turn. */
  private passedOver(index: number): boolean {
    const turn = this.turns[index];
    return this.taken.has(index) || (turn !== undefined && turnAgent(turn) !== undefined);
  }

  /**
   * The turns a request passes over when the server drives: the runner's own turns (an `edit` sends text, so it
   * is passed over like a `user` turn, by main requests only; the other moves like `compact`).
   */
  private skippable(kind: ScriptedRequestKind, turn: ScenarioTurn): boolean {
    const betweenRuns = ['compact', 'skills', 'resume', 'retry', 'undo', 'restore'];
    if (kind === 'compaction') return betweenRuns.includes(turn.kind);
    return turn.kind === 'user' || turn.kind === 'edit' || turn.kind === 'summary' || betweenRuns.includes(turn.kind);
  }

  private pickAnswer(kind: ScriptedRequestKind, fault: Fault | undefined): PlannedAnswer {
    const consume = fault?.type !== 'cut';
    this.peek();
    // A fault written for the other kind of request stays at the cursor for that request; this one is
    // answered from the turn past it.
    let at = this.cursor;
    for (let next = this.turns[at]; next?.kind === 'fault' && next.for !== kind; next = this.turns[at]) {
      do at++;
      while (this.passedOver(at));
    }
    const turn = this.turns[at];
    const wanted = kind === 'main' ? 'assistant' : 'summary';
    if (turn?.kind === wanted) {
      if (consume) {
        if (at === this.cursor) this.cursor++;
        else this.taken.add(at);
      }
      return toAnswer(turn);
    }
    if (fault && turn?.kind === 'fault') {
      // Two fault turns in a row: this request shows the coming answer without consuming it.
      const ahead = this.turns.slice(at).find((t) => turnAgent(t) === undefined && t.kind !== 'fault' && t.kind !== 'fs');
      if (ahead?.kind === wanted) return toAnswer(ahead);
    }
    if (kind === 'compaction') return { type: 'generated_summary' };
    const text = turn
      ? `The script has no assistant turn here: turn ${turn.index} is a ${turn.kind} turn.`
      : 'The script has no more turns.';
    this.notice(`main request answered "${text}"`);
    return { type: 'no_turn', text };
  }
}

function toAnswer(turn: ScenarioTurn): PlannedAnswer {
  if (turn.kind === 'assistant') return { type: 'assistant', turn };
  if (turn.kind === 'summary') return { type: 'summary', text: turn.text, turnIndex: turn.index };
  throw new Error(`turn ${turn.index} is a ${turn.kind} turn, not an answer`);
}
