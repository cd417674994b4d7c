import { describe, expect, it } from 'vitest';
import { IdAllocator, seedFromString } from './ids';

describe('IdAllocator', () => {
  it('gives # and at least ids.digits lowercase hex digits, never all digits', () => {
    const ids = new IdAllocator({ digits: 4, seed: 1 });
    for (let i = 0; i < 500; i++) {
      const id = ids.next();
      expect(id).toMatch(/^#[0-9a-f]{4,}$/);
      expect(id.slice(1)).not.toMatch(/^[0-9]+$/);
    }
  });

  it('never gives an id twice, and grows the width when the space gets crowded', () => {
    const ids = new IdAllocator({ digits: 1, seed: 7 });
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const id = ids.next();
      expect(seen.has(id)).toBe(false);
      seen.add(id);
    }
    expect([...seen].some((id) => id.length > 3)).toBe(true);
  });

  it('is deterministic for a seed', () => {
    const a = new IdAllocator({ digits: 4, seed: seedFromString('case') });
    const b = new IdAllocator({ digits: 4, seed: seedFromString('case') });
    expect([a.next(), a.next(), a.next()]).toEqual([b.next(), b.next(), b.next()]);
  });

  it('continues after state and restore without repeating an id', () => {
    const a = new IdAllocator({ digits: 2, seed: 3 });
    const before = Array.from({ length: 30 }, () => a.next());
    const restored = IdAllocator.restore(JSON.parse(JSON.stringify(a.state())), 2);
    const after = Array.from({ length: 30 }, () => restored.next());
    expect(after.filter((id) => before.includes(id))).toEqual([]);
    // The same generator state gives the same continuation.
    expect(after[0]).toBe(a.next());
  });

  it('skips ids marked as used elsewhere', () => {
    const probe = new IdAllocator({ digits: 4, seed: 9 });
    const first = probe.next();
    const ids = new IdAllocator({ digits: 4, seed: 9 });
    ids.markUsed(first);
    expect(ids.next()).not.toBe(first);
    expect(ids.has(first)).toBe(true);
  });

  it('refuses a nonsensical width', () => {
    expect(() => new IdAllocator({ digits: 0 })).toThrow(/ids.digits/);
  });
});
