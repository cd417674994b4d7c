import type { Approver } from '../agent/approval';
import { askPastBound, type BoundAnswer } from '../agent/boundQuestion';
import type { AgentEvent } from '../agent/events';
import type { ToolCall } from '../ledger/types';
import type { SubagentSettings } from '../subagentTypes';
import { taskCallSummary } from './taskTool';

/** Where a question is shown: the views and the agent (none: the session's own) of the call it is on. */
export interface BoundPlace {
  readonly emit: (event: AgentEvent) => void;
  readonly agent?: string;
}

/** What one turn (one user message, every child at every depth) has spent, and what the user said. */
interface TurnSpend {
  /** Children started (admitted) this turn. */
  started: number;
  /** Model requests the children have sent this turn (compaction's included). */
  requests: number;
  /** What a "continue" added to `perTurn` this turn. */
  extraChildren: number;
  /** What a "continue" added to `requestsPerTurn` this turn. */
  extraRequests: number;
  /** The user said no to more children past a bound: the excess is refused without asking again. */
  childrenDeclined: boolean;
  /** The user stopped the children's requests: each stops, and none starts, for the rest of the turn. */
  requestsStopped?: string;
  /** The requests question being asked: children that reach the bound meanwhile wait for its answer. */
  asking?: Promise<BoundAnswer>;
}

const freshTurn = (): TurnSpend => ({ started: 0, requests: 0, extraChildren: 0, extraRequests: 0, childrenDeclined: false });

/**
 * The session's bounds on its children in one turn (security round 3, case 11: one response of 40 `task`
 * calls ran 1,000 requests with nothing asked): at most `perResponse` children started by one response,
 * `perTurn` by the whole turn (every depth), and `requestsPerTurn` requests by all of them together. Past
 * one, the user is asked (`askPastBound`), with what was spent and what each answer does: continue raises
 * that bound once for the turn (it asks again when the raised bound is reached); stop refuses the calls
 * past it, or stops every child before its next request. One per session, shared by every runner.
 */
export class ChildBudget {
  private turn = freshTurn();

  constructor(
    private readonly settings: () => SubagentSettings,
    private readonly approver: Approver,
  ) {}

  /** The session's agent starts a run: the turn's counts and answers start again. */
  startTurn(): void {
    this.turn = freshTurn();
  }

  /** A child of this turn sends a model request (any depth, its compaction's too). */
  noteRequest(): void {
    this.turn.requests++;
  }

  /**
   * The `task` calls of one response that would start a child, in order: those past the bounds are asked
   * about (one question, on the first of them) and, on a "stop", refused with the text the model gets.
   */
  async admit(calls: readonly ToolCall[], place: BoundPlace, signal: AbortSignal): Promise<ReadonlyMap<string, string>> {
    const turn = this.turn;
    const wanted = calls.length;
    if (wanted === 0) return new Map();
    if (turn.requestsStopped !== undefined) return refuse(calls, 0, requestsStoppedStart(turn.requestsStopped));
    const s = this.settings();
    const turnBound = s.perTurn + turn.extraChildren;
    const turnRoom = Math.max(0, turnBound - turn.started);
    const room = Math.min(s.perResponse, turnRoom);
    if (wanted <= room) {
      turn.started += wanted;
      return new Map();
    }
    const byResponse = s.perResponse <= turnRoom;
    const refusal = byResponse
      ? `Not started: the user chose not to start more than ${room} sub-agents in one response (cairn.subagents.perResponse is ${s.perResponse}).`
      : `Not started: the user chose not to start more than ${turn.started + room} sub-agents this turn (cairn.subagents.perTurn is ${s.perTurn}${turn.extraChildren > 0 ? `, raised to ${turnBound} for this turn` : ''}).`;
    const advice = ' Do this part yourself, or hand the work over in fewer, larger tasks.';
    if (turn.childrenDeclined) {
      turn.started += room;
      return refuse(calls, room, refusal + advice);
    }
    const who = place.agent ?? 'The model';
    const first = calls[room]!;
    const answer = await askPastBound(
      { approver: this.approver, emit: place.emit, ...(place.agent !== undefined ? { agent: place.agent } : {}) },
      { callId: first.callId, tool: first.name, input: first.input, summary: taskCallSummary(first.input) },
      {
        setting: byResponse ? 'cairn.subagents.perResponse' : 'cairn.subagents.perTurn',
        text:
          (byResponse
            ? `${who} wants to start ${wanted} sub-agents in one response; the bounds allow ${room}`
            : `${who} wants to start ${wanted} more sub-agents this turn; the bounds allow ${room}`) +
          ` (cairn.subagents.perResponse: ${s.perResponse} per response; cairn.subagents.perTurn: ${turnBound} this turn). ` +
          `So far this turn: ${turn.started} sub-agents, ${turn.requests} requests. ` +
          `Continue: all ${wanted} start (${s.parallel} at a time, each up to ${s.maxTurns} requests). ` +
          `Stop: ${room === 0 ? `none of them starts` : `the first ${room} start and the other ${wanted - room} do not`}.`,
      },
      signal,
    );
    if (answer === 'cancelled') return new Map();
    if (answer === 'continue') {
      turn.started += wanted;
      // Raised once: as many again, or what was just allowed; past that it asks again.
      turn.extraChildren = Math.max(turn.extraChildren + s.perTurn, turn.started - s.perTurn);
      return new Map();
    }
    turn.childrenDeclined = true;
    turn.started += room;
    return refuse(calls, room, refusal + advice);
  }

  /**
   * Before a child's model request: undefined to send it, or why it stops. Past `requestsPerTurn` the user
   * is asked once for all the children that reach it (the question is on `call`, the parent's `task` call
   * that started this child); the others wait for that answer.
   */
  async beforeRequest(place: BoundPlace, call: ToolCall, signal: AbortSignal): Promise<string | undefined> {
    const turn = this.turn;
    for (;;) {
      if (turn.requestsStopped !== undefined) return turn.requestsStopped;
      const s = this.settings();
      const bound = s.requestsPerTurn + turn.extraRequests;
      if (turn.requests < bound) return undefined;
      if (signal.aborted) return 'Cancelled by the user.';
      if (turn.asking) {
        // Someone else's question: its answer applies to every child; a question cut short is asked again.
        await turn.asking;
        continue;
      }
      turn.asking = this.askRequests(turn, s, bound, place, call, signal);
      try {
        await turn.asking;
      } finally {
        turn.asking = undefined;
      }
    }
  }

  private async askRequests(
    turn: TurnSpend,
    s: SubagentSettings,
    bound: number,
    place: BoundPlace,
    call: ToolCall,
    signal: AbortSignal,
  ): Promise<BoundAnswer> {
    const raised = turn.extraRequests > 0 ? `, raised to ${bound} for this turn` : '';
    const answer = await askPastBound(
      { approver: this.approver, emit: place.emit, ...(place.agent !== undefined ? { agent: place.agent } : {}) },
      { callId: call.callId, tool: call.name, input: call.input, summary: taskCallSummary(call.input) },
      {
        setting: 'cairn.subagents.requestsPerTurn',
        text:
          `This turn's sub-agents have made ${turn.requests} model requests (cairn.subagents.requestsPerTurn is ${s.requestsPerTurn}${raised}); ` +
          `${turn.started} sub-agent${turn.started === 1 ? '' : 's'} started so far. ` +
          `Continue: they may make up to ${s.requestsPerTurn} more this turn. ` +
          `Stop: each stops before its next request and answers with what it has, and no more start this turn.`,
      },
      signal,
    );
    // Raised once: as many again from here; past that it asks again.
    if (answer === 'continue') turn.extraRequests = turn.requests;
    else if (answer === 'stop')
      turn.requestsStopped = `The user chose to stop this turn's sub-agents after ${turn.requests} model requests (cairn.subagents.requestsPerTurn is ${s.requestsPerTurn}${raised}).`;
    return answer;
  }
}

/** The calls from `from` on, each answered with `text`. */
function refuse(calls: readonly ToolCall[], from: number, text: string): Map<string, string> {
  return new Map(calls.slice(from).map((call) => [call.callId, text]));
}

/** A task call after the user stopped the turn's children: `why` is the sentence they were stopped with. */
function requestsStoppedStart(why: string): string {
  return `Not started: ${why.charAt(0).toLowerCase()}${why.slice(1)} Do the task yourself, or tell the user what is left.`;
}
