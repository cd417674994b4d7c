/**
 * The chat's part of the protocol (`protocol.ts` is the barrel both sides import): what the chat asks and
 * tells the host, and what the host tells it. The views these carry are in `protocolChatViews.ts`,
 * `subagentView.ts` and `coldSendView.ts`; the messages both panels share, `init` and the whole unions
 * are in `protocolCore.ts`, which builds on this file (never the other way).
 */
import type { NoticeLevel } from '../core/agent/events';
import type { ApprovalDetail, BoundQuestion, ProposedFileDiff } from '../core/agent/approval';
import type { SubagentHeaderView, SubagentUsageView } from './subagentView';
import type { ColdSendChoice, ColdSendView } from './coldSendView';
import type { PermissionMode, PlanStartMode } from './permissionModeView';
import type {
  ResultView,
  AllowanceView,
  ApprovalDecision,
  HostAction,
  SlashCommandView,
  ModelChoices,
  WelcomeView,
  CompactionMarkView,
  TurnChangesView,
  TurnView,
  UsageMeterView,
  CompactionStateView,
  TurnPage,
  CompactionDetails,
  SkillChangeView,
  QueuedMessageView,
  QueuedMessageAction,
  PastedImage,
  UserImageView,
} from './protocolChatViews';

// ---------------------------------------------------------------------------------------------------
// chat -> host
// ---------------------------------------------------------------------------------------------------

/** Requests the chat makes: method -> [params, result]. */
export interface ChatRequestMap {
  /** Turns before `beforeTurn`, newest last, at most `limit`. */
  olderTurns: [{ readonly beforeTurn: number; readonly limit: number }, TurnPage];
  /** An applied compaction's details by the generation it started; `preview: true`: the waiting preview's. */
  compactionDetails: [{ readonly generation: number; readonly preview?: boolean }, CompactionDetails];
  /** The models the server lists, for the picker (a models call to the server). */
  models: [Record<string, never>, ModelChoices];
  /** Workspace files whose path contains `query`, for `@` completion (at most 50). */
  mentionCandidates: [{ readonly query: string }, { readonly paths: readonly string[] }];
}

export type ChatWebviewNotification =
  | { readonly type: 'send'; readonly text: string; readonly images?: readonly PastedImage[] }
  | { readonly type: 'cancel' }
  /** `agent`: the sub-agent whose call it is (two agents may use the same call id); absent for the session's own. */
  | {
      readonly type: 'approval';
      readonly callId: string;
      readonly decision: ApprovalDecision;
      readonly reason?: string;
      readonly agent?: string;
    }
  | { readonly type: 'action'; readonly action: HostAction }
  /** Open a waiting call's proposed change (one file of it: `path`) in the diff editor, to review before answering. */
  | { readonly type: 'reviewChange'; readonly callId: string; readonly agent?: string; readonly path?: string }
  /** Stop allowing something without asking (an allowance's id from `allowances`). */
  | { readonly type: 'revokeAllowance'; readonly id: string }
  /** The chat's "Requests": the context report opens with the first request of this turn selected. */
  | { readonly type: 'showTurnRequests'; readonly turn: number }
  /** The meter's or a tool line's "In context": the report opens on what the context holds, these results chosen. */
  | { readonly type: 'showContext'; readonly resultIds: readonly string[] }
  | { readonly type: 'compaction'; readonly action: 'apply' | 'discard' | 'undo' }
  /** Compact now, or prepare a preview (`preview`), with the user's instructions for the summary. */
  | { readonly type: 'compact'; readonly preview: boolean; readonly instructions?: string }
  /** Show a file of a checkpoint in the diff editor (before the turn ↔ after it). */
  | { readonly type: 'openChange'; readonly checkpointId: string; readonly path: string }
  /** "Restore files to before this message" on turn `turn`'s user message: the host shows the preview. */
  | { readonly type: 'restoreToTurn'; readonly turn: number }
  /** Turn `turn`'s message edited: the conversation starts again before it (a new generation) and `text` is sent. */
  | { readonly type: 'editMessage'; readonly turn: number; readonly text: string }
  /** The model picker's choice: the next request uses it. */
  | { readonly type: 'pickModel'; readonly model: string }
  /** Files dropped on the input (file: URIs); the host answers with `insertText` mentions of those in the workspace. */
  | { readonly type: 'dropFiles'; readonly uris: readonly string[] }
  /** Turn a skill on or off from the chat's skills list: the change goes out with the next message. */
  | { readonly type: 'toggleSkill'; readonly name: string; readonly active: boolean }
  /** A queued message (one sent while Cairn worked): send it now, take it back into the input, or remove it. */
  | { readonly type: 'queuedMessage'; readonly id: number; readonly action: QueuedMessageAction }
  /** The cold-send notice's answer (`dontAskAgain`: send as Cairn would for the rest of this session, without asking). */
  | { readonly type: 'coldSendChoice'; readonly id: number; readonly choice: ColdSendChoice; readonly dontAskAgain: boolean }
  /** The mode control's choice (issue 32 §1): the user's `cairn.permissionMode` is set to it. */
  | { readonly type: 'setPermissionMode'; readonly mode: PermissionMode }
  /** "Start it" under a plan: switch to `mode`, then send the go-ahead. */
  | { readonly type: 'startPlan'; readonly mode: PlanStartMode };

/** A skill as the chat's list shows it (issue 18). */
export interface SkillView {
  readonly name: string;
  readonly description: string;
  readonly scope: 'workspace' | 'user';
  readonly file: string;
  readonly userInvocable: boolean;
  readonly active: boolean;
}

/** One step of the model's plan (the `todo` tool), shown above the input. */
export interface TodoItemView {
  readonly text: string;
  readonly status: 'pending' | 'in_progress' | 'done';
}

// ---------------------------------------------------------------------------------------------------
// host -> chat
// ---------------------------------------------------------------------------------------------------

/** The chat's fields of `init` (`InitMessage` in `protocolCore.ts`). */
export interface ChatInitFields {
  /** The newest turns; older ones are asked for with `olderTurns`. */
  readonly turns: readonly TurnView[];
  readonly hasOlderTurns: boolean;
  readonly busy: boolean;
  readonly meter?: UsageMeterView;
  readonly compaction?: CompactionStateView;
  /** The slash commands the input completes. */
  readonly slashCommands?: readonly SlashCommandView[];
  /** The model the next request uses. */
  readonly model?: string;
  /** Messages sent while Cairn worked, waiting for the turn to end (absent: none, or an older host). */
  readonly queued?: readonly QueuedMessageView[];
  /** A message waiting on the cold-send notice (absent: none). */
  readonly coldSend?: ColdSendView;
  /** What runs without asking, with how long each lasts (absent: nothing). */
  readonly allowances?: readonly AllowanceView[];
  /** The permission mode in force (absent: an older host; ask). */
  readonly permissionMode?: PermissionMode;
}

export type ChatHostNotification =
  /** The whole `/` list as it is now: built-ins and the user's custom commands (issue 33 item 5). */
  | { readonly type: 'slashCommands'; readonly commands: readonly SlashCommandView[] }
  /** A new turn starts with the user's message (`skills`: the skills it turned on or off; absent when none). */
  | { readonly type: 'turnStarted'; readonly turn: number; readonly text: string; readonly skills?: readonly SkillChangeView[] }
  /** The images the turn's user message carries, once the host has made their thumbnails (after `turnStarted`). */
  | { readonly type: 'userImages'; readonly turn: number; readonly images: readonly UserImageView[] }
  | { readonly type: 'textDelta'; readonly turn: number; readonly text: string }
  | { readonly type: 'thinkingDelta'; readonly turn: number; readonly text: string }
  /** The streamed assistant text of this turn is complete (or was cut: `incomplete`). */
  | { readonly type: 'assistantDone'; readonly turn: number; readonly incomplete: boolean }
  | { readonly type: 'toolStarted'; readonly turn: number; readonly callId: string; readonly tool: string; readonly summary: string }
  | {
      readonly type: 'approvalRequested';
      readonly turn: number;
      readonly callId: string;
      readonly tool: string;
      readonly summary: string;
      /** The whole command, every path written; hidden characters left in for the chat to show. */
      readonly detail?: ApprovalDetail;
      /** Why this call asks although the tool may be allowed (it writes a protected path such as `.git/`). */
      readonly reason?: string;
      /** Not whether the call may run but whether Cairn may go past a bound (continue or stop; never "always"). */
      readonly bound?: BoundQuestion;
    }
  /** More output of a running command, to append (the host sends it at most every 100 ms). */
  | { readonly type: 'toolOutput'; readonly turn: number; readonly callId: string; readonly text: string }
  | { readonly type: 'toolFinished'; readonly turn: number; readonly callId: string; readonly result: ResultView }
  | { readonly type: 'toolCancelled'; readonly turn: number; readonly callId: string }
  | {
      readonly type: 'notice';
      readonly turn: number;
      readonly level: NoticeLevel;
      readonly kind: string;
      readonly message: string;
      readonly action?: HostAction;
    }
  /** An error replaces the turn's earlier error of the same kind; `unsent` keeps a message that did not go out. */
  | {
      readonly type: 'error';
      readonly turn: number;
      readonly kind: string;
      readonly message: string;
      readonly action?: HostAction;
      readonly unsent?: string;
    }
  | { readonly type: 'compacted'; readonly turn: number; readonly mark: CompactionMarkView }
  /** The files the turn changed, when it ended. */
  | { readonly type: 'turnChanges'; readonly turn: number; readonly changes: TurnChangesView }
  /** The agent is working (input shows Cancel) or idle. */
  | { readonly type: 'busy'; readonly busy: boolean }
  | { readonly type: 'usage'; readonly meter: UsageMeterView }
  /** The notice above the input; null clears it. */
  | { readonly type: 'compactionState'; readonly state: CompactionStateView | null }
  /** The `Recall Result…` command: show this id inline (the webview then sends a `recall` request). */
  | { readonly type: 'showRecall'; readonly resultId: string }
  | { readonly type: 'focusInput' }
  /** The chat scrolls to this turn and marks it (the report's "Show in chat"). */
  | { readonly type: 'revealTurn'; readonly turn: number }
  /** The first run without a key: a welcome instead of an error; null once a key is saved. */
  | { readonly type: 'welcome'; readonly welcome: WelcomeView | null }
  /** The model the next request uses changed (the picker, or cairn.model). */
  | { readonly type: 'model'; readonly model: string }
  /** Text for the input at the caret (an `@file` mention from the editor's "Add … to Cairn", or dropped files). */
  /** Text to put into the input at the caret; `images`: a queued message's images, back above the input with it. */
  | { readonly type: 'insertText'; readonly text: string; readonly images?: readonly PastedImage[] }
  /** A request's tokens and cost, for the turn it answered (per message as well as per session). */
  | {
      readonly type: 'turnUsage';
      readonly turn: number;
      readonly model: string;
      readonly inputTokens: number;
      readonly outputTokens: number;
      readonly costUsd: number | null;
      /** The part of `inputTokens` read from the cache (a child's block shows it; absent from older hosts). */
      readonly cacheReadTokens?: number;
    }
  /** The skills found and which are active for the next message. */
  | { readonly type: 'skills'; readonly skills: readonly SkillView[] }
  /** The model's plan as it now stands. */
  | { readonly type: 'todo'; readonly items: readonly TodoItemView[] }
  /** The messages waiting for the turn to end, as they now stand (sent while Cairn worked). */
  | { readonly type: 'queued'; readonly messages: readonly QueuedMessageView[] }
  /** The cold-send notice above the input; null once answered. */
  | { readonly type: 'coldSend'; readonly notice: ColdSendView | null }
  /**
   * The user changed a waiting call's proposed change in the diff editor: the prompt shows these diffs, what
   * Allow will write (`revised` false: back to the proposal as made). `agent`: the child whose call it is.
   */
  | {
      readonly type: 'approvalRevised';
      readonly callId: string;
      readonly agent?: string;
      readonly diffs: readonly ProposedFileDiff[];
      readonly revised: boolean;
    }
  /** A waiting call was answered outside the chat (the diff editor's Allow or Deny). */
  | { readonly type: 'approvalAnswered'; readonly callId: string; readonly agent?: string; readonly decision: ApprovalDecision }
  /** What the user allowed to run without asking, as it now stands (issue 34, item 9). */
  | { readonly type: 'allowances'; readonly allowances: readonly AllowanceView[] }
  /** The permission mode in force, as it now stands (issue 32 §1). */
  | { readonly type: 'permissionMode'; readonly mode: PermissionMode }
  | SubagentNotification;

/**
 * The notifications a child's block shows (`subagentProjection.ts` picks them), as the chat applies them
 * inside the block: a turn's, less the three only the parent's turn has.
 */
export const SUBAGENT_INNER_EVENT_TYPES = [
  'textDelta',
  'thinkingDelta',
  'assistantDone',
  'toolStarted',
  'approvalRequested',
  'toolOutput',
  'toolFinished',
  'toolCancelled',
  'notice',
  'error',
  'compacted',
  'turnUsage',
  'subagentStarted',
  'subagentEvent',
  'subagentFinished',
] as const satisfies readonly ChatHostNotification['type'][];

/** The notifications about one turn: the chat's transcript applies them (`transcript.ts`). */
export const TURN_EVENT_TYPES = [
  'turnStarted',
  'userImages',
  'turnChanges',
  ...SUBAGENT_INNER_EVENT_TYPES,
] as const satisfies readonly ChatHostNotification['type'][];

export type TurnEvent = Extract<ChatHostNotification, { type: (typeof TURN_EVENT_TYPES)[number] }>;

/** A child's notification, as the chat applies it inside the child's block (`turn` is the parent's turn). */
export type SubagentInnerEvent = Extract<ChatHostNotification, { type: (typeof SUBAGENT_INNER_EVENT_TYPES)[number] }>;

/** Host → webview: the notifications about children (all turn events: `transcript.ts` applies them). */
export type SubagentNotification =
  /** A `task` call started a child: its block appears on the call's line (`agent.callId`). */
  | { readonly type: 'subagentStarted'; readonly turn: number; readonly agent: SubagentHeaderView }
  /** One of the child's own notifications (its text, tool lines, approvals, usage; a grandchild's, wrapped again). */
  | { readonly type: 'subagentEvent'; readonly turn: number; readonly agentId: string; readonly event: SubagentInnerEvent }
  /** The child ended: its block shows how, with what it spent. */
  | {
      readonly type: 'subagentFinished';
      readonly turn: number;
      readonly agentId: string;
      readonly reason: string;
      readonly usage: SubagentUsageView;
    };
