import type { ModelClient } from '../model/types';

/**
 * The `max_tokens` a main request really sends: the setting, lowered to what the model can produce (a
 * larger max_tokens is a 400 from the provider). Compaction's hard fit reserves room for exactly this
 * answer, so the loop and the compactor ask this one function.
 */
/** The model's input window from its facts, or undefined when they cannot be had (the request still goes). */
export async function knownWindowTokens(model: Pick<ModelClient, 'modelFacts'>, modelId: string): Promise<number | undefined> {
  try {
    return (await model.modelFacts(modelId)).maxInputTokens;
  } catch {
    return undefined;
  }
}

export async function effectiveMaxTokens(model: Pick<ModelClient, 'modelFacts'>, modelId: string, setting: number): Promise<number> {
  try {
    const facts = await model.modelFacts(modelId);
    return Math.max(1, Math.min(setting, facts.maxOutputTokens));
  } catch {
    // Facts unavailable (offline, unknown model): the setting, as before; the request itself will say.
    return setting;
  }
}
