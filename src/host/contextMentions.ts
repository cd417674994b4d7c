/**
 * The editor's context a message names (issue 34, item 14): `@problems`, `@terminal`, `@changes`. Which names a
 * message holds, and the text each becomes, written here from what the editor reports; the editor's side
 * (`editorContextSources.ts`) reads it. The names win over a file or folder of the same name (write
 * `@./changes` for that one). The ledger gives each an id, stores it and caps it (`core/agent/mentions.ts`).
 */
import { CONTEXT_MENTIONS, type ContextMention, type ContextMentionName } from '../core/agent/mentions';
import { sanitizeTerminalText } from '../core/text/terminalText';

export const CONTEXT_MENTION_NAMES = Object.keys(CONTEXT_MENTIONS).sort() as ContextMentionName[];

/**
 * A name not after a word character or `@` (an email address), and not going on as a path (`@changes.md`,
 * `@problems/x`, `@terminal:12`): then it is a file mention, or prose.
 */
const NAMED = /(?<![\w@])@(problems|terminal|changes)(?![\w/-]|\.\w|:\d)/g;

/** The context names a message holds, each once, in the order first written. */
export function contextMentionsIn(text: string): ContextMentionName[] {
  const names: ContextMentionName[] = [];
  for (const match of text.matchAll(NAMED)) {
    const name = match[1] as ContextMentionName;
    if (!names.includes(name)) names.push(name);
  }
  return names;
}

/** Whether a file mention's path is one of the names (then the name wins; `@./name` names the file). */
export function isContextMentionName(path: string): boolean {
  return (CONTEXT_MENTION_NAMES as readonly string[]).includes(path);
}

/** What `@` completes: the names that contain the query first, then the files. */
export function withContextMentionCandidates(query: string, files: readonly string[]): string[] {
  const wanted = query.toLowerCase();
  return [...CONTEXT_MENTION_NAMES.filter((name) => name.includes(wanted)), ...files];
}

/** Reads the editor's context for a name; never throws: a failure is the text, saying why. */
export type ContextMentionSource = (name: ContextMentionName) => Promise<string>;

/** The mentions a message's names become, each read now (a failure is said in its text). */
export async function gatherContextMentions(text: string, source: ContextMentionSource | undefined): Promise<ContextMention[]> {
  if (!source) return [];
  const gathered: ContextMention[] = [];
  for (const context of contextMentionsIn(text)) {
    const read = await source(context).catch(
      (error: unknown) => `@${context} could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
    gathered.push({ context, text: read });
  }
  return gathered;
}

// ---------------------------------------------------------------------------------------------------
// @problems

export interface ProblemView {
  /** Workspace-relative, as the tools name files. */
  readonly path: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly severity: 'error' | 'warning' | 'info' | 'hint';
  readonly message: string;
  readonly source?: string;
  readonly code?: string;
}

const SEVERITY_ORDER = { error: 0, warning: 1, info: 2, hint: 3 } as const;

/** One line per problem, errors first, then by file and place; a count first. */
export function problemsText(problems: readonly ProblemView[]): string {
  if (problems.length === 0) return 'No problems: the editor reports no errors or warnings in the workspace.';
  const sorted = [...problems].sort(
    (a, b) =>
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column,
  );
  const count = (severity: ProblemView['severity']) => problems.filter((p) => p.severity === severity).length;
  const files = new Set(problems.map((p) => p.path)).size;
  const counts = (['error', 'warning', 'info', 'hint'] as const)
    .map((severity) => [count(severity), severity] as const)
    .filter(([n]) => n > 0)
    .map(([n, severity]) => `${n} ${severity}${n === 1 ? '' : 's'}`)
    .join(', ');
  const lines = sorted.map((p) => {
    const origin = [p.source, p.code].filter((part) => part !== undefined && part !== '').join(' ');
    // One line each: a message's own line breaks would read as other problems.
    const message = p.message.replace(/\s*\n\s*/g, ' ');
    return `${p.path}:${p.line}:${p.column} ${p.severity}: ${message}${origin ? ` (${origin})` : ''}`;
  });
  return [`${counts} in ${files} file${files === 1 ? '' : 's'}:`, ...lines].join('\n');
}

// ---------------------------------------------------------------------------------------------------
// @terminal

export interface TerminalCommandView {
  readonly commandLine: string;
  /** What it wrote, raw (escapes and all); cleaned here. */
  readonly output: string;
  /** Absent while it runs; undefined when the shell did not say. */
  readonly ended?: { readonly exitCode: number | undefined };
  /** Output was dropped from its start to keep it bounded. */
  readonly cutAtStart?: boolean;
}

/** The terminal's last command, its output made plain text (escapes removed, `\r` shown), and how it ended. */
export function terminalText(terminal: string, last: TerminalCommandView | undefined, why?: string): string {
  if (!last) {
    return `No command output from the terminal "${terminal}" that Cairn could read: ${why ?? 'no command has finished in it since Cairn started'}.`;
  }
  const ending = !last.ended
    ? 'still running; its output so far:'
    : last.ended.exitCode === undefined
      ? 'ended (the shell did not report its exit code):'
      : `ended with exit code ${last.ended.exitCode}:`;
  const output = sanitizeTerminalText(last.output).replace(/\n$/, '');
  return [
    `Terminal "${terminal}": $ ${sanitizeTerminalText(last.commandLine)}`,
    `The command ${ending}`,
    ...(last.cutAtStart ? ['[the start of its output is not kept]'] : []),
    output === '' ? '(no output)' : output,
  ].join('\n');
}
