'use strict';
// highlight on generated code: the pieces cover every non-space character once, each of the kind it is.
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { highlight } = require('../scripts/highlight.js');

const NAMES = ['total', 'items', 'price', 'count', 'label', 'query', 'index', 'value'];
function generated(seed) {
  const [a, b, c] = [NAMES[seed % 8], NAMES[(seed + 3) % 8], NAMES[(seed + 5) % 8]];
  return [
    `// line comment ${seed}`,
    `const ${a} = ${seed * 13} + ${b}.length / 2;`,
    `/* block ${seed} */ let ${c} = /${b}+\\d{${seed % 5 + 1}}/g.test(\`${a} \${${b} |> String} done\`);`,
    `export async function f${seed}(${a}, { ${b} = "${c}" }) { return await ${a}?.[${b}] ?? null; }`,
  ].join('\n');
}
const SEEDS = Array.from({ length: 20 }, (_, seed) => seed);

describe('highlight', () => {
  for (const seed of SEEDS) {
    it(`covers every non-space character exactly once, seed ${seed}`, () => {
      const source = generated(seed);
      const covered = new Array(source.length).fill(0);
      for (const piece of highlight(source)) for (let i = piece.start; i < piece.end; i++) covered[i]++;
      for (let i = 0; i < source.length; i++) assert.equal(covered[i], /\s/.test(source[i]) && covered[i] === 0 ? 0 : 1, `at ${i}: ${source.slice(i, i + 10)}`);
    });
    it(`gives each piece its kind, seed ${seed}`, () => {
      const source = generated(seed);
      const kinds = new Map(highlight(source).map((p) => [source.slice(p.start, p.end), p.kind]));
      assert.equal(kinds.get('const'), 'keyword');
      assert.equal(kinds.get('let'), 'name');
      assert.equal(kinds.get(String(seed * 13)), 'number');
      assert.equal(kinds.get(`"${NAMES[(seed + 5) % 8]}"`), 'string');
      assert.equal(kinds.get(`/${NAMES[(seed + 3) % 8]}+\\d{${(seed % 5) + 1}}/g`), 'regexp');
      assert.equal(kinds.get(`/* block ${seed} */`), 'comment');
      assert.equal(kinds.get('|>'), 'punctuation');
      assert.equal(kinds.get('${'), 'template');
    });
  }
});
