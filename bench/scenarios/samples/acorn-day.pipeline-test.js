'use strict';
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const acorn = require('../vendor/acorn/acorn.js');
const pipeline = require('../src/plugins/pipeline.js');

const Parser = acorn.Parser.extend(pipeline);
const expr = (source) => Parser.parse(source, { ecmaVersion: 'latest' }).body[0].expression;
const NAMES = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const SEEDS = Array.from({ length: 20 }, (_, seed) => seed);

describe('pipeline operator', () => {
  for (const seed of SEEDS) {
    it(`chains left to right below || and ??, seed ${seed}`, () => {
      const [a, b, c] = [NAMES[seed % 8], NAMES[(seed + 3) % 8], NAMES[(seed + 5) % 8]];
      const node = expr(`${a} || ${seed} |> ${b} |> ${c}.call`);
      assert.equal(node.type, 'BinaryExpression');
      assert.equal(node.operator, '|>');
      assert.equal(node.left.operator, '|>');
      assert.equal(node.left.left.type, 'LogicalExpression');
      assert.equal(node.right.type, 'MemberExpression');
    });
    it(`leaves | || |= and > as they were, seed ${seed}`, () => {
      const [a, b] = [NAMES[seed % 8], NAMES[(seed + 1) % 8]];
      const plain = (s) => JSON.stringify(acorn.parse(s, { ecmaVersion: 'latest' }));
      for (const source of [`${a} | ${b} > ${seed}`, `${a} || ${b}`, `${a} |= ${b}`, `${a} | ${b} | ${seed}`]) {
        assert.equal(JSON.stringify(Parser.parse(source, { ecmaVersion: 'latest' })), plain(source));
      }
    });
  }
});
