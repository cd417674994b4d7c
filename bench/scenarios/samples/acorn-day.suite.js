// The vendored acorn on generated programs: every node's range lies inside its parent's and the source,
// identifiers sit where their text is, tokens cover the source, and a planted mistake is reported where it is.
'use strict';
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const acorn = require('../vendor/acorn/acorn.js');

const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
const name = (n) => NAMES[n % NAMES.length];
function expression(seed, depth) {
  switch (seed % 8) {
    case 0: return `${name(seed)} + ${seed * 7}`;
    case 1: return `${name(seed)}(${depth > 0 ? expression(seed + 3, depth - 1) : seed}, "${name(seed * 3)}")`;
    case 2: return `[${name(seed)}, ...${name(seed + 1)}]`;
    case 3: return `{ ${name(seed)}: ${seed}, ${name(seed + 2)} }`;
    case 4: return `(${name(seed)}) => ${depth > 0 ? expression(seed + 5, depth - 1) : name(seed + 4)}`;
    case 5: return `\`${name(seed)} \${${name(seed + 1)}} done\``;
    case 6: return `${name(seed)}?.${name(seed + 3)} ?? ${seed % 3 === 0 ? 'null' : seed}`;
    default: return `new ${name(seed).toUpperCase()}(${name(seed + 2)})`;
  }
}
function statement(seed, depth) {
  switch (seed % 7) {
    case 0: return `const ${name(seed)}${seed} = ${expression(seed, depth)};`;
    case 1: return `function ${name(seed)}${seed}(${name(seed + 1)}, ${name(seed + 2)} = ${seed}) {\n  return ${expression(seed + 1, depth)};\n}`;
    case 2: return `if (${name(seed)} > ${seed}) {\n  ${depth > 0 ? statement(seed + 2, depth - 1) : `${name(seed)}++;`}\n} else {\n  ${name(seed + 1)}--;\n}`;
    case 3: return `for (const ${name(seed)} of ${name(seed + 5)}) {\n  ${expression(seed + 2, depth)};\n}`;
    case 4: return `class ${name(seed).toUpperCase()}${seed} {\n  #${name(seed)} = ${seed};\n  static ${name(seed + 1)}() { return this.#${name(seed)}; }\n}`;
    case 5: return `let ${name(seed)}${seed} = async () => {\n  await (${expression(seed + 4, depth)});\n};`;
    default: return `try {\n  ${expression(seed + 6, depth)};\n} catch ({ ${name(seed)} }) {\n  throw ${name(seed)};\n}`;
  }
}
const program = (seed) => Array.from({ length: 3 + (seed % 6) }, (_, i) => statement(seed * 5 + i, 2)).join('\n');
function nodes(node, parent, out = []) {
  if (!node || typeof node.type !== 'string') return out;
  out.push({ node, parent });
  for (const [key, value] of Object.entries(node)) {
    if (key === 'loc') continue;
    for (const child of Array.isArray(value) ? value : [value]) if (child && typeof child === 'object') nodes(child, node, out);
  }
  return out;
}
const parse = (source, extra = {}) => acorn.parse(source, { ecmaVersion: 'latest', sourceType: 'module', locations: true, ...extra });
const SEEDS = Array.from({ length: 60 }, (_, seed) => seed);

describe('ranges', () => {
  for (const seed of SEEDS) {
    it(`every node lies inside its parent, seed ${seed}`, () => {
      const source = program(seed);
      for (const { node, parent } of nodes(parse(source))) {
        assert.ok(node.start >= 0 && node.end <= source.length && node.start <= node.end, `${node.type} ${node.start}-${node.end}`);
        if (parent) assert.ok(node.start >= parent.start && node.end <= parent.end, `${node.type} outside ${parent.type}`);
      }
    });
  }
});
describe('identifiers', () => {
  for (const seed of SEEDS) {
    it(`sit where their name is written, seed ${seed}`, () => {
      const source = program(seed);
      const lines = source.split('\n');
      for (const { node } of nodes(parse(source))) {
        if (node.type !== 'Identifier') continue;
        assert.equal(source.slice(node.start, node.end), node.name);
        assert.equal(lines[node.loc.start.line - 1].slice(node.loc.start.column, node.loc.end.column), node.name);
      }
    });
  }
});
describe('tokens', () => {
  for (const seed of SEEDS) {
    it(`cover the source with only whitespace between them, seed ${seed}`, () => {
      const source = program(seed);
      let at = 0;
      for (const token of acorn.tokenizer(source, { ecmaVersion: 'latest', sourceType: 'module' })) {
        assert.match(source.slice(at, token.start), /^\s*$/);
        at = token.end;
      }
      assert.match(source.slice(at), /^\s*$/);
    });
  }
});
describe('statements', () => {
  for (const seed of SEEDS) {
    it(`one top-level node per generated statement, seed ${seed}`, () => {
      const ast = parse(program(seed));
      assert.equal(ast.body.length, 3 + (seed % 6));
      assert.equal(ast.body[0].loc.start.line, 1);
    });
  }
});
describe('script and module', () => {
  for (const seed of SEEDS) {
    it(`parse the same statements either way, seed ${seed}`, () => {
      const source = program(seed);
      const strip = (ast) => JSON.stringify(ast, (k, v) => (k === 'sourceType' ? undefined : v));
      assert.equal(strip(parse(source, { sourceType: 'script' })), strip(parse(source)));
    });
  }
});
describe('syntax errors', () => {
  for (const seed of SEEDS) {
    it(`are reported at the planted mistake, seed ${seed}`, () => {
      const good = program(seed);
      const at = good.indexOf('\n') + 1;
      const source = `${good.slice(0, at)}let = ;\n${good.slice(at)}`;
      assert.throws(() => parse(source), (error) => error instanceof SyntaxError && error.loc.line === 2 && error.pos >= at);
    });
  }
});
