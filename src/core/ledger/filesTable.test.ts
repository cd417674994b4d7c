import { describe, expect, it } from 'vitest';
import { renderFilesTable } from './filesTable';
import { ReadTable } from './readTable';

const sha = (c: string) => c.repeat(64);

describe('files table', () => {
  it('is empty without reads', () => {
    expect(renderFilesTable(new ReadTable().newestPerPath(50), 8)).toBe('');
  });

  it('renders the exact format with the newest read of each path, newest last', () => {
    const t = new ReadTable();
    t.add({ id: '#a001', path: 'src/app.ts', sha: sha('1'), from: 1, to: 200, total: 340, binary: false });
    t.add({ id: '#b002', path: 'notes.txt', sha: sha('e'), from: 1, to: 0, total: 0, binary: false });
    t.add({ id: '#c003', path: './src/x/../app.ts', sha: sha('2'), from: 1, to: 340, total: 340, binary: false });
    t.add({ id: '#d004', path: 'img.png', sha: sha('f'), from: 1, to: 0, total: 0, binary: true });
    expect(renderFilesTable(t.newestPerPath(50), 8)).toBe(
      [
        '## Files read before this summary',
        '',
        'Read a file again for its content; recall shows a result by its id.',
        '',
        '| Path | Lines | sha | Result |',
        '|---|---|---|---|',
        '| notes.txt | empty | eeeeeeee | #b002 |',
        '| src/app.ts | 1-340 of 340 | 22222222 | #c003 |',
        '| img.png | binary | ffffffff | #d004 |',
      ].join('\n'),
    );
  });

  it('keeps the newest rows when over the limit', () => {
    const t = new ReadTable();
    for (const [i, p] of ['a', 'b', 'c'].entries())
      t.add({ id: `#${i}aaa`, path: p, sha: sha('1'), from: 1, to: 1, total: 1, binary: false });
    expect(t.newestPerPath(2).map((e) => e.path)).toEqual(['b', 'c']);
  });

  it('escapes a | in a path', () => {
    const t = new ReadTable();
    t.add({ id: '#aaaa', path: 'a|b.txt', sha: sha('1'), from: 1, to: 1, total: 1, binary: false });
    expect(renderFilesTable(t.newestPerPath(5), 8)).toContain('| a\\|b.txt |');
  });
});

describe('ReadTable.findCovering', () => {
  it('names the newest full read with the same hash whose lines hold the range', () => {
    const t = new ReadTable();
    t.add({ id: '#0001', path: 'f', sha: sha('1'), from: 1, to: 10, total: 20, binary: false });
    t.add({ id: '#0002', path: 'f', sha: sha('1'), from: 5, to: 20, total: 20, binary: false });
    t.add({ id: '#0003', path: 'f', sha: sha('2'), from: 1, to: 20, total: 20, binary: false });
    expect(t.findCovering('f', sha('1'), 6, 8)?.id).toBe('#0002');
    expect(t.findCovering('./f', sha('1'), 1, 4)?.id).toBe('#0001');
    expect(t.findCovering('f', sha('1'), 4, 12)).toBeUndefined();
    expect(t.findCovering('g', sha('1'), 1, 1)).toBeUndefined();
  });
});

describe('ReadTable size', () => {
  it('drops older reads of the same content that a newer read wholly shows', () => {
    const t = new ReadTable();
    t.add({ id: '#0001', path: 'f', sha: sha('1'), from: 3, to: 5, total: 20, binary: false });
    t.add({ id: '#0002', path: 'f', sha: sha('1'), from: 10, to: 20, total: 20, binary: false });
    t.add({ id: '#0003', path: 'f', sha: sha('2'), from: 1, to: 20, total: 20, binary: false });
    t.add({ id: '#0004', path: 'f', sha: sha('1'), from: 1, to: 10, total: 20, binary: false });
    expect(t.state().map((e) => e.id)).toEqual(['#0002', '#0003', '#0004']);
  });
});
