import { describe, expect, it } from 'vitest';
import { parseWebviewMessage, ProtocolError } from '../shared/protocol';
import { sessionChanges } from './checkpointActions';
import { turnChangesOf } from './checkpointView';
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
