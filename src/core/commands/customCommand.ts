/**
 * A custom slash command: a Markdown file the user wrote (`.cairn/commands/review.md` → `/review`), in
 * Claude Code's format. Its body, with `$ARGUMENTS` and `$1…$9` filled from what follows `/name`, is the
 * user's message. Frontmatter may say `description` and `argument-hint`; anything else it says (Claude
 * Code's `allowed-tools`, `model`) is read and ignored: a command file grants no approval and changes no setting.
 */
import { parseFrontmatter } from '../skills/frontmatter';

export type CommandScope = 'workspace' | 'user';

export interface CustomCommand {
  /** Without the slash: the file's name without `.md`; a sub-folder joins with `:` (`git/commit.md` → `git:commit`). */
  readonly name: string;
  readonly description: string;
  readonly argumentHint?: string;
  /** Where it was found, as the user knows it (`.claude/commands/review.md`, `~/.cairn/commands/x.md`). */
  readonly file: string;
  readonly scope: CommandScope;
  /** The text after the frontmatter, before expansion. */
  readonly body: string;
}

export interface CommandProblem {
  readonly file: string;
  readonly problem: string;
}

/**
 * Most characters a command may expand to. A body of 256 KiB (the file bound) with a thousand
 * `$ARGUMENTS` and a long argument would be hundreds of megabytes; past this the command is refused
 * with a message saying so, nothing is sent.
 */
export const COMMAND_EXPANSION_MAX_CHARS = 200_000;

export class CommandExpansionError extends Error {
  override readonly name = 'CommandExpansionError';
}

/** A file name (without `.md`) that is a command name: the chat's slash rule, `:` joins sub-folders. */
export const COMMAND_NAME = /^[A-Za-z][\w.-]{0,63}(?::[A-Za-z][\w.-]{0,63})*$/;

export function parseCommandFile(
  text: string,
  where: { readonly name: string; readonly file: string; readonly scope: CommandScope },
): { readonly ok: true; readonly command: CustomCommand } | { readonly ok: false; readonly problem: CommandProblem } {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  let body = normalized;
  let description: string | undefined;
  let argumentHint: string | undefined;
  if (normalized.startsWith('---\n')) {
    const parsed = parseFrontmatter(normalized);
    if (!parsed.ok) return { ok: false, problem: { file: where.file, problem: parsed.problem.replace('SKILL.md', 'A command file') } };
    body = parsed.body;
    const said = parsed.fields.get('description');
    if (typeof said === 'string' && said.trim()) description = said.trim();
    const hint = parsed.fields.get('argument-hint');
    if (typeof hint === 'string' && hint.trim()) argumentHint = hint.trim();
  }
  if (!body.trim())
    return {
      ok: false,
      problem: { file: where.file, problem: 'The command file has no text after its frontmatter: write the prompt it sends.' },
    };
  return {
    ok: true,
    command: {
      name: where.name,
      // Claude Code's fallback: the body's first line stands for a command that says nothing of itself.
      description: (description ?? firstLine(body)).slice(0, 200),
      ...(argumentHint ? { argumentHint: argumentHint.slice(0, 100) } : {}),
      file: where.file,
      scope: where.scope,
      body,
    },
  };
}

/**
 * The command's text with its arguments: `$ARGUMENTS` is everything after the name, `$1`…`$9` its
 * whitespace-separated words (a "quoted phrase" is one word; a missing one is empty). A body that uses
 * none of them gets the arguments appended after a blank line, so `/review src/app.ts` is never silently
 * dropped (Claude Code's behaviour). Refused past `COMMAND_EXPANSION_MAX_CHARS`.
 */
export function expandCommand(command: Pick<CustomCommand, 'name' | 'body'>, args: string): string {
  const words = splitArguments(args);
  const placeholder = /\$ARGUMENTS|\$([1-9])/g;
  const uses = placeholder.test(command.body);
  placeholder.lastIndex = 0;
  let size = 0;
  const expanded = uses
    ? command.body.replace(placeholder, (whole: string, digit: string | undefined) => {
        const value = digit ? (words[Number(digit) - 1] ?? '') : args;
        size += value.length;
        if (size + command.body.length > COMMAND_EXPANSION_MAX_CHARS) throw tooLong(command.name);
        return value;
      })
    : args
      ? `${command.body.replace(/\s+$/, '')}\n\n${args}`
      : command.body;
  if (expanded.length > COMMAND_EXPANSION_MAX_CHARS) throw tooLong(command.name);
  return expanded.trim();
}

function tooLong(name: string): CommandExpansionError {
  return new CommandExpansionError(
    `/${name} would expand to more than ${COMMAND_EXPANSION_MAX_CHARS.toLocaleString('en-US')} characters (its file repeats $ARGUMENTS or $1…$9 ` +
      'too often for the text you gave). Nothing was sent: shorten what you typed after the name, or use the placeholders fewer times in the command file.',
  );
}

/** Words as a shell would split them for `$1…$9`: whitespace apart, "double" or 'single' quotes keep a phrase whole. */
export function splitArguments(args: string): string[] {
  const words: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of args.matchAll(pattern)) words.push(match[1] ?? match[2] ?? match[3] ?? '');
  return words;
}

function firstLine(body: string): string {
  const line = body.split('\n').find((l) => l.trim()) ?? '';
  return line.replace(/^#+\s*/, '').trim();
}
