import type { HygieneConfig } from '../config/hygiene';
import { cutLine } from '../text/lines';
import type { Workspace } from '../ports';
import type { GlobArgs, GrepArgs, ListArgs } from './args';
import { describeError } from './fileText';
import { errorOutcome, type ToolOutcome } from './outcome';

const NO_MATCHES = '(no matches)';
/** Files that could not be searched are named, up to this many (a locked-down tree could have thousands). */
const MAX_UNSEARCHED_SHOWN = 20;

export async function runList(args: ListArgs, workspace: Workspace): Promise<ToolOutcome> {
  const path = args.path ?? '.';
  const shown = path;
  try {
    const resolved = await workspace.resolve(path);
    // The root is '' once resolved; '.' says the same to any workspace without looking empty.
    const target = resolved.relative || '.';
    const stat = await workspace.stat(target);
    if (!stat) return errorOutcome(`${shown} does not exist. List its parent folder to see what is there.`);
    if (stat.kind !== 'directory') return errorOutcome(`${shown} is a file, not a folder. Use read to see its content.`);
    const entries = await workspace.listDir(target);
    const names = entries.map((e) => (e.kind === 'directory' ? `${e.name}/` : e.name)).sort(byCodeUnit);
    return { type: 'text', lines: names.length > 0 ? names : ['(empty folder)'] };
  } catch (error) {
    return errorOutcome(describeError(error, shown));
  }
}

export async function runGlob(args: GlobArgs, workspace: Workspace, signal?: AbortSignal): Promise<ToolOutcome> {
  try {
    const under = args.path === undefined ? undefined : (await workspace.resolve(args.path)).relative || undefined;
    if (under) {
      const stat = await workspace.stat(under);
      if (!stat) return errorOutcome(`${args.path} does not exist. Use list to find the folder.`);
    }
    const paths = [...(await workspace.glob(args.pattern, under, signal ? { signal } : {}))].sort(byCodeUnit);
    return { type: 'text', lines: paths.length > 0 ? paths : [NO_MATCHES] };
  } catch (error) {
    return errorOutcome(describeError(error, args.path ?? args.pattern));
  }
}

export async function runGrep(args: GrepArgs, workspace: Workspace, config: HygieneConfig, signal?: AbortSignal): Promise<ToolOutcome> {
  try {
    if (args.path !== undefined) {
      const resolved = await workspace.resolve(args.path);
      if (!(await workspace.stat(resolved.relative)))
        return errorOutcome(`${args.path} does not exist. Use list or glob to find the right path.`);
    }
    const unsearched = new Map<string, string>();
    const matches = await workspace.grep({
      pattern: args.pattern,
      ...(args.path !== undefined ? { path: args.path } : {}),
      ...(args.glob !== undefined ? { glob: args.glob } : {}),
      ...(args.ignore_case !== undefined ? { ignoreCase: args.ignore_case } : {}),
      onUnsearched: (path, reason) => unsearched.set(path, reason),
      ...(signal ? { signal } : {}),
    });
    // Sorted here too, so the answer (and its dedupe) does not depend on which search engine ran.
    const sorted = [...matches].sort((a, b) => (a.path === b.path ? a.line - b.line : byCodeUnit(a.path, b.path)));
    // A minified file can have one enormous matching line; the same cut as read keeps it readable.
    const lines = sorted.map((m) => `${m.path}:${m.line}: ${cutLine(m.text, config['read.max_line_chars'])}`);
    if (lines.length === 0) lines.push(NO_MATCHES);
    // "No matches" must not hide a file that was never searched.
    const skipped = [...unsearched].sort(([a], [b]) => byCodeUnit(a, b));
    for (const [path, reason] of skipped.slice(0, MAX_UNSEARCHED_SHOWN)) lines.push(`(not searched: ${path}: ${cutLine(reason, 200)})`);
    if (skipped.length > MAX_UNSEARCHED_SHOWN) lines.push(`(not searched: ${skipped.length - MAX_UNSEARCHED_SHOWN} more files)`);
    return { type: 'text', lines };
  } catch (error) {
    return errorOutcome(describeError(error, args.path ?? args.pattern));
  }
}

function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
