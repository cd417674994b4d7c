/**
 * `@changes` (issue 34, item 14): git's uncommitted changes in a folder, as text for the model: the diff of the
 * working tree against the last commit (staged and unstaged alike), then the untracked files. git runs hardened
 * as everywhere in Cairn (`hardenedGit.ts`: no hooks, no fsmonitor, filter drivers emptied, no external diff;
 * here also no textconv), without Cairn's credentials, within a deadline, its output bounded. Never throws: a
 * folder that is not a repository, or a git that fails, is said in the text.
 */
import { GitFailedError, hardenedOverrides, READ_HARDENING, runGit } from '../core/checkpoints/node/hardenedGit';
import { commandEnvironment } from './workspace/commandRunner';

/** The empty tree's id: what a repository without a commit yet is compared with. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** Most untracked files named (the rest are counted). */
const MAX_UNTRACKED = 200;

export interface GitChangesOptions {
  readonly timeoutMs?: number;
  /** Most bytes of diff read (the ledger stores all of it and caps what the model sees). */
  readonly maxBytes?: number;
}

export async function uncommittedChanges(folder: string, options: GitChangesOptions = {}): Promise<string> {
  const base = {
    cwd: folder,
    env: commandEnvironment(process.env),
    deadline: Date.now() + (options.timeoutMs ?? 15_000),
    maxBytes: options.maxBytes ?? 16 * 1024 * 1024,
  };
  try {
    const overrides = await hardenedOverrides(base, READ_HARDENING);
    const run = { ...base, overrides };
    const inside = await runGit(run, ['rev-parse', '--is-inside-work-tree']).catch(() => undefined);
    if (inside?.toString('utf8').trim() !== 'true') return `No git repository at ${folder}: there are no uncommitted changes to show.`;
    const head = await runGit(run, ['rev-parse', '--verify', '--quiet', 'HEAD']).then(
      () => 'HEAD',
      () => EMPTY_TREE,
    );
    const diff = (await runGit(run, ['diff', '--no-ext-diff', '--no-textconv', '--no-color', head, '--'])).toString('utf8');
    const untracked = (await runGit(run, ['ls-files', '--others', '--exclude-standard', '-z']))
      .toString('utf8')
      .split('\0')
      .filter(Boolean);
    return changesText(diff, untracked, head === 'HEAD');
  } catch (error) {
    const why = error instanceof GitFailedError || error instanceof Error ? error.message : String(error);
    return `git could not list the uncommitted changes: ${why}.`;
  }
}

/** The diff, then the untracked files; what is compared with is said first. */
export function changesText(diff: string, untracked: readonly string[], hasCommit: boolean): string {
  if (diff.trim() === '' && untracked.length === 0) {
    return hasCommit
      ? 'No uncommitted changes: the working tree matches the last commit.'
      : 'No files yet: the repository has no commit and nothing to add.';
  }
  const parts = [
    hasCommit ? 'The working tree against the last commit (staged and unstaged):' : 'The repository has no commit yet: every file is new.',
  ];
  if (diff.trim() !== '') parts.push(diff.replace(/\n$/, ''));
  else parts.push('(no changes to tracked files)');
  if (untracked.length > 0) {
    const shown = untracked.slice(0, MAX_UNTRACKED);
    const more = untracked.length - shown.length;
    parts.push(`Untracked files:\n${shown.join('\n')}${more > 0 ? `\n… and ${more} more` : ''}`);
  }
  return parts.join('\n\n');
}
