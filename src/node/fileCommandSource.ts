import { promises as fs, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { COMMAND_NAME, parseCommandFile, type CommandProblem, type CommandScope, type CustomCommand } from '../core/commands/customCommand';
import type { CommandDiscovery, CommandSource } from '../core/commands/ports';
import { sourceFolders, type MarkdownSourceOptions } from './markdownSourceFolders';
import { readConfined } from './workspace/confinedRead';
import { PathResolver } from './workspace/pathResolver';
import { WorkspaceFileError, WorkspacePathError } from './workspace/workspaceErrors';

/** Where custom commands live under a workspace folder, in this order (Cairn's own, then Claude Code's). */
export const WORKSPACE_COMMAND_FOLDERS = ['.cairn/commands', '.claude/commands'] as const;
/** Where the user's own commands live, under the home folder. */
export const USER_COMMAND_FOLDERS = ['.cairn/commands', '.claude/commands'] as const;

/** Most bytes of a command file read: a prompt is a few kilobytes; past this it is a problem, not a command. */
export const COMMAND_FILE_MAX_BYTES = 256 * 1024;
/** Most files looked at per folder (a folder of thousands is a mistake, and discovery runs at each `/`). */
const FILES_PER_FOLDER = 500;
/** How deep sub-folders are followed (`git/commit.md` is `/git:commit`). */
const MAX_DEPTH = 3;

/** Workspace commands are the repository's text and load only in a trusted workspace. */
export type FileCommandSourceOptions = MarkdownSourceOptions;

interface Located {
  readonly confinement: PathResolver;
  /** The file's path relative to the confinement's root. */
  readonly path: string;
  readonly name: string;
  readonly file: string;
  readonly scope: CommandScope;
}

/**
 * Custom slash commands on disk: `*.md` under each workspace folder's `.cairn/commands` and
 * `.claude/commands` (trusted workspace only), then `~/.cairn/commands` and `~/.claude/commands`. The
 * first of a name wins, so the workspace wins a clash. Files are read as skills are (`readConfined`): a
 * workspace command must really be inside its workspace folder, a user command inside its folder; only
 * regular files, at most `COMMAND_FILE_MAX_BYTES`.
 */
export class FileCommandSource implements CommandSource {
  constructor(private readonly options: FileCommandSourceOptions) {}

  async discover(): Promise<CommandDiscovery> {
    const found = new Map<string, CustomCommand>();
    const problems: CommandProblem[] = [];
    for (const located of await this.locate()) {
      if (found.has(located.name.toLowerCase())) continue;
      let text: string;
      try {
        text = (await readConfined(located.confinement, located.path, { maxBytes: COMMAND_FILE_MAX_BYTES })).toString('utf8');
      } catch (error) {
        problems.push({ file: located.file, problem: problemOf(error) });
        continue;
      }
      const parsed = parseCommandFile(text, located);
      if (!parsed.ok) problems.push(parsed.problem);
      else found.set(located.name.toLowerCase(), parsed.command);
    }
    const commands = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { commands, problems };
  }

  private async locate(): Promise<Located[]> {
    const out: Located[] = [];
    for (const source of sourceFolders(this.options, { workspace: WORKSPACE_COMMAND_FOLDERS, user: USER_COMMAND_FOLDERS })) {
      // A workspace command must be inside its workspace folder, a user command inside its commands folder.
      const confinement = new PathResolver(source.scope === 'workspace' ? source.root : source.dir);
      for (const relative of await markdownFiles(source.dir)) {
        out.push({
          confinement,
          path: source.scope === 'workspace' ? `${source.folder}/${relative}` : relative,
          file: `${source.display}/${relative}`,
          name: nameOf(relative),
          scope: source.scope,
        });
      }
    }
    return out.filter((l) => COMMAND_NAME.test(l.name));
  }
}

/** `git/commit.md` → `git:commit`. */
function nameOf(relative: string): string {
  return relative.replace(/\.md$/i, '').split('/').join(':');
}

/** `*.md` files under `dir` (relative, `/`-separated, sorted), sub-folders to `MAX_DEPTH`; [] when there is no folder. */
async function markdownFiles(dir: string, prefix = '', depth = 0): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1)).slice(0, FILES_PER_FOLDER)) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && depth < MAX_DEPTH) out.push(...(await markdownFiles(dir, relative, depth + 1)));
    else if (/\.md$/i.test(entry.name) && (entry.isFile() || entry.isSymbolicLink())) out.push(relative);
  }
  return out;
}

function problemOf(error: unknown): string {
  if (error instanceof WorkspacePathError) {
    return 'The command file leads outside its folder (through a symbolic link); command files are read only where they are. Put the file itself there.';
  }
  if (error instanceof WorkspaceFileError) {
    if (error.code === 'EFBIG') return `The command file is over ${COMMAND_FILE_MAX_BYTES / 1024} KiB; a command is a prompt. Shorten it.`;
    if (error.code === 'EINVAL') return 'The command file is not a regular file (a pipe, socket or device). Replace it with a file.';
    return `The command file cannot be read (${error.code}): ${error.message}`;
  }
  return `The command file cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}
