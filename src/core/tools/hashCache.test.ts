import { describe, expect, it } from 'vitest';
import { HashCache } from './hashCache';

const facts = { sha256: 'ab'.repeat(32), size: 10, mtimeMs: 1_000, lineCount: 3, binary: false };
const clockAt = (now: number) => ({ now: () => now });

describe('HashCache', () => {
  it('trusts an entry while size and mtime match', () => {
    const cache = new HashCache({ clock: clockAt(100_000) });
    cache.record('a.txt', facts);
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000 })?.sha256).toBe(facts.sha256);
  });

  it('forgets an entry when size or mtime moved', () => {
    const cache = new HashCache({ clock: clockAt(100_000) });
    cache.record('a.txt', facts);
    expect(cache.lookup('a.txt', { size: 11, mtimeMs: 1_000 })).toBeUndefined();
    cache.record('a.txt', facts);
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_001 })).toBeUndefined();
    // Forgotten for good: the old stat does not bring it back.
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000 })).toBeUndefined();
  });

  it('forgets an entry when the identity moved though size and mtime match (a replacement with the mtime put back)', () => {
    const cache = new HashCache({ clock: clockAt(100_000) });
    cache.record('a.txt', { ...facts, identity: '1:7:1000:1000' });
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000, identity: '1:7:1000:1000' })?.sha256).toBe(facts.sha256);
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000, identity: '1:8:1000:1000' })).toBeUndefined();
    // Forgotten for good, and an entry with an identity never matches a stat without one.
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000, identity: '1:7:1000:1000' })).toBeUndefined();
    cache.record('a.txt', { ...facts, identity: '1:7:1000:1000' });
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000 })).toBeUndefined();
  });

  it('does not trust a file whose ctime is racily close to when it was hashed, even with an old mtime', () => {
    const cache = new HashCache({ clock: clockAt(100_000), racyWindowMs: 3000 });
    cache.record('a.txt', { ...facts, identity: 'x', ctimeMs: 99_000 });
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000, identity: 'x' })).toBeUndefined();
    cache.record('a.txt', { ...facts, identity: 'x', ctimeMs: 50_000 });
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000, identity: 'x' })).toBeDefined();
  });

  it('does not trust a file hashed in the same moment it was written (racily clean)', () => {
    const cache = new HashCache({ clock: clockAt(1_500), racyWindowMs: 3000 });
    cache.record('a.txt', facts);
    expect(cache.lookup('a.txt', { size: 10, mtimeMs: 1_000 })).toBeUndefined();
  });

  it('invalidate and clear drop entries', () => {
    const cache = new HashCache({ clock: clockAt(100_000) });
    cache.record('a.txt', facts);
    cache.record('b.txt', facts);
    cache.invalidate('a.txt');
    expect(cache.lookup('a.txt', facts)).toBeUndefined();
    expect(cache.lookup('b.txt', facts)).toBeDefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new HashCache({ clock: clockAt(100_000), maxEntries: 2 });
    cache.record('a', facts);
    cache.record('b', facts);
    cache.record('c', facts);
    expect(cache.size).toBe(2);
    expect(cache.lookup('a', facts)).toBeUndefined();
    expect(cache.lookup('c', facts)).toBeDefined();
  });
});
