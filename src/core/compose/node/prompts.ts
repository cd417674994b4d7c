import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_HYGIENE, type HygieneConfig } from '../../config/hygiene';
import { ComposeError } from '../errors';
import { buildPreamble, type PromptTexts } from '../preamble';

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

/** Reads the prompt files from `dir` and builds the preamble with the session's hygiene numbers. */
export async function loadPreamble(dir: string, hygiene: Readonly<HygieneConfig> = DEFAULT_HYGIENE): Promise<string> {
  return buildPreamble(await loadPromptTexts(dir), hygiene);
}

/** The summary prompts compaction sends (`compaction.md`, `compaction-emergency.md`). */
export async function loadCompactionPrompts(dir: string): Promise<{ readonly normal: string; readonly emergency: string }> {
  return { normal: await readPrompt(dir, 'compaction.md'), emergency: await readPrompt(dir, 'compaction-emergency.md') };
}

/** The sub-agents' part of the preamble (`subagent.md`, see `childPreamble`). */
export function loadSubagentPrompt(dir: string): Promise<string> {
  return readPrompt(dir, 'subagent.md');
}
