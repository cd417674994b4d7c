/**
 * What a `read` of a text file answers (spec 3.0.0's read and stub pins): the lines, with their bracket, or a
 * stub naming the earlier read that already shows them (`Unchanged since #id`), stored as the body a full read
 * would have shown; a binary or empty file's one line. Every full read enters the reads table the stubs come
 * from. (An image file's read: `imageAnswers.ts`.)
 */
import type { ReadFacts } from '../tools/outcome';
import { shortSha } from '../text/sha';
import type { Answer, StoredBody } from './answer';
import { referenceTo } from './bodyReference';
import type { ReadTable } from './readTable';
import type { ResultStore } from './types';

/**
 * The answer to a read of a text file. Undefined when the tool found a stub the table no longer holds (a
 * compaction while the call ran) and so kept no lines: the caller reads the file again.
 */
export async function textReadAnswer(
  id: string,
  read: { readonly facts: ReadFacts; readonly body?: readonly string[]; readonly stubOf?: string },
  reads: ReadTable,
  store: Pick<ResultStore, 'readLines'>,
  shaDigits: number,
): Promise<Answer | undefined> {
  const { facts, body, stubOf } = read;
  const sha = shortSha(facts.sha, shaDigits);
  const base = { isError: false, cappable: false };
  if (facts.binary) {
    reads.add({ id, path: facts.relative, sha: facts.sha, from: 1, to: 0, total: 0, binary: true });
    return {
      ...base,
      bracket: `[${id} ${facts.displayPath} binary, ${facts.size} bytes sha ${sha}]`,
      body: [],
      kind: 'full',
      stored: { lines: [] },
    };
  }
  if (facts.totalLines === 0) {
    reads.add({ id, path: facts.relative, sha: facts.sha, from: 1, to: 0, total: 0, binary: false });
    return { ...base, bracket: `[${id} ${facts.displayPath} empty sha ${sha}]`, body: [], kind: 'full', stored: { lines: [] } };
  }
  const bracket = `[${id} ${facts.displayPath} lines ${facts.from}-${facts.to} of ${facts.totalLines} sha ${sha}]`;
  if (stubOf) {
    const earlier = reads.findCovering(facts.relative, facts.sha, facts.from, facts.to);
    if (earlier && earlier.id === stubOf) {
      // The stub is stored as the body a full read would have shown. The earlier read's stored body already
      // holds those lines, so it is stored as a reference to them: no copy, whatever the window's size.
      const stored: StoredBody | undefined = body
        ? { lines: body }
        : await windowOf(store, earlier.id, facts.from - earlier.from + 1, facts.to - facts.from + 1);
      if (stored) {
        return {
          ...base,
          bracket,
          sentence: `Unchanged since ${earlier.id}, which already shows lines ${earlier.from}-${earlier.to}.`,
          body: [],
          kind: 'read-stub',
          stored,
          refersTo: [earlier.id],
        };
      }
    }
    if (!body) return undefined;
  }
  reads.add({ id, path: facts.relative, sha: facts.sha, from: facts.from, to: facts.to, total: facts.totalLines, binary: false });
  return { ...base, bracket, body: body ?? [], kind: 'full', stored: { lines: body ?? [] } };
}

/** Lines `offset`.. of a stored result as a reference to them (the lines the store has there), or undefined if it is gone. */
async function windowOf(store: Pick<ResultStore, 'readLines'>, id: string, offset: number, limit: number): Promise<StoredBody | undefined> {
  const slice = await store.readLines(id, offset, limit);
  return slice ? { ref: referenceTo(id, slice.from, slice.lines) } : undefined;
}
