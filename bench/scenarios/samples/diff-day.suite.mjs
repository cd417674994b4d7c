// The diff library's behaviour on generated texts: every diff must rebuild both texts, and every patch
// must apply to give the new text back (and reverse to give the old one).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Diff from '../src/index.js';

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa', 'lambda', 'mu'];
function text(seed, lines) {
  const out = [];
  for (let i = 0; i < lines; i++) out.push(`${WORDS[(seed + i * 7) % WORDS.length]}  ${WORDS[(seed * 3 + i) % WORDS.length]} ${i}`);
  return out.join('\n') + '\n';
}
function mutate(source, seed) {
  const lines = source.split('\n');
  const at = (seed * 5) % Math.max(1, lines.length - 1);
  if (seed % 3 === 0) lines.splice(at, 1);
  else if (seed % 3 === 1) lines.splice(at, 0, `inserted ${seed}`);
  else lines[at] = `changed  ${seed}`;
  const joined = lines.join('\n');
  // Every fourth case also drops the final newline, which a patch marks with "\ No newline at end of file".
  return seed % 4 === 3 ? joined.replace(/\n$/, '') : joined;
}
const rebuilt = (parts, side) => parts.filter((p) => !p[side]).map((p) => p.value).join('');
const SEEDS = Array.from({ length: 60 }, (_, seed) => seed);

describe('createPatch then applyPatch', () => {
  for (const seed of SEEDS) {
    it(`gives the new text back, seed ${seed}`, () => {
      const before = text(seed, 6 + (seed % 17));
      const after = mutate(before, seed);
      assert.equal(Diff.applyPatch(before, Diff.createPatch('file.txt', before, after)), after);
    });
  }
});
describe('reversePatch', () => {
  for (const seed of SEEDS) {
    it(`gives the old text back, seed ${seed}`, () => {
      const before = text(seed, 5 + (seed % 11));
      const after = mutate(before, seed + 2);
      const [patch] = Diff.parsePatch(Diff.createPatch('file.txt', before, after));
      assert.equal(Diff.applyPatch(after, Diff.reversePatch(patch)), before);
    });
  }
});
describe('diffLines', () => {
  for (const seed of SEEDS) {
    it(`rebuilds both texts, seed ${seed}`, () => {
      const before = text(seed, 4 + (seed % 9));
      const after = mutate(before, seed + 1);
      const parts = Diff.diffLines(before, after);
      assert.equal(rebuilt(parts, 'removed'), after);
      assert.equal(rebuilt(parts, 'added'), before);
    });
  }
});
describe('diffLines of a one-line change', () => {
  for (const seed of SEEDS) {
    it(`keeps the unchanged lines together, seed ${seed}`, () => {
      const before = text(seed, 8 + (seed % 7));
      const lines = before.split('\n');
      lines[(seed * 3) % (lines.length - 1)] = `changed  ${seed}`;
      const changed = Diff.diffLines(before, lines.join('\n')).filter((p) => p.added || p.removed);
      assert.deepEqual(changed.map((p) => p.count), [1, 1]);
    });
  }
});
describe('diffWords', () => {
  for (const seed of SEEDS) {
    it(`rebuilds both texts, seed ${seed}`, () => {
      const before = text(seed, 3).replace(/\n/g, ' ').trim();
      const after = mutate(text(seed, 3), seed).replace(/\n/g, ' ').trim();
      const parts = Diff.diffWords(before, after);
      assert.equal(rebuilt(parts, 'removed'), after);
      assert.equal(rebuilt(parts, 'added'), before);
    });
  }
});
describe('diffChars', () => {
  for (const seed of SEEDS) {
    it(`rebuilds both texts, seed ${seed}`, () => {
      const before = text(seed, 2);
      const after = mutate(before, seed + 5);
      const parts = Diff.diffChars(before, after);
      assert.equal(rebuilt(parts, 'removed'), after);
      assert.equal(rebuilt(parts, 'added'), before);
    });
  }
});
