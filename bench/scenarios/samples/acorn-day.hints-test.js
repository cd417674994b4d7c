'use strict';
// Each hint against the message acorn really raises for a typical mistake, in generated contexts.
const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const acorn = require('../vendor/acorn/acorn.js');
const { hintFor, HINTS } = require('../src/hints.js');

const MISTAKES = [
  ['a = [1, 2 3];', /comma, a bracket/],
  ["s = 'one\ntwo';", /template literal/],
  ['t = `open ${x}', /missing backtick/],
  ['r = /abc', /division/],
  ['/* forgot', /never closed/],
  ['let x = 1; let x = 2;', /declared twice/],
  ['f() = 3;', /can be assigned to/],
  ['return 1;', /top level/],
  ['function f() { await g(); }', /async/],
  ['import x from "y";', /is a module/, 'script'],
  ['try { a(); }', /catch or a finally/],
  ['r = /a/q;', /flags are/],
  ['let { a };', /needs `= value`/],
  ['a ?? b || c;', /parentheses/],
];
const CONTEXTS = ['', 'const pad = 1;\n', 'function before() {}\n', '// a comment\n\n'];

describe('hints', () => {
  for (const [source, expected, sourceType = 'module'] of MISTAKES) {
    for (const context of CONTEXTS) {
      it(`explains ${JSON.stringify(source)} after ${JSON.stringify(context)}`, () => {
        const error = (() => { try { acorn.parse(context + source, { ecmaVersion: 'latest', sourceType }); } catch (e) { return e; } })();
        assert.ok(error instanceof SyntaxError, 'acorn accepted the mistake');
        assert.match(hintFor(error) ?? `no hint for: ${error.message}`, expected);
      });
    }
  }
  it('has no hint for other errors', () => {
    assert.equal(hintFor(new TypeError('x is not a function')), undefined);
    assert.equal(HINTS.every(([pattern]) => pattern.source.startsWith('^')), true);
  });
});
