#!/usr/bin/env node
'use strict';
// highlight FILE: every token and comment of a file by kind, one per line: `LINE:COLUMN<tab>KIND<tab>TEXT`.
const { readFileSync } = require('node:fs');
const acorn = require('../vendor/acorn/acorn.js');
const pipeline = require('../src/plugins/pipeline.js');

const tt = acorn.tokTypes;
const Parser = acorn.Parser.extend(pipeline);
const TEMPLATE = new Set([tt.template, tt.invalidTemplate, tt.backQuote, tt.dollarBraceL]);

// Contextual keywords (let, of, async, await outside async code, get, set, static) are names to acorn.
function kindOf(type) {
  if (type.keyword) return 'keyword';
  if (type === tt.name || type === tt.privateId) return 'name';
  if (type === tt.string) return 'string';
  if (type === tt.num) return 'number';
  if (type === tt.regexp) return 'regexp';
  if (TEMPLATE.has(type)) return 'template';
  return 'punctuation';
}

function highlight(source) {
  const out = [];
  const options = {
    ecmaVersion: 'latest',
    sourceType: 'module',
    locations: true,
    allowHashBang: true,
    onComment: (block, text, start, end, loc) => out.push({ kind: 'comment', start, end, loc }),
  };
  // Parser.tokenizer, not acorn.tokenizer: the extended parser's tokenizer reads our `|>` as one token.
  for (const token of Parser.tokenizer(source, options)) {
    out.push({ kind: kindOf(token.type), start: token.start, end: token.end, loc: token.loc.start });
  }
  return out.sort((a, b) => a.start - b.start);
}

module.exports = { highlight };
if (require.main === module) {
  const [file] = process.argv.slice(2);
  if (!file) {
    console.error('usage: highlight FILE');
    process.exit(2);
  }
  const source = readFileSync(file, 'utf8');
  try {
    for (const t of highlight(source)) console.log(`${t.loc.line}:${t.loc.column}\t${t.kind}\t${JSON.stringify(source.slice(t.start, t.end))}`);
  } catch (error) {
    console.error(`${file}: ${error.message}`);
    process.exitCode = 1;
  }
}
