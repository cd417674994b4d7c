import { documentedCapabilities } from '../model/modelCapabilities';
import { thinkingFields, type EffortSetting, type ThinkingFields, type ThinkingSetting } from '../model/thinking';
import type { ModelClient } from '../model/types';

/**
 * The thinking fields of one run, for the model's capabilities as its server describes them (the Models API), else
 * as documented for its family; facts that cannot be had (offline) fall back to the documented ones too.
 */
export async function runThinkingFields(
  model: Pick<ModelClient, 'modelFacts'>,
  settings: { readonly model: string; readonly thinking?: ThinkingSetting; readonly effort?: EffortSetting },
  maxTokens: number,
): Promise<ThinkingFields> {
  const thinking = settings.thinking ?? 'off';
  const effort = settings.effort ?? 'auto';
  if (thinking === 'off' && effort === 'auto') return { notes: [] };
  let capabilities = documentedCapabilities(settings.model);
  try {
    capabilities = (await model.modelFacts(settings.model)).capabilities ?? capabilities;
  } catch {
    // The documented capabilities stand; the request itself will say if they were wrong.
  }
  return thinkingFields(thinking, effort, capabilities, settings.model, maxTokens);
}
