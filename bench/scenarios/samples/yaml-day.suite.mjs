// js-yaml on generated documents: what dump writes, load must read back; block and flow collections,
// integers in every base and error positions must match what the text says.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import yaml from '../index.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
const word = (n) => WORDS[n % WORDS.length];
function value(seed, depth) {
  switch (seed % 7) {
    case 0: return seed * 37 - 500;
    case 1: return `${word(seed)} ${word(seed * 5)}`;
    case 2: return seed % 2 === 0;
    case 3: return null;
    case 4: return depth > 0 ? record(seed + 3, depth - 1) : (seed * 1.5) / 4;
    case 5: return depth > 0 ? [value(seed + 1, depth - 1), value(seed + 2, depth - 1)] : `line ${seed}\nnext ${seed}`;
    default: return `${seed}: ${word(seed)}`;
  }
}
function record(seed, depth) {
  const out = {};
  for (let i = 0; i < 2 + (seed % 4); i++) out[`${word(seed + i)}_${i}`] = value(seed * 3 + i, depth);
  return out;
}
function blockText(seed) {
  const lines = [];
  const expected = {};
  for (let i = 0; i < 2 + (seed % 5); i++) {
    const key = `${word(seed + i)}${i}`;
    const inner = {};
    lines.push(`${key}:`);
    for (let j = 0; j < 1 + ((seed + i) % 3); j++) {
      inner[`${word(seed * 2 + j)}`] = j * seed;
      lines.push(`  ${word(seed * 2 + j)}: ${j * seed}`);
    }
    expected[key] = inner;
  }
  return { text: lines.join('\n') + '\n', expected };
}
const SEEDS = Array.from({ length: 60 }, (_, seed) => seed);

describe('dump then load', () => {
  for (const seed of SEEDS) {
    it(`gives the same object back, seed ${seed}`, () => {
      const object = record(seed, 2);
      assert.deepEqual(yaml.load(yaml.dump(object)), object);
    });
  }
});
describe('block mappings', () => {
  for (const seed of SEEDS) {
    it(`load nested keys at their indentation, seed ${seed}`, () => {
      const { text, expected } = blockText(seed);
      assert.deepEqual(yaml.load(text), expected);
    });
  }
});
describe('block sequences', () => {
  for (const seed of SEEDS) {
    it(`load every item in order, seed ${seed}`, () => {
      const items = Array.from({ length: 1 + (seed % 6) }, (_, i) => `${word(seed + i)} ${i}`);
      const text = `list:\n${items.map((item) => `  - ${item}`).join('\n')}\n`;
      assert.deepEqual(yaml.load(text), { list: items });
    });
  }
});
describe('integers', () => {
  for (const seed of SEEDS) {
    it(`read in base ${[2, 8, 10, 16][seed % 4]}, seed ${seed}`, () => {
      const n = seed * 131 + 7;
      const literal = [`0b${n.toString(2)}`, `0o${n.toString(8)}`, `${n}`, `0x${n.toString(16)}`][seed % 4];
      const sign = seed % 3 === 0 ? '-' : '';
      assert.deepEqual(yaml.load(`n: ${sign}${literal}`), { n: sign ? -n : n });
    });
  }
});
describe('flow collections', () => {
  for (const seed of SEEDS) {
    it(`match their block form, seed ${seed}`, () => {
      const object = { [word(seed)]: [seed, word(seed + 1), seed % 2 === 0], nested: { [word(seed + 2)]: seed * 2 } };
      assert.deepEqual(yaml.load(yaml.dump(object, { flowLevel: 0 })), yaml.load(yaml.dump(object)));
    });
  }
});
describe('errors', () => {
  for (const seed of SEEDS) {
    it(`name the line of a bad indentation, seed ${seed}`, () => {
      const before = 1 + (seed % 9);
      const lines = Array.from({ length: before }, (_, i) => `${word(seed + i)}${i}: ${i}`);
      lines.push(`   ${word(seed)}bad: x`, `${word(seed + 1)}after: y`);
      assert.throws(() => yaml.load(lines.join('\n')), (error) => error instanceof yaml.YAMLException && error.mark.line === before);
    });
  }
});
