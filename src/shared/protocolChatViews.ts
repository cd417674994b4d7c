/**
 * The views the chat's messages carry (`protocolChat.ts`): core facts shaped for rendering, plain JSON, no
 * classes. Kept apart from the messages themselves; `protocol.ts` re-exports every one.
 */
import type { ResultKind } from '../core/ledger/types';
import type { NoticeLevel } from '../core/agent/events';
import type { ApprovalDetail, BoundQuestion } from '../core/agent/approval';
import type { SubagentHeaderView, SubagentStatus, SubagentTotalView, SubagentUsageView } from './subagentView';

/** A ledger result as the chat shows it: one collapsed line, expandable to `text`. */
export interface ResultView {
  /** `#` and lowercase hex. */
  readonly id: string;
  readonly tool: string;
  /** The bracket line, e.g. `[#a3f2 src/app.ts lines 1-200 of 340 sha 1c9e04ab]`. */
  readonly bracket: string;
  /** Exactly what the model saw (capped for long output; the full text is recalled by id). */
  readonly text: string;
  readonly kind: ResultKind;
  /** Characters of the full stored body. */
  readonly fullChars: number;
  /** Estimated tokens hygiene kept out of the context with this answer (0 for a full result). */
  readonly tokensSaved: number;
  readonly isError: boolean;
  /** Earlier results this one names (a stub's full read, a same-result's first). */
  readonly refersTo?: readonly string[];
  /** What the call came to, for the tool line (absent: nothing to add, or an older host). */
  readonly outcome?: ResultOutcome;
}

/** A tool call's outcome as the tool line shows it; the host works it out from the result (resultOutcome.ts). */
export interface ResultOutcome {
  /** A command's exit code; null when a signal ended it. */
  readonly exitCode?: number | null;
  readonly timedOut?: boolean;
  readonly cancelled?: boolean;
  /** Ended because the window was reloaded or closed while it ran (with `cancelled`), not by the user. */
  readonly windowClosed?: boolean;
  /** How long the tool ran (approval wait excluded); absent when it did not run or after a reload. */
  readonly durationMs?: number;
  /** A search's matches. */
  readonly matches?: number;
  /** Lines an edit added and removed. */
  readonly added?: number;
  readonly removed?: number;
}

export type ToolCallStatus = 'running' | 'awaiting-approval' | 'approved' | 'denied' | 'done' | 'cancelled';

/**
 * What the user decided for one approval prompt: once; for the rest of this session (`allow-session`); always,
 * for this user in every workspace until revoked (`allow-always`); or not.
 */
export type ApprovalDecision = 'allow-once' | 'allow-session' | 'allow-always' | 'deny';

/** One thing the user allowed to run without asking (issue 34, item 9), as the chat's list shows it. */
export interface AllowanceView {
  /** What revoking it names (`revokeAllowance`). */
  readonly id: string;
  /** What it allows, in words: "Edits (edit, multiedit, write, apply_patch)", "bash", "MCP tool x of server y". */
  readonly label: string;
  /** How long it lasts: this session, always for this user (an answer), or the user's `cairn.approvals` setting. */
  readonly scope: 'session' | 'user' | 'settings';
}

/** Buttons an error can carry; the host maps each to its command. */
export type HostAction =
  | 'setApiKey'
  | 'retry'
  | 'newSession'
  | 'compact'
  | 'showReport'
  | 'openSettings'
  /** Send the message that could not go out (no key) now. */
  | 'resend'
  /** After the user's own cancel: ask the model to go on from where it stopped. */
  | 'continue'
  /** The last answer again: a new generation from before the last user message, which is sent again. */
  | 'regenerate';

/** A slash command the input completes (`/compact`, `/new`…); the host owns the list and runs them. */
export interface SlashCommandView {
  /** Without the slash, e.g. `compact`. */
  readonly name: string;
  readonly description: string;
  /** Shown after the name when the command takes text, e.g. `[instructions]`. */
  readonly argumentHint?: string;
}

/** A message the user sent while Cairn worked, waiting for the turn to end (issue 34, item 13). */
export interface QueuedMessageView {
  /** The host's number for it, to act on it (`queuedMessage`). */
  readonly id: number;
  readonly text: string;
  /** The names of the images pasted with it (they go with it when it is sent); absent when none. */
  readonly images?: readonly string[];
  /** "Send now" was asked: it goes to the running turn at its next request boundary. */
  readonly steering: boolean;
}

/** What the user does with a queued message: give it to the running turn now, take it back into the input, or drop it. */
export type QueuedMessageAction = 'sendNow' | 'edit' | 'remove';

/** One model the server lists, for the chat's model picker. */
export interface ModelChoiceView {
  readonly id: string;
  readonly displayName: string;
  /** The input window in tokens, when the server says. */
  readonly windowTokens?: number;
  /** US$ per million input and output tokens (Cairn's price table or cairn.prices); absent: unknown. */
  readonly price?: { readonly input: number; readonly output: number };
}

export interface ModelChoices {
  /** The model the next request uses. */
  readonly current: string;
  readonly models: readonly ModelChoiceView[];
}

/** What the first run without a key shows instead of an error. */
export interface WelcomeView {
  /** The server Cairn talks to when it is not Anthropic's (cairn.baseUrl). */
  readonly server?: string;
}

export interface CompactionMarkView {
  readonly generation: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The summary and files table can be fetched with the `compactionDetails` request. */
  readonly hasDetails: boolean;
  /**
   * Open "What left the context" at once (issue 35 §3): an automatic compaction the user did not ask for, as it
   * happens. A reload shows it closed (one click away), so a long session does not read its journal per mark.
   */
  readonly showLeft?: true;
}

/** One file a turn changed, as its checkpoint knows it (`core/checkpoints/`). */
export interface FileChangeView {
  readonly path: string;
  readonly change: 'created' | 'deleted' | 'modified' | 'not_restorable';
  /** Lines added and removed (text files). */
  readonly added?: number;
  readonly removed?: number;
}

/** The files one turn changed, shown at its end; each opens in the diff editor. */
export interface TurnChangesView {
  readonly checkpointId: string;
  readonly files: readonly FileChangeView[];
}

/** A skill the user's message turned on or off (its envelope went with the message); it stays so until turned again. */
export interface SkillChangeView {
  readonly name: string;
  readonly active: boolean;
}

/** One element of a turn, in the order it happened. */
export type TranscriptItem =
  /** `skills`: the skills this message turned on or off (`/name`, the skills list); absent when none. */
  | {
      readonly type: 'user';
      readonly text: string;
      readonly skills?: readonly SkillChangeView[];
      /** The images sent with it (pasted, dropped, attached), each its one line and a small thumbnail; absent when none. */
      readonly images?: readonly UserImageView[];
    }
  /** Markdown; `streaming` while deltas may still append to it. */
  | {
      readonly type: 'assistant';
      readonly text: string;
      readonly streaming?: boolean;
      readonly incomplete?: boolean;
      /** Cut by the user's own cancel (not by a failure). */
      readonly stopped?: boolean;
    }
  | { readonly type: 'thinking'; readonly text: string; readonly streaming?: boolean }
  | {
      readonly type: 'tool';
      readonly callId: string;
      readonly tool: string;
      /** The key argument, e.g. the path of a read or the command of a bash call. */
      readonly summary: string;
      readonly status: ToolCallStatus;
      readonly result?: ResultView;
      /** What the approval prompt shows in full: the whole command, every path written (absent: none asked). */
      readonly approval?: ApprovalDetail;
      /** Shown with the approval prompt: why this call must be approved explicitly. */
      readonly approvalReason?: string;
      /** The prompt asks whether Cairn may go past a bound (continue or stop), not whether the call may run. */
      readonly approvalBound?: BoundQuestion;
      /** The user changed the proposed change in the diff editor: its diffs are what Allow writes now. */
      readonly approvalRevised?: boolean;
      /** The newest output of a running command (bounded, see `LIVE_OUTPUT_MAX_CHARS`); the result replaces it. */
      readonly liveOutput?: string;
      /** A `task` call's child agent, live or finished (`SubagentView`, below). */
      readonly subagent?: SubagentView;
    }
  | { readonly type: 'notice'; readonly level: NoticeLevel; readonly kind: string; readonly message: string; readonly action?: HostAction }
  | {
      readonly type: 'error';
      readonly kind: string;
      readonly message: string;
      readonly action?: HostAction;
      /** The user's message that did not go out, kept so nothing typed is lost. */
      readonly unsent?: string;
    }
  | ({ readonly type: 'compaction' } & CompactionMarkView)
  | ({ readonly type: 'changes' } & TurnChangesView);

/** One child's block in the chat. */
export interface SubagentView extends SubagentHeaderView {
  readonly status: SubagentStatus;
  /** Why it stopped (`end_turn`, `max_turns`, `cancelled`, `error`, `interrupted`…); absent while it runs. */
  readonly reason?: string;
  /** Its transcript: answers, tool lines (with result ids), notices, approvals. Never a `user` item. */
  readonly items: readonly TranscriptItem[];
  /** Live: summed from its requests as they end; finished: the outcome's figures. Absent before any. */
  readonly usage?: SubagentUsageView;
}

/** A turn: one user message and everything that answered it. Turns are numbered from 0 in the session. */
export interface TurnView {
  readonly index: number;
  readonly items: readonly TranscriptItem[];
  /** What the turn's requests used and cost, summed (live turns; absent when none was reported). */
  readonly usage?: TurnUsageView;
}

export interface TurnUsageView {
  /** The model of the turn's last request. */
  readonly model: string;
  readonly requests: number;
  /** Prompt tokens (input, cache write and cache read) over the turn's requests. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** null when a request's model has no price. */
  readonly costUsd: number | null;
}

/** The usage meter: the parts of the model's window the last request used, and what the session cost. */
export interface UsageMeterView {
  /** The model's input window in tokens. */
  readonly windowTokens: number;
  readonly systemTokens: number;
  readonly historyTokens: number;
  readonly summaryTokens: number;
  /** Cache-read share of the last request's input, 0..1; null before the first response. */
  readonly cacheHitShare: number | null;
  readonly sessionCostUsd: number;
  /** Estimated tokens that stubs, caps, diffs and same-result answers kept out of the context. */
  readonly tokensSavedByHygiene: number;
  /** Each sub-agent's figures (their cost is in `sessionCostUsd`); absent when the session has none. */
  readonly subagents?: readonly SubagentTotalView[];
  /** When the session's own agent last used the prompt cache (epoch ms) and how long it keeps; absent before any request. */
  readonly cache?: { readonly lastUsedAt: number; readonly lifetimeMs: number };
  /** Spent against the spending caps (`cairn.budget.*`, sub-agents included); absent when no cap is set. */
  readonly spending?: SpendingCapView;
  /** Requests left before automatic compaction at this generation's recent rate, when few (issue 35 §3); absent otherwise. */
  readonly compactionIn?: number;
}

/** What the turn and the session spent, against their caps in US$ (a cap absent: not set). */
export interface SpendingCapView {
  readonly turnUsd: number;
  readonly turnCapUsd?: number;
  readonly sessionUsd: number;
  readonly sessionCapUsd?: number;
}

/** The compaction notice above the input. */
export interface CompactionStateView {
  readonly status: 'running' | 'preview' | 'done' | 'failed';
  readonly generation: number;
  readonly tokensBefore: number;
  /** Known once a summary exists (preview or done). */
  readonly tokensAfter?: number;
  readonly message?: string;
  /** The summary and files table can be fetched with `compactionDetails`. */
  readonly hasDetails: boolean;
  /** The host can undo the last compaction. */
  readonly canUndo: boolean;
}

export interface TurnPage {
  readonly turns: readonly TurnView[];
  /** More turns exist before the first one of this page. */
  readonly hasOlder: boolean;
}

export interface CompactionDetails {
  readonly generation: number;
  /** Markdown (ids in it are links). */
  readonly summary: string;
  /** Markdown table `| Path | Lines | sha | Result |`, or '' with no reads. */
  readonly filesTable: string;
  /** Estimated prompt before → after (given for a preview). */
  readonly tokensBefore?: number;
  readonly tokensAfter?: number;
  /** What left the model's view (issue 35 §3); an applied compaction's only. */
  readonly left?: ContextLeftView;
}

/** What a compaction took out of the context, derived from the journal (`core/compaction/contextLeft.ts`). */
export interface ContextLeftView {
  readonly reason: 'auto' | 'manual' | 'overflow';
  readonly summarizedMessages: number;
  /** The user's own words among the summarized messages, one line each. */
  readonly userMessages: readonly string[];
  /** Results no longer in front of the model (each recallable), largest first. */
  readonly results: readonly { readonly id: string; readonly subject: string; readonly tokens: number; readonly oneLine: boolean }[];
}

/** An image pasted or dropped into the chat's input (issue 33), sent with the message; the host scales it to the limits. */
/**
 * An image the user sent, as their message shows it: its one line (`[#a3f2 image shot.png 1280×720, ~1,229
 * tokens]`) and a thumbnail the host made (a JPEG data URL, at most 160 px a side: never the image
 * itself, which may be megabytes); no thumbnail when it could not be made (a WebP over the limits).
 */
export interface UserImageView {
  readonly line: string;
  readonly thumbnail?: string;
}

export interface PastedImage {
  readonly name: string;
  readonly mediaType: 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
  /** The file's bytes, base64. */
  readonly data: string;
}
