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
  readonly reason: 'end_turn' | 'cancelled' | 'max_turns' | 'max_tokens' | 'refusal' | 'error' | 'budget' | 'interrupted';
  /** Model requests it made (its compaction's included). */
  readonly requests: number;
  readonly usage: SubagentUsage;
  /** In US dollars; null when its model has no price in the table. */
  readonly costUsd: number | null;
  /** The ids of the results its tools produced, oldest first (the parent may recall any of them). */
  readonly resultIds: readonly string[];
}

/** `cairn.subagents.*` (every one a budget: read from the user's settings only, each with a maximum). */
export interface SubagentSettings {
  /** How deep children may nest: 1 (default) lets the session's agent start children that start none; at most 3. */
  readonly maxDepth: number;
  /** Children of one response that run at once (default 3); the rest wait their turn. */
  readonly parallel: number;
  /** Model requests one child may make before it is stopped with what it has (default 25). */
  readonly maxTurns: number;
  /** Children one response may start (any agent's response) before the user is asked (default 10). */
  readonly perResponse: number;
  /** Children one turn (one user message) may start, at any depth, before the user is asked (default 20). */
  readonly perTurn: number;
  /** Model requests all of one turn's children may make together before the user is asked (default 200). */
  readonly requestsPerTurn: number;
}

export const DEFAULT_SUBAGENT_SETTINGS: SubagentSettings = {
  maxDepth: 1,
  parallel: 3,
  maxTurns: 25,
  perResponse: 10,
  perTurn: 20,
  requestsPerTurn: 200,
};

/** Each setting's range, as package.json states it (the settings reader holds values to it). */
export const SUBAGENT_LIMITS: { readonly [K in keyof SubagentSettings]: { readonly min: number; readonly max: number } } = {
  maxDepth: { min: 0, max: 3 },
  parallel: { min: 1, max: 8 },
  maxTurns: { min: 1, max: 100 },
  perResponse: { min: 1, max: 50 },
  perTurn: { min: 1, max: 100 },
  requestsPerTurn: { min: 1, max: 2000 },
};
