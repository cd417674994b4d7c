/**
 * The budgets: every `cairn.*` setting that bounds what Cairn may do or spend without asking (requests per
 * run, tokens per answer, how large a request grows before compaction, how many sub-agents, how deep, how
 * many requests each and all of a turn's make). A repository's `.vscode/settings.json` must not raise them,
 * so each is read from the user's settings only (`USER_ONLY_SETTINGS`), has the `application` scope in
 * package.json, and has a maximum there and here (a user value above it is held to it, and the user told).
 *
 * Not budgets, so a workspace may still set them: `cairn.model` (a project's choice; it is shown on every
 * request), the elision knobs and `cairn.commandOutput` (how Cairn stays under the compaction threshold,
 * not how far it may go), `cairn.compaction.fallbackModel` / `fallbackAfterMinutes` (which model writes a
 * summary). `cairn.prices` was one until issue 32: the spending caps are counted in it, so it is user-only
 * now (`USER_ONLY_SETTINGS`), like the caps themselves (`spendingCapSettings.ts`).
 */
import { DEFAULT_LOOP_SETTINGS } from '../core/agent/agentLoop';
import { DEFAULT_SUBAGENT_SETTINGS, SUBAGENT_LIMITS, type SubagentSettings } from '../core/subagentTypes';

export interface IntegerBudget {
  readonly min: number;
  readonly max: number;
  readonly fallback: number;
}

const subagent = (key: keyof SubagentSettings): IntegerBudget => ({
  ...SUBAGENT_LIMITS[key],
  fallback: DEFAULT_SUBAGENT_SETTINGS[key],
});

/** The whole-number budgets by key under `cairn.`, with the range package.json gives them. */
export const INTEGER_BUDGETS = {
  maxTurns: { min: 1, max: 500, fallback: DEFAULT_LOOP_SETTINGS.maxTurns },
  /** The largest max_tokens any Claude model takes; a model that takes less gets less (`effectiveMaxTokens`). */
  maxTokens: { min: 1, max: 128_000, fallback: DEFAULT_LOOP_SETTINGS.maxTokens },
  'subagents.maxDepth': subagent('maxDepth'),
  'subagents.parallel': subagent('parallel'),
  'subagents.maxTurns': subagent('maxTurns'),
  'subagents.perResponse': subagent('perResponse'),
  'subagents.perTurn': subagent('perTurn'),
  'subagents.requestsPerTurn': subagent('requestsPerTurn'),
} as const satisfies Record<string, IntegerBudget>;

/** `cairn.compaction.threshold` as a token count: no window is larger (a share fits any window). */
export const MAX_THRESHOLD_TOKENS = 1_000_000;

/** Every budget's key under `cairn.`. */
export const BUDGET_SETTINGS: readonly string[] = [...Object.keys(INTEGER_BUDGETS), 'compaction.threshold'];

/**
 * A whole-number budget: unset gives the default; a value above the maximum is held to the maximum (what
 * the user asked for, as far as Cairn allows it); anything else gives the default. Both are reported.
 */
export function integerBudget(value: unknown, key: keyof typeof INTEGER_BUDGETS, problems: string[]): number {
  const { min, max, fallback } = INTEGER_BUDGETS[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value === 'number' && Number.isInteger(value) && value >= min) {
    if (value <= max) return value;
    problems.push(`cairn.${key} is ${value}; at most ${max} are allowed, so Cairn uses ${max}.`);
    return max;
  }
  problems.push(`cairn.${key} must be a whole number from ${min} to ${max}; using ${fallback}.`);
  return fallback;
}
