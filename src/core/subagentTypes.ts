/**
 * The data of sub-agents (`core/subagents/`), shared with the events, the journal's records and the views.
 */

/**
 * What a child may do: `explore` reads (read, list, glob, grep, recall); `general` has every tool the
 * parent has, under the same approvals and workspace trust.
 */
export type SubagentKind = 'explore' | 'general';

export const SUBAGENT_KINDS: readonly SubagentKind[] = ['explore', 'general'];

/** One child, as the journal, the events and the chat name it. */
export interface SubagentInfo {
  /** Unique in the session: `KIND-N`, N counting the session's children from 1 (`explore-1`, `general-2`). */
  readonly id: string;
  /** The parent's `task` tool call this child answers. */
  readonly callId: string;
  readonly kind: SubagentKind;
  /** The `task` call's short description (the chat's title for the child's block). */
  readonly description: string;
  /** The task as the parent wrote it: the child's first user message. */
  readonly prompt: string;
  /** 1 for a child of the session's agent, 2 for a grandchild, … */
  readonly depth: number;
  /** The child that started this one (absent for a child of the session's own agent). */
  readonly parent?: string;
}

/** Tokens by kind, summed over a child's requests (its compaction's included). */
export interface SubagentUsage {
  readonly input: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  readonly output: number;
}

/** Two tallies of tokens added up. */
export function addUsage(a: SubagentUsage, b: SubagentUsage): SubagentUsage {
  return {
    input: a.input + b.input,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead,
    output: a.output + b.output,
  };
}

/** How a child ended and what it spent. */
export interface SubagentOutcome {
  /**
   * Why it stopped: its loop's `DoneReason` (written out here so this file stays a leaf that the events and
   * the journal's records can import), or `interrupted`: Cairn stopped while it ran (found on a reopen).
   */
  readonly reason: 'end_turn' | 'cancelled' | 'max_turns' | 'max_tokens' | 'refusal' | 'error' | 'interrupted';
  /** Model requests it made (its compaction's included). */
  readonly requests: number;
  readonly usage: SubagentUsage;
  /** In US dollars; null when its model has no price in the table. */
  readonly costUsd: number | null;
  /** The ids of the results its tools produced, oldest first (the parent may recall any of them). */
  readonly resultIds: readonly string[];
}

/** `cairn.subagents.*`. */
export interface SubagentSettings {
  /** How deep children may nest: 1 (default) lets the session's agent start children that start none; at most 3. */
  readonly maxDepth: number;
  /** Children of one response that run at once (default 3); the rest wait their turn. */
  readonly parallel: number;
  /** Model requests one child may make before it is stopped with what it has (default 25). */
  readonly maxTurns: number;
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = { maxDepth: 1, parallel: 3, maxTurns: 25 };

export const MAX_SUBAGENT_DEPTH = 3;

/** The most children of one agent that may run at once. */
export const MAX_PARALLEL = 8;
