import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deepFreeze';

describe('deepFreeze', () => {
  it('freezes every object and array reachable from the value, in place', () => {
    const value = { a: [1, { b: 'x' }], c: { d: null } };
    expect(deepFreeze(value)).toBe(value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(value.a)).toBe(true);
    expect(Object.isFrozen(value.a[1])).toBe(true);
    expect(Object.isFrozen(value.c)).toBe(true);
  });

  it('returns primitives and null as they are', () => {
    expect(deepFreeze(3)).toBe(3);
    expect(deepFreeze(null)).toBe(null);
    expect(deepFreeze('s')).toBe('s');
  });

  it('does not walk into an object already frozen (taken as frozen all the way down)', () => {
    const inner = { e: 1 };
    const value = Object.freeze({ inner });
    deepFreeze(value);
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
