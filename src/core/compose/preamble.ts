import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_HYGIENE, type HygieneConfig } from '../config/hygiene';
import { ComposeError } from './errors';

/** The prompt files the preamble is made of, read from `src/prompts/` (shipped with the extension). */
export interface PromptTexts {
  /** `preamble.md`: who Cairn is, how to work, what it is given. */
  preamble: string;
  /** `context.md`: result ids, stubs, caps, recall, diffs (the context-hygiene rules). */
  context: string;
}

/** `src/prompts` under the extension's (or the repository's) root. */
export function promptsDir(root: string): string {
  return join(root, 'src', 'prompts');
}

export async function loadPromptTexts(dir: string): Promise<PromptTexts> {
  return { preamble: await readPrompt(dir, 'preamble.md'), context: await readPrompt(dir, 'context.md') };
}

async function readPrompt(dir: string, name: string): Promise<string> {
  try {
    return await readFile(join(dir, name), 'utf8');
  } catch (error) {
    throw new ComposeError(
      `Cannot read the prompt file ${join(dir, name)} (${(error as NodeJS.ErrnoException).code ?? String(error)}). ` +
        'It ships with Cairn; reinstall the extension or point Cairn at the folder that holds src/prompts.',
    );
  }
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

/** Reads the prompt files from `dir` and builds the preamble with the session's hygiene numbers. */
export async function loadPreamble(dir: string, hygiene: Readonly<HygieneConfig> = DEFAULT_HYGIENE): Promise<string> {
  return buildPreamble(await loadPromptTexts(dir), hygiene);
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
