/**
 * Sub-agents (issue 19) as the chat and the report see them. A `task` tool call's line in the chat holds
 * the child's block (`SubagentView`): its header (id, kind, description, requests, tokens, cost) and its
 * own transcript, built from the same items as a turn's (so its tool lines, result ids and approvals are
 * the parent's components). Live, the host wraps each of the child's notifications in a `subagentEvent`
 * (nested once more per level for a grandchild); after a reload the digest builds the same block from the
 * journal's `subagent_*` records. The block itself (`SubagentView`, whose items are a turn's) is in
 * `protocolChatViews.ts` beside `TranscriptItem`, and the notifications about children (`SubagentNotification`)
 * are in `protocolChat.ts` beside the chat's notifications: each pair is one recursive type. These are the
 * leaves both build on.
 */
export type SubagentKindView = 'explore' | 'general';

/**
 * `running` while it works; `done` once its `subagent_finished` came; `interrupted` when Cairn stopped while
 * it ran (a reload found no `subagent_finished`, or the run ended without one).
 */
export type SubagentStatus = 'running' | 'done' | 'interrupted';

/** What a child spent, summed over its requests (its compaction's included). */
export interface SubagentUsageView {
  readonly requests: number;
  /** Prompt tokens: uncached input, cache writes and cache reads. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The part of `inputTokens` read from the provider's cache. */
  readonly cacheReadTokens: number;
  /** US dollars; null when a request's model has no price. */
  readonly costUsd: number | null;
}

/** The child's identity, as `subagentStarted` gives it. */
export interface SubagentHeaderView {
  /** Unique in the session: `explore-1`, `general-2`, … */
  readonly id: string;
  /** The parent's `task` call this child answers. */
  readonly callId: string;
  readonly kind: SubagentKindView;
  readonly description: string;
  /** The task as the parent wrote it (the child's first message). */
  readonly prompt: string;
}

/** One child's figures for the session's totals (the meter, the status bar, the report). */
export interface SubagentTotalView {
  readonly id: string;
  readonly usage: SubagentUsageView;
}
