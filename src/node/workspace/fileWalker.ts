import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import { GitignoreStack } from './gitignoreRules';

/**
 * The files under `start` (relative to the root, `''` for the root) that a search should see,
 * as paths relative to the root, `/`-separated, in no particular order.
 *
 * What is left out, and why:
 * - `.git` folders at any depth: git's own store, never the user's files.
 * - entries ignored by `.gitignore` files from the root down (see `GitignoreStack`); an ignored
 *   folder is not entered, so a rule inside it cannot bring a file back, as in git.
 * - symbolic links: not followed and not listed, so a walk cannot loop or leave the root, and
 *   glob and grep agree (ripgrep does not follow links either).
 * - sockets, FIFOs and devices: reading a FIFO would block forever.
 *
 * `start` itself is always walked, even when ignored: asking for `dist` means wanting `dist`. In
 * that case the rules of the folders above it are dropped, since they would hide everything in it.
 */
export async function* walkFiles(absoluteRoot: string, start: string): AsyncGenerator<string> {
  const stat = await fs.stat(nodePath.join(absoluteRoot, start)).catch(() => undefined);
  if (!stat) return;
  if (stat.isFile()) {
    yield start;
    return;
  }
  if (!stat.isDirectory()) return;

  let rules = GitignoreStack.empty;
  const segments = start === '' ? [] : start.split('/');
  for (let depth = 0; depth < segments.length; depth++) {
    rules = await rules.enter(absoluteRoot, segments.slice(0, depth).join('/'));
  }
  if (start !== '' && isUnderIgnored(rules, segments)) rules = GitignoreStack.empty;
  yield* walkFolder(absoluteRoot, start, rules);
}

function isUnderIgnored(rules: GitignoreStack, segments: readonly string[]): boolean {
  for (let depth = 1; depth <= segments.length; depth++) {
    if (rules.ignores(segments.slice(0, depth).join('/'), true)) return true;
  }
  return false;
}

async function* walkFolder(absoluteRoot: string, folder: string, parentRules: GitignoreStack): AsyncGenerator<string> {
  const rules = await parentRules.enter(absoluteRoot, folder);
  const entries = await fs.readdir(nodePath.join(absoluteRoot, folder), { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const relative = folder === '' ? entry.name : `${folder}/${entry.name}`;
    if (entry.isDirectory()) {
      if (entry.name === '.git' || rules.ignores(relative, true)) continue;
      yield* walkFolder(absoluteRoot, relative, rules);
    } else if (entry.isFile()) {
      if (!rules.ignores(relative, false)) yield relative;
    }
  }
}
