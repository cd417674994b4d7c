/**
 * What the search thread does with a request (`searchWorker.ts` is its entry; `searchThreads.ts`
 * sends the requests). Everything whose cost a pattern or a repository decides runs here, off the
 * editor's thread: compiling the pattern, the walk with its `.gitignore` matching, glob matching,
 * grep's `glob` filter and the JavaScript grep engine. Answers go back as they are found, in batches.
 */
import type { GrepMatch } from '../../core/ports';
import { walkFiles } from './fileWalker';
import { globPathMatcher, grepGlobFilter } from './globMatcher';
import { compileGrepPattern } from './grepPattern';
import { streamJavascriptGrep } from './javascriptGrep';
import type { GlobRequest, GrepRequest, ProgressReply, SearchRequest } from './searchProtocol';

/** Paths sent at a time: a listing of a million files never waits here all at once. */
const PATH_BATCH = 1000;

export type Reply = (reply: ProgressReply) => void;

export function runSearchJob(request: SearchRequest, reply: Reply): Promise<void> {
  return request.kind === 'glob' ? globJob(request, reply) : grepJob(request, reply);
}

async function globJob(request: GlobRequest, reply: Reply): Promise<void> {
  const matches = globPathMatcher(request.pattern, request.start);
  let batch: string[] = [];
  for await (const file of walkFiles(request.root, request.start)) {
    if (!matches(file)) continue;
    batch.push(file);
    if (batch.length >= PATH_BATCH) {
      reply({ kind: 'paths', paths: batch });
      batch = [];
    }
  }
  if (batch.length > 0) reply({ kind: 'paths', paths: batch });
}

async function grepJob(request: GrepRequest, reply: Reply): Promise<void> {
  // In this order, as grep always checked: the pattern, then the path (refused on the other side,
  // so a bad pattern is still the error named first), then the glob filter.
  const pattern = compileGrepPattern(request.pattern, request.ignoreCase);
  if (request.start === null) return;
  const files = request.files ?? (await listFiles(request.root, request.start, request.glob));
  if (request.engine === 'ripgrep') {
    reply({ kind: 'files', files, pattern: { rust: pattern.rust, ignoreCase: pattern.ignoreCase, literal: pattern.literal } });
    return;
  }
  await streamJavascriptGrep(request.realRoot, files, pattern, {
    matches: (batch: readonly GrepMatch[]) =>
      reply({ kind: 'matches', path: (batch[0] as GrepMatch).path, lines: batch.map((m) => m.line), texts: batch.map((m) => m.text) }),
    unsearched: (path, reason) => reply({ kind: 'unsearched', path, reason }),
  });
}

async function listFiles(root: string, start: string, glob: string | null): Promise<string[]> {
  const keep = glob ? grepGlobFilter(glob) : () => true;
  const files: string[] = [];
  for await (const file of walkFiles(root, start)) if (keep(file)) files.push(file);
  return files;
}
