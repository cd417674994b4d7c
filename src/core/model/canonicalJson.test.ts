import { describe, expect, it } from 'vitest';
import { canonicalRequestJson } from './canonicalJson';

/**
 * The encoding as first written (a sorted copy of each object through a replacer): journals and
 * logged hashes were made with it, so the fast path must give the same bytes, quirks included
 * (index-like keys come first in numeric order, an own `__proto__` member is dropped).
 */
function reference(value: unknown): string {
  return (
    JSON.stringify(value, (_key, v: unknown) => {
      if (v === null || typeof v !== 'object' || Array.isArray(v)) return v;
      const record = v as Record<string, unknown>;
      const sorted: Record<string, unknown> = {};
      for (const key of Object.keys(record).sort()) sorted[key] = record[key];
      return sorted;
    }) ?? 'null'
  );
}

describe('canonicalRequestJson', () => {
  it('writes flat and nested values as JSON.stringify with sorted keys does', () => {
    const nullProto = Object.assign(Object.create(null) as object, { b: 1, a: 'x' });
    const values: unknown[] = [
      { type: 'tool_result', tool_use_id: 'toolu_1', content: 'line "one"\n\ttab \u2028 \ud83d\ude42 \u0000' },
      { z: 1, a: -0, m: NaN, n: Infinity, t: true, f: false, u: undefined, nul: null, e: '' },
      { 10: 'ten', 9: 'nine', b: 'b', A: 'A', é: 'e', '': 'empty' },
      JSON.parse('{"__proto__":"own","b":1}'),
      nullProto,
      { only: undefined },
      {},
      { type: 'tool_use', id: 't', name: 'read', input: { path: 'a', range: { to: 3, from: 1 } } },
      { list: [3, { y: 1, x: 2 }, null], when: new Date(0) },
      { big: 1e21, small: 1e-7 },
      [{ b: 1, a: 2 }],
      'text',
      42,
      null,
    ];
    for (const value of values) expect(canonicalRequestJson(value)).toBe(reference(value));
  });
});
