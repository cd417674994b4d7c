'use strict';
// A hint for the SyntaxErrors people hit most, keyed by acorn's own message (acorn.js raises them with
// `this.raise(pos, message)`; the message is the stable part, `(line:column)` is appended by raise).
const HINTS = [
  [/^Unexpected token/, 'Something is missing or extra just before this point: a comma, a bracket, an operator.'],
  [/^Unterminated string constant/, 'A string is not closed on its line; use a template literal (`…`) for text over several lines.'],
  [/^Unterminated template/, 'A template literal (`…`) is not closed: look for the missing backtick.'],
  [/^Unterminated regular expression/, 'A `/` started a regular expression; if you meant division, check the expression before it.'],
  [/^Unterminated comment/, 'A /* comment is never closed with */.'],
  [/^Identifier '(.+)' has already been declared/, 'The name is declared twice in one scope with let, const or class; rename one or use assignment.'],
  [/^Assigning to rvalue/, 'Only a variable, a property or a destructuring pattern can be assigned to.'],
  [/^'return' outside of function/, 'A return at the top level: wrap the code in a function, or remove it.'],
  [/^Cannot use keyword 'await' outside an async function/, 'Mark the enclosing function async, or parse the file as a module (top-level await).'],
  [/^'import' and 'export' may appear only with 'sourceType: module'/, 'The file uses import/export: it is a module (.mjs, or "type": "module").'],
  [/^Missing catch or finally clause/, 'A try block needs a catch or a finally after it.'],
  [/^Invalid regular expression flag/, 'Regular expression flags are d, g, i, m, s, u, v and y, each at most once.'],
  [/^Complex binding patterns require an initialization value/, 'A destructuring declaration needs `= value`.'],
  [/^Logical expressions and coalesce expressions cannot be mixed/, 'Put parentheses around either the ?? or the ||/&& part.'],
  [/^Not enough stack space to parse input/, 'The code is nested too deeply to parse; split the expression up.'],
];

/** The hint for an acorn SyntaxError, or undefined when there is none. */
function hintFor(error) {
  if (!(error instanceof SyntaxError)) return undefined;
  const message = error.message.replace(/ \(\d+:\d+\)$/, '');
  return HINTS.find(([pattern]) => pattern.test(message))?.[1];
}

module.exports = { hintFor, HINTS };
