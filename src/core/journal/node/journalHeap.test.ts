import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SessionJournal } from './sessionJournal';
import { buildTestChild, scratchRoot } from '../../../../test/support/journal/crashChild';

/**
 * "A session with gigabytes of output keeps a small heap": a reader whose heap is capped far below the
 * session's stored output reopens it and reads every result back. Keeping bodies in memory would make it
 * run out of heap and fail.
 */

const RESULTS = 24;
const LINES_PER_RESULT = 100_000; // ~4 MB each, ~100 MB in all
const HEAP_MB = 48;

let work: string;

beforeAll(async () => {
  work = await fs.mkdtemp(join(await scratchRoot(), 'cairn-heap-'));
});

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

it(`a reader with a ${HEAP_MB} MB heap reads back ${RESULTS} results of ~4 MB each`, async () => {
  const script = await buildTestChild('heapReader', work);
  const dir = join(work, 'sessions');
  const journal = await SessionJournal.create(dir, { workspace: work, model: 'm', sessionId: 'big' });
  const line = `${'output '.repeat(11)}end`;
  for (let i = 0; i < RESULTS; i++) {
    const id = `#${(0x1000 + i).toString(16)}`;
    const body = `${i}\n${line}\n`.repeat(LINES_PER_RESULT / 2);
    await journal.put({ id, tool: 'bash', input: { command: `make ${i}` }, bracket: `[${id}]`, body, kind: 'capped' });
  }
  await journal.close();
  expect((await fs.stat(journal.path)).size).toBeGreaterThan(HEAP_MB * 2 * 1024 * 1024);

  const { stdout } = await promisify(execFile)(process.execPath, [`--max-old-space-size=${HEAP_MB}`, script, dir, 'big'], {
    encoding: 'utf8',
  });
  expect(stdout.trim()).toBe(`ok ${RESULTS} ${RESULTS * LINES_PER_RESULT}`);
}, 120_000);
