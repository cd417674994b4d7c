/**
 * `cairn.thinking` and `cairn.effort` as request fields, for the model at hand (its capabilities from the Models
 * API, else as documented for its family: `modelCapabilities.ts`). The loop asks once per run and keeps the answer
 * for every request of that run: a tool-use loop is one assistant turn, and the API wants one thinking
 * configuration per turn (a change of setting takes effect at the next message the user sends).
 */
import type { Effort, ModelCapabilities, ModelRequest, ThinkingConfig } from './types';

/** `"off"` (no `thinking` field: the model's default), `"auto"` (adaptive where the model has it, else a budget), or a budget in tokens. */
export type ThinkingSetting = 'off' | 'auto' | number;
/** `"auto"` sends no effort (the model's default, `high`); a level is sent to models that take it. */
export type EffortSetting = 'auto' | Effort;

/** The API's floor for `budget_tokens`. */
export const MIN_THINKING_BUDGET = 1024;

export interface ThinkingFields {
  readonly thinking?: ThinkingConfig;
  readonly output_config?: NonNullable<ModelRequest['output_config']>;
  /** What was not sent as set, and why, in words for the user (empty when everything went as set). */
  readonly notes: readonly string[];
}

/**
 * The fields for one run. A budget must be at least 1,024 tokens and below `max_tokens` (thinking counts
 * toward it): a larger one is lowered to `maxTokens − 1`, a `max_tokens` too small for any budget sends none.
 * `"auto"` on a model without adaptive thinking gives half of `max_tokens` to thinking, so the answer keeps the other half.
 */
export function thinkingFields(
  setting: ThinkingSetting,
  effort: EffortSetting,
  capabilities: ModelCapabilities,
  model: string,
  maxTokens: number,
): ThinkingFields {
  const notes: string[] = [];
  const thinking = thinkingConfig(setting, capabilities, model, maxTokens, notes);
  let output_config: ThinkingFields['output_config'];
  if (effort !== 'auto') {
    if (capabilities.effort.includes(effort)) output_config = { effort };
    else
      notes.push(
        capabilities.effort.length === 0
          ? `${model} takes no effort setting; cairn.effort "${effort}" is not sent.`
          : `${model} takes effort ${capabilities.effort.join(', ')}, not "${effort}"; cairn.effort is not sent.`,
      );
  }
  return { ...(thinking ? { thinking } : {}), ...(output_config ? { output_config } : {}), notes };
}

function thinkingConfig(
  setting: ThinkingSetting,
  capabilities: ModelCapabilities,
  model: string,
  maxTokens: number,
  notes: string[],
): ThinkingConfig | undefined {
  if (setting === 'off') return undefined;
  const { enabled, adaptive } = capabilities.thinking;
  if (!enabled && !adaptive) {
    notes.push(`${model} does not think, as its server describes it; cairn.thinking is not sent.`);
    return undefined;
  }
  if (setting === 'auto' && adaptive) return { type: 'adaptive' };
  if (!enabled) {
    notes.push(
      `${model} decides how much to think itself (adaptive thinking) and takes no budget; cairn.thinking ${setting} is sent as "auto".`,
    );
    return { type: 'adaptive' };
  }
  const wanted = setting === 'auto' ? Math.floor(maxTokens / 2) : setting;
  const budget = Math.min(wanted, maxTokens - 1);
  if (budget < MIN_THINKING_BUDGET) {
    notes.push(
      `A thinking budget needs at least ${MIN_THINKING_BUDGET} tokens below max_tokens (${maxTokens} here); thinking is off. Raise cairn.maxTokens to think.`,
    );
    return undefined;
  }
  if (budget < wanted) notes.push(`cairn.thinking ${wanted} is not below max_tokens (${maxTokens}); the budget sent is ${budget}.`);
  return { type: 'enabled', budget_tokens: budget };
}
