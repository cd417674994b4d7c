/**
 * The scenario format, parsed. The JSON contract (issue 3 §5) is written by people and by other
 * projects; these are the typed shapes `parseScenario` turns it into. Every turn carries its index
 * in `turns` so logs and errors can name it.
 */

export interface ScenarioModel {
  /** The model the scenario plays; when absent the server answers for any model id. */
  readonly id?: string;
  /** Input tokens a request may hold; more is a 400 "prompt is too long". */
  readonly contextWindow: number;
  /** Largest `max_tokens` a request may ask for. */
  readonly maxOutput: number;
}

/** `{"lines": N, "text": "line {n}"}`: N lines, each `text` with `{n}` the 1-based line number. */
export interface GeneratedFile {
  readonly lines: number;
  readonly text: string;
}

export type WorkspaceFile = string | GeneratedFile;

export interface ScriptedToolCall {
  readonly name: string;
  /** As written; strings may hold `{result:K}` references resolved when the call is sent. */
  readonly input: unknown;
  /** A fixed tool_use id instead of the server's next one (to script a model that repeats an id). */
  readonly id?: string;
}

export type ScriptedStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'pause_turn' | 'refusal' | 'stop_sequence';

/**
 * `{"user": "text"}`, or `{"user": "text", "idle": SECONDS, "images": ["shot.png"]}`: a message the user sends. `idle` is how long the
 * user was away before sending it (reading the last answer, a meeting, lunch), in seconds ≥ 0; absent is 0.
 *
 * Time in a played scenario is virtual: real time plus every idle so far (`VirtualClock`,
 * `src/node/scenario/virtualClock.ts`). No one sleeps. The local server's prompt-cache simulation expires its
 * entries by that clock (5 minutes, or an hour with `ttl: "1h"`), so an idle longer than an entry's lifetime
 * costs the next request a cache write, as it would on the real service. The idle is added when the turn is
 * taken from the script, before that message's first request: by the headless runner (which also gives the same
 * clock to Cairn's session, its `Clock` port, so Cairn sees the time the server sees), by the peers bench for
 * every agent alike (`bench/peers/peerSession.ts`), and by the server itself when it drives the script and
 * passes over the user turn.
 */
export interface UserTurn {
  readonly kind: 'user';
  readonly index: number;
  readonly text: string;
  /** Seconds the user was away before sending this message (`"idle"`); absent when 0 or not written. */
  readonly idleSeconds?: number;
  /**
   * `"images": ["shot.png"]`: workspace paths of images attached to the message (issue 33), read through the
   * ledger like the model's `read` (an id, the image sent after the text); absent when none.
   */
  readonly images?: readonly string[];
}

/** The longest idle one user turn may carry (a year): more is surely a slip of the keyboard. */
export const MAX_IDLE_SECONDS = 365 * 24 * 60 * 60;

export interface AssistantTurn {
  readonly kind: 'assistant';
  readonly index: number;
  readonly text?: string;
  readonly thinking?: string;
  readonly toolCalls: readonly ScriptedToolCall[];
  /** Optional override; by default `tool_use` when there are tool calls, else `end_turn`. */
  readonly stopReason?: ScriptedStopReason;
  /** A child's turn (`"agent": "explore-1"`): answers only requests whose `x-cairn-agent` names that child. */
  readonly agent?: string;
}

export type FsOperation =
  | { readonly type: 'write'; readonly path: string; readonly content: string }
  | { readonly type: 'append'; readonly path: string; readonly content: string }
  | { readonly type: 'delete'; readonly path: string };

export interface FsTurn {
  readonly kind: 'fs';
  readonly index: number;
  readonly operation: FsOperation;
}

/** What a `fault` turn does to the next request. */
export type Fault =
  /** An HTTP error in the real error shape; `retryAfterSeconds` becomes the `retry-after` header. */
  | { readonly type: 'status'; readonly status: number; readonly retryAfterSeconds?: number; readonly message?: string }
  /** The stream of the next answer is cut (the socket destroyed) after this many SSE events. */
  | { readonly type: 'cut'; readonly afterEvents: number }
  /** The next answer is sent slowly: this many milliseconds before each SSE event. */
  | { readonly type: 'delay'; readonly ms: number }
  /** A 400 "prompt is too long" whatever the request's size. */
  | { readonly type: 'prompt_too_long' };

/** Which requests a fault is for: the loop's own (`main`, the default) or a summary request (`compaction`). */
export type FaultTarget = 'main' | 'compaction';

export interface FaultTurn {
  readonly kind: 'fault';
  readonly index: number;
  readonly fault: Fault;
  /**
   * The kind of request that takes this fault (`"for"` in the JSON; default `main`). A request of the
   * other kind passes over it: an automatic compaction never takes a fault written for the next main request.
   */
  readonly for: FaultTarget;
  /** The child whose next request takes this fault; absent: the parent's. */
  readonly agent?: string;
}

export interface SummaryTurn {
  readonly kind: 'summary';
  readonly index: number;
  readonly text: string;
  /** The child whose compaction takes this summary (`{"summary": {"text", "agent"}}`); absent: the parent's. */
  readonly agent?: string;
}

/** The turns a child's requests are answered from; every other turn is the parent's. */
export type ChildTurn = (AssistantTurn | FaultTurn | SummaryTurn) & { readonly agent: string };

/** The child a turn was written for, or undefined for the parent's turns. */
export function turnAgent(turn: ScenarioTurn): string | undefined {
  return turn.kind === 'assistant' || turn.kind === 'fault' || turn.kind === 'summary' ? turn.agent : undefined;
}

export interface CompactTurn {
  readonly kind: 'compact';
  readonly index: number;
  readonly instructions?: string;
}

/** Skills turned on and off as the chat's list or `/name` would, applied before the next user turn. */
export interface SkillsTurn {
  readonly kind: 'skills';
  readonly index: number;
  readonly enable: readonly string[];
  readonly disable: readonly string[];
}

/** The session is closed and reopened from its journal, as reopening it in the editor does. */
export interface ResumeTurn {
  readonly kind: 'resume';
  readonly index: number;
}

/*
 * The history moves (issue 29): what the chat's Retry, the compaction banner's Undo, a message's Edit and
 * "Restore files to before this message" do, played by the headless runner (`npm run agent`) between runs.
 * "Message N" is the N-th message the user typed, counted from 1 along the conversation the chat shows (the
 * active branch: an edit or a restore of the conversation drops the later messages, so the edited message
 * keeps its number and the next one typed takes the following one; messages before a compaction keep theirs).
 * A move that cannot be played is an error line in the transcript (`[error: edit] …`, what happened and
 * why) and a notice, and the script goes on, as with a compaction that cannot be done.
 */

/**
 * `{"retry": {}}`: the chat's Retry after a failed request: asks again for the answer to the message
 * waiting for one (`AgentSession.retryUnanswered`), adding none. The run goes on from there as a user turn
 * does. Refused when nothing waits (the last request did not fail).
 */
export interface RetryTurn {
  readonly kind: 'retry';
  readonly index: number;
}

/**
 * `{"undo": {}}`: the compaction banner's Undo: undoes the last compaction or lossless elision, which is
 * possible only until a request has used the new generation (`AgentSession.undoCompaction`). Refused when
 * there is nothing to undo.
 */
export interface UndoTurn {
  readonly kind: 'undo';
  readonly index: number;
}

/**
 * `{"edit": {"turn": N, "text": "…"}}`: Edit on message N, then send: the conversation starts again from
 * before message N (a new generation; the old branch stays in the journal) and `text` goes out in its place,
 * run as a user turn. Files are not restored (a `restore` turn does that). Refused for a message that does
 * not exist, and for one before the last compaction (the conversation cannot start again from there).
 */
export interface EditTurn {
  readonly kind: 'edit';
  readonly index: number;
  /** Which message of the user's, counted from 1. */
  readonly turn: number;
  readonly text: string;
}

/**
 * `{"restore": {"turn": N, "conversation": true|false}}`: "Restore files to before this message" on
 * message N: every file Cairn changed from message N on goes back to what it was before it. With
 * `conversation`, the conversation also goes back to before message N (a new generation, as "Restore
 * Files and Conversation" does); without, it is unchanged and the next message tells the model which files
 * were restored. A file the user changed since Cairn's turn (a conflict) is kept as the user left it, as the
 * editor's preview does when nobody picks it; the transcript names it. Refused for a message that does not
 * exist, and, with `conversation`, for one before the last compaction (the files alone can still be restored).
 */
export interface RestoreTurn {
  readonly kind: 'restore';
  readonly index: number;
  /** Which message of the user's, counted from 1. */
  readonly turn: number;
  readonly conversation: boolean;
}

/** The turns the headless runner plays against the session between runs (none of them answers a request). */
export type HistoryMoveTurn = RetryTurn | UndoTurn | EditTurn | RestoreTurn;

export type ScenarioTurn =
  UserTurn | AssistantTurn | FsTurn | FaultTurn | SummaryTurn | CompactTurn | SkillsTurn | ResumeTurn | HistoryMoveTurn;

export interface Scenario {
  readonly about?: string;
  readonly model: ScenarioModel;
  /** Relative `/`-separated paths (checked not to escape the folder) to contents. */
  readonly workspace: Readonly<Record<string, WorkspaceFile>>;
  readonly turns: readonly ScenarioTurn[];
  /** Where the scenario came from (a file path), for messages. */
  readonly source?: string;
}

export const DEFAULT_CONTEXT_WINDOW = 200_000;
export const DEFAULT_MAX_OUTPUT = 64_000;
