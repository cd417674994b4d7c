import { DEFAULT_HYGIENE, type HygieneConfig } from '../config/hygiene';
import { ComposeError } from './errors';

/** The prompt files the preamble is made of, read from `src/prompts/` (shipped with the extension) by `loadPromptTexts` (`src/node/prompts.ts`). */
export interface PromptTexts {
  /** `preamble.md`: who Cairn is, how to work, what it is given. */
  preamble: string;
  /** `context.md`: result ids, stubs, caps, recall, diffs (the context-hygiene rules). */
  context: string;
}

/**
 * The preamble, built once per session: the preamble text, then the context rules. Pure and
 * deterministic (no clock, no random value), so the cached prefix it starts stays byte-stable.
 * Line endings are normalised so a checkout with CRLF files yields the same bytes.
 */
export function buildPreamble(texts: PromptTexts, hygiene: Readonly<HygieneConfig> = DEFAULT_HYGIENE): string {
  const parts = [texts.preamble, texts.context].map((text) => fillNumbers(text.replace(/\r\n/g, '\n').trim(), hygiene)).filter(Boolean);
  return parts.join('\n\n');
}

/**
 * `{{cap.max_lines}}` and the like become the session's hygiene numbers, so the rules the model is told
 * are the ones the ledger applies, whatever a configuration changed. Numbers of five digits and more are
 * grouped (40,000), as the prompt writes them.
 */
function fillNumbers(text: string, hygiene: Readonly<HygieneConfig>): string {
  return text.replace(/\{\{([\w.]+)\}\}/g, (_, name: string) => {
    const value = (hygiene as unknown as Record<string, unknown>)[name];
    if (typeof value !== 'number') {
      throw new ComposeError(
        `The prompt names {{${name}}}, which is not a number of the hygiene settings (${Object.keys(hygiene).join(', ')}). Fix the prompt file.`,
      );
    }
    return value >= 10_000 ? value.toLocaleString('en-US') : String(value);
  });
}
