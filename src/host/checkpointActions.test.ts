import { describe, expect, it } from 'vitest';
import { parseWebviewMessage, ProtocolError } from '../shared/protocol';
import { describeOutcome, sessionChanges } from './checkpointActions';
import { restoreActionText, turnChangesOf } from './checkpointView';
import type { RestoreItem } from '../core/checkpoints/restorePlan';
import type { Checkpoint } from '../core/checkpoints/types';

const sha = 'a'.repeat(64);
const cp = (id: number, files: Checkpoint['files']): Checkpoint => ({
  id: `cp-${id}`,
  turn: { generation: 0, index: id },
  label: `turn ${id}`,
  at: id,
  closed: true,
  files,
});

describe('the chat’s and the Changes list’s view of checkpoints', () => {
  it('names each file’s change and lines, and lists every file the session changed with its first content', () => {
    const first = cp(1, [
      { path: 'new.ts', before: { kind: 'absent' }, after: { kind: 'content', sha, size: 3 }, source: 'tool', added: 3, removed: 0 },
      { path: 'gone.ts', before: { kind: 'content', sha, size: 3 }, after: { kind: 'absent' }, source: 'command', added: 0, removed: 3 },
      { path: 'big.bin', before: { kind: 'unknown', reason: 'over 5 MB: not kept' }, source: 'command' },
    ]);
    const second = cp(2, [
      { path: 'new.ts', before: { kind: 'content', sha, size: 3 }, after: { kind: 'content', sha, size: 4 }, source: 'tool' },
    ]);
    expect(turnChangesOf(first).files.map((f) => [f.path, f.change, f.added])).toEqual([
      ['new.ts', 'created', 3],
      ['gone.ts', 'deleted', 0],
      ['big.bin', 'not_restorable', undefined],
    ]);
    const changes = sessionChanges([first, second]);
    expect(changes.map((c) => [c.path, c.turns.length, c.first.kind])).toEqual([
      ['big.bin', 1, 'unknown'],
      ['gone.ts', 1, 'content'],
      ['new.ts', 2, 'absent'],
    ]);
  });

  it('accepts the webview’s checkpoint messages only well formed', () => {
    expect(parseWebviewMessage({ type: 'restoreToTurn', turn: 3 })).toEqual({ type: 'restoreToTurn', turn: 3 });
    expect(parseWebviewMessage({ type: 'openChange', checkpointId: 'cp-2', path: 'src/a.ts' })).toEqual({
      type: 'openChange',
      checkpointId: 'cp-2',
      path: 'src/a.ts',
    });
    expect(parseWebviewMessage({ type: 'restoreToTurn', turn: -1 })).toBeInstanceOf(ProtocolError);
    expect(parseWebviewMessage({ type: 'openChange', checkpointId: '../x', path: 'a' })).toBeInstanceOf(ProtocolError);
    expect(parseWebviewMessage({ type: 'openChange', checkpointId: 'cp-1', path: '' })).toBeInstanceOf(ProtocolError);
  });
});

describe('a restore in words', () => {
  const file = { kind: 'content', sha, size: 3 } as const;
  const item = (path: string, over: Partial<RestoreItem>): RestoreItem => ({ path, action: 'restore', target: file, seen: file, ...over });

  it('names links as links and a mode change as one', () => {
    expect(restoreActionText(item('a', { seen: { kind: 'link', target: 'b.txt' } }))).toBe(
      "replace the link to b.txt with its earlier content (the link's target is left alone)",
    );
    expect(restoreActionText(item('l', { action: 'recreate', target: { kind: 'link', target: 't' }, seen: { kind: 'absent' } }))).toBe(
      'recreate the link to t',
    );
    expect(restoreActionText(item('l', { action: 'delete', target: { kind: 'absent' }, seen: { kind: 'link', target: '/x' } }))).toBe(
      'remove the link (the turn made it)',
    );
    expect(restoreActionText(item('s', { target: { ...file, executable: true }, seen: { ...file, executable: false } }))).toBe(
      'make it executable again',
    );
    expect(restoreActionText(item('p', { seen: { kind: 'content', sha: 'c'.repeat(64), size: 1 } }))).toBe('restore its earlier content');
  });

  it('says which files were left and why', () => {
    const text = describeOutcome(
      'turn',
      {
        restored: [item('b', {})],
        kept: [],
        notRestorable: [],
        changed: [item('a', { conflict: 'You changed it after the preview' })],
        unkept: [{ item: item('big', {}), reason: 'Cairn could not keep your current version (ENOSPC), so it did not write over it.' }],
        failed: [{ item: item('d/x', {}), reason: 'd is a symbolic link now.' }],
      },
      { conversation: false, previewAgain: true },
    );
    expect(text).toContain('Restored 1 file to before “turn”: b.');
    expect(text).toContain('You changed a after the preview, so Cairn did not write over it; the preview opens again');
    expect(text).toContain('Not restored: big. Cairn could not keep your current version (ENOSPC)');
    expect(text).toContain('Not restored: d/x. d is a symbolic link now.');
  });
});
