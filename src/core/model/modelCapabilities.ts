/**
 * What a model accepts for thinking and effort: the Models API's `capabilities` when the server gives them
 * (read as untrusted input, field by field), else what Anthropic documents for the model's family by its id.
 * `core/model/thinking.ts` turns `cairn.thinking` and `cairn.effort` into request fields from this.
 */
import { EFFORTS, type Effort, type ModelCapabilities } from './types';

/** The Models API's `capabilities` (any server's), or null when it gives none Cairn can read. */
export function capabilitiesOf(raw: unknown): ModelCapabilities | null {
  if (!isRecord(raw)) return null;
  const thinking = raw.thinking;
  const types = isRecord(thinking) ? thinking.types : undefined;
  if (!isRecord(thinking) || !isRecord(types)) return null;
  const supported = (value: unknown): boolean => isRecord(value) && value.supported === true;
  const effort = isRecord(raw.effort) && raw.effort.supported === true ? raw.effort : undefined;
  return {
    thinking: {
      enabled: thinking.supported === true && supported(types.enabled),
      adaptive: thinking.supported === true && supported(types.adaptive),
    },
    effort: effort ? EFFORTS.filter((level) => supported(effort[level])) : [],
    // Whether it takes images (`core/images/vision.ts`), when the server says.
    ...(isRecord(raw.image_input) && typeof raw.image_input.supported === 'boolean' ? { imageInput: raw.image_input.supported } : {}),
  };
}

/**
 * What Anthropic documents by family when the server does not say: Claude 4.7 and later (and the 5 line,
 * Mythos, Fable) think only adaptively and reject a budget; 4.6 takes both; 4.5 and earlier take only a
 * budget. Effort from 4.5 on, at the levels every such model takes (xhigh and max only where the Models
 * API says so). Any other id (a model on Ollama, vLLM…) gets a budget, the form compatible servers read.
 */
export function documentedCapabilities(modelId: string): ModelCapabilities {
  const alias = modelId.replace(/^(?:[a-z]{2}\.)?anthropic\./, '').replace(/-v\d+(?::\d+)?$/, '');
  const match = /^claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d{1,2}))?(?:-|$)/.exec(alias);
  const safeEffort: Effort[] = ['low', 'medium', 'high'];
  if (/^claude-(fable|mythos)-/.test(alias)) return { thinking: { enabled: false, adaptive: true }, effort: safeEffort };
  if (!match) return { thinking: { enabled: true, adaptive: false }, effort: [] };
  const version = Number(match[2]) + Number(match[3] ?? 0) / 10;
  if (version >= 4.7) return { thinking: { enabled: false, adaptive: true }, effort: safeEffort };
  if (version >= 4.6) return { thinking: { enabled: true, adaptive: true }, effort: safeEffort };
  if (version >= 4.5 && match[1] === 'opus') return { thinking: { enabled: true, adaptive: false }, effort: safeEffort };
  return { thinking: { enabled: true, adaptive: false }, effort: [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
