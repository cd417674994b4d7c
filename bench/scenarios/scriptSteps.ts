/**
 * Helpers the scenario builders (`build-*.ts`) write their sessions with: one function per tool call the
 * way the scenario format spells it (`src/node/scenario/types.ts`), so a builder reads as the session it
 * scripts. Nothing here decides what a session does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sourceRoot, type BenchSource } from '../economy/benchSources';

export interface ToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export type Turn =
  /** `idle`: seconds the user was away before sending it (`idlePattern.ts` writes them). */
  | { readonly user: string; readonly idle?: number }
  | {
      readonly assistant: { readonly text?: string; readonly tool_calls?: readonly ToolCall[]; readonly agent?: string };
      readonly 'x-needs'?: readonly string[];
    };

export const bash = (command: string): ToolCall => ({ name: 'bash', input: { command } });
export const read = (path: string, offset?: number, limit?: number): ToolCall => ({
  name: 'read',
  input: { path, ...(offset !== undefined ? { offset } : {}), ...(limit !== undefined ? { limit } : {}) },
});
export const grep = (pattern: string, path: string): ToolCall => ({ name: 'grep', input: { pattern, path } });
export const edit = (path: string, oldString: string, newString: string): ToolCall => ({
  name: 'edit',
  input: { path, old_string: oldString, new_string: newString },
});
export const write = (path: string, content: string): ToolCall => ({ name: 'write', input: { path, content } });
export const recall = (id: string, offset: number, limit: number): ToolCall => ({ name: 'recall', input: { id, offset, limit } });

/** One assistant step: optional text, the calls it makes, and what the model must have seen before it. */
export function step(text: string | undefined, calls: readonly ToolCall[], needs?: readonly string[]): Turn {
  return {
    assistant: { ...(text ? { text } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}) },
    ...(needs && needs.length > 0 ? { 'x-needs': needs } : {}),
  };
}
export const say = (text: string, needs?: readonly string[]): Turn => step(text, [], needs);
/** A `task` call: a child agent (`explore` reads only, `general` has every tool) does `prompt` and answers. */
export const task = (description: string, prompt: string, kind: 'explore' | 'general'): ToolCall => ({
  name: 'task',
  input: { description, prompt, kind },
});
/** One step of a child agent's own script (answered to requests Cairn sends with `x-cairn-agent: <agent>`). */
export function childStep(agent: string, text: string | undefined, calls: readonly ToolCall[]): Turn {
  return { assistant: { ...(text ? { text } : {}), ...(calls.length > 0 ? { tool_calls: calls } : {}), agent } };
}
export const user = (text: string): Turn => ({ user: text });

export const REPO_ROOT = resolve(__dirname, '..', '..');

/** A file of an installed package, to take an edit's exact old text from (the build fails if it is gone). */
export function packageFile(path: string): string {
  return readFileSync(join(REPO_ROOT, 'node_modules', path), 'utf8');
}

/**
 * A file of a pinned `x-bench-source` (fetched into the bench's cache on first use), to take an edit's exact
 * old text from: the build fails if the file is gone.
 */
export async function sourceFile(source: BenchSource, path: string): Promise<string> {
  return readFileSync(join(await sourceRoot(source), path), 'utf8');
}

/** The exact text between two markers of a file (start included, end excluded); throws when either is missing. */
export function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  const to = from < 0 ? -1 : text.indexOf(end, from);
  if (from < 0 || to < 0) throw new Error(`Cannot find ${JSON.stringify(start)} … ${JSON.stringify(end)}: has the package changed?`);
  return text.slice(from, to);
}

/** Writes the scenario as the checked-in JSON, with its request count checked. */
export function writeScenario(name: string, scenario: Record<string, unknown> & { turns: readonly Turn[] }, minRequests: number): void {
  const requests = scenario.turns.filter((t) => 'assistant' in t).length;
  if (requests < minRequests) throw new Error(`${name}: ${requests} requests, fewer than ${minRequests}.`);
  writeFileSync(join(__dirname, `${name}.json`), `${JSON.stringify(scenario, null, 1)}\n`);
  process.stdout.write(`${name}.json: ${requests} requests, ${scenario.turns.length} turns\n`);
}
