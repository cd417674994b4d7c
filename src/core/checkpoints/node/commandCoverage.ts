import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { pathWordsOf } from '../commandWords';
import { hardenedOverrides, runGit } from './hardenedGit';

/** What `notKeptNote` needs of the observer that asks. */
export interface CoverageContext {
  readonly root: string;
  /** The commands' environment, with the shadow repository's `GIT_DIR` outside git. */
  readonly env: NodeJS.ProcessEnv;
  /** The size over which a file is not kept (5 MB). */
  readonly maxBytes: number;
  /** A folder outside git (snapshotted with Cairn's own repository). */
  readonly shadow: boolean;
  /** Why the last snapshot gave up, if it did. */
  readonly lastFailure: string | undefined;
  readonly trusted: () => boolean;
}

/** How long the note may take before the approval shows without it. */
const NOTE_TIMEOUT_MS = 2000;

/** Folders of the system a command reads or runs from; naming them as "outside the workspace" would be noise. */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib64', '/etc', '/opt', '/proc', '/sys', '/dev', '/nix'];

/**
 * The note shown before a command's approval (issue 34, item 5): what the command may touch that its
 * checkpoint will not keep, so a user approves a deletion knowing it cannot be undone. It names the
 * command's words that are existing paths outside the workspace, files over the size bound, and paths git
 * ignores (a folder outside git: its `.gitignore` files and the dependency folders left out), and says when
 * the last snapshot gave up (a folder past the bounds). A rough reading of the command (`commandWords.ts`):
 * a path built at run time (`$DIR/x`, `*.log`) is not named; the README states the general bounds.
 */
export async function notKeptNote(command: string, context: CoverageContext): Promise<string | undefined> {
  if (!context.trusted()) return undefined;
  const notes: string[] = [];
  if (context.lastFailure !== undefined) {
    notes.push(`Cairn could not keep the last command's changes (${context.lastFailure}); this one may not be kept either.`);
  }
  const named: string[] = [];
  const inside: Array<{ readonly word: string; readonly relative: string }> = [];
  // A folder is asked about with its slash: `node_modules/` patterns match folders only.
  for (const word of pathWordsOf(command)) {
    const absolute = absolutePathOf(word, context);
    if (absolute === undefined) continue;
    const stat = await fs.lstat(absolute).catch(() => undefined);
    if (!stat) continue;
    const relative = nodePath.relative(context.root, absolute);
    if (relative === '') continue;
    if (relative.startsWith('..') || nodePath.isAbsolute(relative)) {
      if (!SYSTEM_FOLDERS.some((folder) => absolute === folder || absolute.startsWith(`${folder}/`)))
        named.push(`${word} (outside the workspace)`);
    } else if (stat.isFile() && stat.size > context.maxBytes) {
      named.push(`${word} (over ${Math.round(context.maxBytes / 1024 / 1024)} MB)`);
    } else {
      inside.push({ word, relative: relative.split(nodePath.sep).join('/') + (stat.isDirectory() ? '/' : '') });
    }
  }
  for (const ignored of await ignoredOf(inside, context)) {
    named.push(`${ignored} (${context.shadow ? 'left out: a dependency folder or in a .gitignore' : 'ignored by git'})`);
  }
  if (named.length > 0) notes.push(`Not kept if this command changes or deletes them: ${named.join(', ')}.`);
  return notes.length > 0 ? notes.join(' ') : undefined;
}

function absolutePathOf(word: string, context: CoverageContext): string | undefined {
  if (word === '~' || word.startsWith('~/')) {
    const home = context.env['HOME'];
    return home ? nodePath.join(home, word.slice(1)) : undefined;
  }
  if (word.startsWith('~')) return undefined;
  return nodePath.resolve(context.root, word);
}

/** The words whose paths git ignores (`git check-ignore`, the same rules the snapshots follow). */
async function ignoredOf(paths: ReadonlyArray<{ word: string; relative: string }>, context: CoverageContext): Promise<string[]> {
  if (paths.length === 0) return [];
  const base = { cwd: context.root, env: context.env, deadline: Date.now() + NOTE_TIMEOUT_MS };
  try {
    const overrides = await hardenedOverrides(base);
    const input = Buffer.from(paths.map((p) => p.relative).join('\0') + '\0');
    const out = await runGit({ ...base, overrides }, ['check-ignore', '-z', '--stdin'], input);
    const ignored = new Set(out.toString('utf8').split('\0'));
    return paths.filter((p) => ignored.has(p.relative)).map((p) => p.word);
  } catch {
    // Exit 1: nothing is ignored (or git could not say; the general bounds still hold).
    return [];
  }
}
