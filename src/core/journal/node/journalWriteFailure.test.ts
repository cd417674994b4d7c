import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SessionJournal } from './sessionJournal';
import { buildTestChild } from '../../../../test/support/journal/crashChild';

/**
 * A write the file system refuses part-way (here `ulimit -f`, as a full disk would) must not leave half
 * a record behind: the append fails with JournalWriteError, the file is cut back to its last whole
 * record, and the session reopens with every acknowledged result and no torn tail.
 */

let work: string;

beforeAll(async () => {
  work = await fs.mkdtemp(join(tmpdir(), 'cairn-efbig-'));
});

afterAll(async () => {
  await fs.rm(work, { recursive: true, force: true });
});

it('a refused write is taken back whole, and the session reopens with every acknowledged result', async () => {
  const script = await buildTestChild('fileLimitWriter', work);
  const dir = join(work, 'sessions');
  // 64 KiB: the limit falls inside some ~6 KB record.
  const { stdout } = await promisify(execFile)('bash', ['-c', 'ulimit -f 64 && exec "$0" "$1" "$2"', process.execPath, script, dir], {
    encoding: 'utf8',
  });
  const lines = stdout.trim().split('\n');
  const acked = lines.filter((l) => l.startsWith('acked')).length;
  const failures = lines.filter((l) => l.startsWith('failed'));
  expect(lines.find((l) => l.startsWith('error'))).toBeUndefined();
  expect(acked).toBeGreaterThan(3);
  expect(failures).toHaveLength(2);
  for (const failure of failures) {
    const [, name, onDisk, known] = failure.split(' ');
    expect(name).toBe('JournalWriteError');
    expect(onDisk).toBe(known); // cut back to the last whole record
  }

  const opened = await SessionJournal.open(dir, 'limited');
  try {
    expect(opened.corruption).toBeUndefined();
    expect(opened.tornTail).toBeUndefined();
    expect(opened.journal.ids()).toHaveLength(acked);
    const last = opened.journal.ids()[acked - 1]!;
    expect((await opened.journal.readLines(last, 1, 1))?.lines[0]).toBe(`${acked - 1} `.repeat(3000));
  } finally {
    await opened.journal.close();
  }
});
