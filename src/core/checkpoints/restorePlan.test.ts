import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CurrentFile } from './ports';
import { planRestore, UnknownCheckpointError } from './restorePlan';
import type { Checkpoint, FileState } from './types';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const shaOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const content = (text: string): FileState => ({ kind: 'content', sha: sha(text), size: Buffer.byteLength(text) });
const absent: FileState = { kind: 'absent' };

function checkpoint(id: number, files: Array<[string, FileState, FileState | undefined]>, closed = true): Checkpoint {
  return {
    id: `cp-${id}`,
    turn: { generation: 0, index: id * 2 },
    label: `turn ${id}`,
    at: id,
    closed,
    files: files.map(([path, before, after]) => ({ path, before, ...(after ? { after } : {}), source: 'tool' as const })),
  };
}

function disk(files: Record<string, string>): (path: string) => Promise<CurrentFile> {
  return async (path) => (path in files ? { kind: 'content', bytes: Buffer.from(files[path]!) } : { kind: 'absent' });
}

describe('planRestore', () => {
  it('takes each file back to before the earliest undone turn, comparing with what the last turn left', async () => {
    const checkpoints = [
      checkpoint(1, [['a', content('a0'), content('a1')]]),
      checkpoint(2, [
        ['a', content('a1'), content('a2')],
        ['b', absent, content('b2')],
      ]),
    ];
    const plan = await planRestore({ checkpoints, checkpointId: 'cp-1', read: disk({ a: 'a2', b: 'b2' }), shaOf });
    expect(plan.undoes).toEqual(['cp-1', 'cp-2']);
    expect(plan.items).toEqual([
      { path: 'a', action: 'restore', target: content('a0'), seen: content('a2') },
      { path: 'b', action: 'delete', target: absent, seen: content('b2') },
    ]);
  });

  it('marks a file the user changed between two turns as a conflict, even when the last turn left it as it is', async () => {
    const checkpoints = [checkpoint(1, [['a', content('a0'), content('a1')]]), checkpoint(2, [['a', content('user'), content('a2')]])];
    const plan = await planRestore({ checkpoints, checkpointId: 'cp-1', read: disk({ a: 'a2' }), shaOf });
    expect(plan.items[0]!.conflict).toMatch(/after “turn 1” and before a later turn/);
  });

  it('marks an unfinished turn (a crash) as a conflict, names unknown earlier content as not restorable, and skips files already back', async () => {
    const checkpoints = [
      checkpoint(
        1,
        [
          ['a', content('a0'), undefined],
          ['big', { kind: 'unknown', reason: 'over 5 MB: not kept' }, undefined],
          ['same', content('s0'), undefined],
        ],
        false,
      ),
    ];
    const plan = await planRestore({ checkpoints, checkpointId: 'cp-1', read: disk({ a: 'a1', big: 'x', same: 's0' }), shaOf });
    expect(plan.items.map((i) => [i.path, i.action, i.conflict !== undefined])).toEqual([
      ['a', 'restore', true],
      ['big', 'not_restorable', false],
      ['same', 'unchanged', false],
    ]);
  });

  it('refuses a checkpoint the session does not have', async () => {
    await expect(planRestore({ checkpoints: [], checkpointId: 'cp-9', read: disk({}), shaOf })).rejects.toBeInstanceOf(
      UnknownCheckpointError,
    );
  });
});
