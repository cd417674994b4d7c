'use strict';
// walk against a brute-force search of the tree (every object with a `type` under any key): both must find
// the same nodes, in source order, on generated programs using every construct the table lists.
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const acorn = require('../vendor/acorn/acorn.js');
const { walk } = require('../src/walk.js');

const PIECES = [
  'label: for (let i = 0; i < n; i++) { if (i % 2) continue label; else break label; }',
  'for (const k in obj) while (k) do { k--; } while (k > 1);',
  'switch (x) { case 1: y = x ? a : b; break; default: throw new Error(`no ${x}`); }',
  'try { debugger; } catch { ; } finally { void 0; }',
  'class A extends B { static #p = 1; static { this.q = A.#p; } get v() { return super.v ?? this?.w; } }',
  'const { a, b: [c, ...d] = [], ...e } = f, g = async function* h() { yield* await i; };',
  'export default (x = 1, ...y) => ({ x, [y]: typeof y, ...z });',
  'import def, * as ns from "./mod.js" with { type: "json" };',
  'export { def as other } from "./mod.js"; export * as all from "./all.js";',
  'import("./lazy.js").then((m) => import.meta.url + m.default);',
  'tag`a${b}c`; new.target; (a, b); a ||= b &&= c ??= d; (-x) ** 2;',
  'const re = /a+(?<n>b)\\k<n>/gu, big = 10n, s = "\\u{1F600}";',
];
const programOf = (seed) => Array.from({ length: 4 + (seed % 5) }, (_, i) => PIECES[(seed * 7 + i * 5) % PIECES.length]).join('\n');
const wrap = (source) => `async function outer() {\n${source.replace(/new\.target; /, '')}\n}\nfunction withTarget() { return new.target; }`;
function bruteForce(node, out = []) {
  if (!node || typeof node !== 'object') return out;
  if (Array.isArray(node)) { for (const item of node) bruteForce(item, out); return out; }
  if (typeof node.type === 'string') out.push(node);
  for (const [key, value] of Object.entries(node)) if (key !== 'loc' && key !== 'regex') bruteForce(value, out);
  return out;
}
const SEEDS = Array.from({ length: 40 }, (_, seed) => seed);

describe('walk', () => {
  for (const seed of SEEDS) {
    it(`visits every node once, parents first, seed ${seed}`, () => {
      const source = programOf(seed);
      const ast = acorn.parse(/import|export/.test(source) ? source.replace(/new\.target; /, '') : wrap(source), { ecmaVersion: 'latest', sourceType: 'module' });
      const seen = [];
      walk(ast, { enter: (node, ancestors) => { seen.push(node); if (ancestors.length) assert.ok(ancestors.at(-1).start <= node.start); } });
      assert.equal(new Set(seen).size, seen.length);
      assert.deepEqual(new Set(seen), new Set(bruteForce(ast)));
    });
  }
  it('refuses a node type it does not know', () => {
    assert.throws(() => walk({ type: 'Mystery', start: 3 }, {}), /no child keys for node type Mystery at 3/);
  });
});
