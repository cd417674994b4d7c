import type { SubagentKind } from '../subagentTypes';

const DUTY = {
  explore: 'find things out. Read, list, glob, grep and recall; you cannot change files or run commands.',
  general:
    'carry out the task with every tool, under the same approvals as the main agent: the user is asked before edits and commands as usual.',
} as const;

/**
 * The child's preamble: the session's own (same rules of the workspace, same hygiene numbers) followed by
 * `src/prompts/subagent.md` with the child's duty and bounds filled in. The child's id is not in it: children of
 * one kind then send the same prefix, so each one after the first reads the cache the first wrote.
 */
export function childPreamble(
  sessionPreamble: string,
  subagentPrompt: string,
  kind: SubagentKind,
  maxTurns: number,
  mayDelegate: boolean,
): string {
  const bounds = mayDelegate
    ? 'You may hand parts of the task to sub-agents of your own (the task tool), as the main agent handed it to you.'
    : 'You cannot start sub-agents of your own.';
  const values: Record<string, string> = { duty: DUTY[kind], bounds, max_turns: String(maxTurns) };
  const section = subagentPrompt
    .replace(/\r\n/g, '\n')
    .trim()
    .replace(/\[\[(\w+)\]\]/g, (whole, name: string) => values[name] ?? whole);
  return `${sessionPreamble}\n\n${section}`;
}
