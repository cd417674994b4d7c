import { describe, expect, it } from 'vitest';
import { sortedKeysJson } from './sortedKeysJson';

describe('sortedKeysJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(sortedKeysJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[2,{"y":2,"z":1}]},"b":1}');
  });
});
