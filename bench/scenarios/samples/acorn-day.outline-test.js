'use strict';
// outline on generated files: every function, class and method, at its line, with its name.
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { outline } = require('../scripts/outline.js');

const NAMES = ['load', 'save', 'parse', 'render', 'check', 'merge', 'split', 'count', 'print', 'reset'];
const name = (n) => NAMES[n % NAMES.length] + n;
function generated(seed) {
  const lines = [];
  const expected = [];
  for (let i = 0; i < 3 + (seed % 4); i++) {
    const n = seed * 3 + i;
    lines.push('');
    if (n % 3 === 0) {
      expected.push({ line: lines.length + 1, kind: 'function', name: name(n) });
      lines.push(`function ${name(n)}(a) {`, `  return a |> String;`, '}');
    } else if (n % 3 === 1) {
      expected.push({ line: lines.length + 1, kind: 'function', name: name(n) });
      lines.push(`const ${name(n)} = function (a, b) {`, '  return a + b;', '};');
    } else {
      expected.push({ line: lines.length + 1, kind: 'class', name: `C${name(n)}` });
      expected.push({ line: lines.length + 2, kind: 'method', name: name(n + 1) });
      lines.push(`class C${name(n)} {`, `  ${name(n + 1)}() {`, '    return this;', '  }', '}');
    }
  }
  return { source: lines.join('\n') + '\n', expected };
}
const SEEDS = Array.from({ length: 30 }, (_, seed) => seed);

describe('outline', () => {
  for (const seed of SEEDS) {
    it(`lists every function, class and method at its line, seed ${seed}`, () => {
      const { source, expected } = generated(seed);
      assert.deepEqual(outline(source), expected);
    });
  }
});
describe('outline --doc', () => {
  for (const seed of SEEDS) {
    it(`shows the first line of each /** comment, seed ${seed}`, () => {
      const { source, expected } = generated(seed);
      const documented = `\n${source}`.replace(/\n\n(function |const |class )/g, (_, start) => `\n\n/**\n * Does ${start.trim()} work.\n * @returns something\n */\n${start}`);
      const rows = outline(documented, 'input.js', { doc: true });
      assert.equal(rows.length, expected.length);
      for (const row of rows) assert.equal(row.doc, row.kind === 'method' ? undefined : `Does ${row.kind === 'class' ? 'class' : /const/.test(documented.split('\n')[row.line - 1]) ? 'const' : 'function'} work.`);
      const blank = documented.replace(/ \*\/\n/, ' */\n\n');
      assert.equal(outline(blank, 'input.js', { doc: true })[0].doc, undefined);
    });
  }
});
describe('outline of .jsx', () => {
  for (const seed of SEEDS.slice(0, 20)) {
    it(`parses components and their markup, seed ${seed}`, () => {
      const tag = NAMES[seed % NAMES.length];
      const source = `function ${name(seed)}({ items }) {\n  return <ul className="${tag}">{items.map((item) => <li key={item.id}>{item.label |> String}</li>)}</ul>;\n}\nconst Wrapped${seed} = () => <><${name(seed)} items={[]} /></>;\n`;
      assert.deepEqual(outline(source, 'view.jsx'), [{ line: 1, kind: 'function', name: name(seed) }]);
      assert.throws(() => outline(source, 'view.js'), SyntaxError);
    });
  }
});
