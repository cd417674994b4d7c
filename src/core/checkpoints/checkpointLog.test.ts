import { describe, expect, it } from 'vitest';
import type { LoadedRecord } from '../journal/records';
import { checkpointsFromRecords } from './checkpointLog';

const sha = 'b'.repeat(64);
const record = (seq: number, checkpoint: unknown): LoadedRecord => ({ type: 'checkpoint', seq, at: seq, checkpoint });
const checkpoint = (id: string, files: unknown[]) => ({ id, turn: { generation: 0, index: 0 }, label: 'turn', at: 1, closed: true, files });

describe('checkpointsFromRecords', () => {
  it('reads records written before links and the executable bit were kept, and records that keep them', () => {
    const old = checkpoint('cp-1', [
      { path: 'a.txt', before: { kind: 'content', sha, size: 3 }, after: { kind: 'absent' }, source: 'tool' },
    ]);
    const current = checkpoint('cp-2', [
      { path: 'run.sh', before: { kind: 'content', sha, size: 3, executable: true }, after: { kind: 'absent' }, source: 'command' },
      { path: 'link', before: { kind: 'link', target: '../dangling' }, after: { kind: 'absent' }, source: 'command' },
    ]);
    const loaded = checkpointsFromRecords([record(1, old), record(2, current)]);
    expect(loaded.map((c) => c.id)).toEqual(['cp-1', 'cp-2']);
    expect(loaded[0]!.files[0]!.before).toEqual({ kind: 'content', sha, size: 3 });
    expect(loaded[1]!.files.map((f) => f.before)).toEqual([
      { kind: 'content', sha, size: 3, executable: true },
      { kind: 'link', target: '../dangling' },
    ]);
  });

  it('skips a record whose link or executable bit is damaged', () => {
    const damaged = [
      { path: 'l', before: { kind: 'link' }, source: 'tool' },
      { path: 'l', before: { kind: 'link', target: '' }, source: 'tool' },
      { path: 'l', before: { kind: 'link', target: 'a\0b' }, source: 'tool' },
      { path: 'x', before: { kind: 'content', sha, size: 1, executable: 'yes' }, source: 'tool' },
    ];
    const loaded = checkpointsFromRecords(damaged.map((file, i) => record(i + 1, checkpoint(`cp-${i + 1}`, [file]))));
    expect(loaded).toEqual([]);
  });
});
