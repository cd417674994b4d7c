import { describe, expect, it } from 'vitest';
import { MemoryResultStore } from '../../../test/support/ledger/memoryResultStore';
import { SearchTable } from './searchTable';

describe('SearchTable', () => {
  it('names the earliest full result with the same text for the same call', () => {
    const t = new SearchTable();
    const key = SearchTable.keyOf('grep', { pattern: 'x', path: 'src' });
    expect(SearchTable.keyOf('grep', { path: 'src', pattern: 'x' })).toBe(key);
    expect(SearchTable.keyOf('glob', { path: 'src', pattern: 'x' })).not.toBe(key);
    t.add(key, { id: '#aaaa', sha: 's1' });
    t.add(key, { id: '#bbbb', sha: 's2' });
    expect(t.findSame(key, 's1')?.id).toBe('#aaaa');
    expect(t.findSame(key, 's2')?.id).toBe('#bbbb');
    expect(t.findSame(key, 's3')).toBeUndefined();
    const copy = new SearchTable(JSON.parse(JSON.stringify(t.state())));
    expect(copy.findSame(key, 's2')?.id).toBe('#bbbb');
    t.clear();
    expect(t.findSame(key, 's1')).toBeUndefined();
  });
});

describe('MemoryResultStore', () => {
  it('reads a stored body by line range and lists ids in order', async () => {
    const store = new MemoryResultStore();
    await store.put({ id: '#a1b2', tool: 'bash', input: {}, bracket: '[#a1b2]', body: 'l1\nl2\nl3', kind: 'full' });
    await store.put({ id: '#c3d4', tool: 'read', input: {}, bracket: '[#c3d4 e empty sha e3b0c442]', body: '', kind: 'full' });
    expect(await store.readLines('#a1b2', 2, 5)).toEqual({ id: '#a1b2', from: 2, to: 3, total: 3, lines: ['l2', 'l3'] });
    expect(await store.readLines('#a1b2', 9, 5)).toEqual({ id: '#a1b2', from: 9, to: 8, total: 3, lines: [] });
    expect(await store.readLines('#c3d4', 1, 5)).toMatchObject({ total: 0, lines: [] });
    expect(await store.readLines('#ffff', 1, 5)).toBeUndefined();
    expect(store.ids()).toEqual(['#a1b2', '#c3d4']);
    await expect(store.put({ id: '#a1b2', tool: 'x', input: {}, bracket: '', body: '', kind: 'full' })).rejects.toThrow(/never reused/);
  });
});
