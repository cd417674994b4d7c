// The YAML character helpers (lib/chars.js) on the codes the grammar names.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import chars from '../lib/chars.js';

const code = (s) => s.charCodeAt(0);

describe('chars', () => {
  it('tells line ends, white space and flow indicators apart', () => {
    assert.deepEqual([..."\n\r \t,[]{}a"].map((c) => [chars.isEol(code(c)), chars.isWhiteSpace(code(c)), chars.isFlowIndicator(code(c))]), [
      [true, false, false], [true, false, false], [false, true, false], [false, true, false],
      [false, false, true], [false, false, true], [false, false, true], [false, false, true], [false, false, true], [false, false, false],
    ]);
  });
  for (const [c, value] of [['0', 0], ['9', 9], ['a', 10], ['F', 15], ['g', -1]]) {
    it(`reads the hex digit ${c} as ${value}`, () => assert.equal(chars.fromHexCode(code(c)), value));
  }
  for (const [c, length] of [['x', 2], ['u', 4], ['U', 8], ['n', 0]]) {
    it(`expects ${length} hex digits after \\${c}`, () => assert.equal(chars.escapedHexLen(code(c)), length));
  }
  for (const [c, text] of [['n', '\n'], ['t', '\t'], ['0', '\0'], ['N', '\x85'], ['_', '\xA0'], ['P', '\u2029']]) {
    it(`unescapes \\${c}`, () => assert.equal(chars.simpleEscapeSequence(code(c)), text));
  }
  it('builds a surrogate pair above U+FFFF', () => {
    assert.equal(chars.charFromCodepoint(0x1F600), '\u{1F600}');
    assert.equal(chars.charFromCodepoint(0xE9), '\xE9');
  });
});
