#!/usr/bin/env node
'use strict';
// outline FILE...: the functions, classes and methods of each file, one per line: `LINE  KIND  NAME`.
const { readFileSync } = require('node:fs');
const acorn = require('../vendor/acorn/acorn.js');
const pipeline = require('../src/plugins/pipeline.js');
const { walk } = require('../src/walk.js');

const Parser = acorn.Parser.extend(pipeline);

function parse(source, file) {
  const options = { ecmaVersion: 'latest', locations: true, allowHashBang: true };
  // A .cjs file is always a script and a .mjs file always a module; others are tried as a module first.
  if (file.endsWith('.cjs')) return Parser.parse(source, { ...options, sourceType: 'script' });
  try {
    return Parser.parse(source, { ...options, sourceType: 'module' });
  } catch (moduleError) {
    // Old scripts (with, octal literals, `await` as a name) are not modules.
    if (file.endsWith('.mjs')) throw moduleError;
    try { return Parser.parse(source, { ...options, sourceType: 'script' }); } catch { throw moduleError; }
  }
}

function nameOf(node, ancestors) {
  if (node.id) return node.id.name;
  const parent = ancestors.at(-1);
  if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition' || parent?.type === 'PropertyDefinition') && parent.value === node) {
    return parent.key.type === 'PrivateIdentifier' ? `#${parent.key.name}` : parent.key.name ?? parent.key.value;
  }
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if (parent?.type === 'AssignmentExpression' && parent.right === node && parent.left.type === 'MemberExpression') {
    const { object, property } = parent.left;
    return `${object.name ?? (object.type === 'MemberExpression' ? `${object.object.name}.${object.property.name}` : '?')}.${property.name}`;
  }
  return '(anonymous)';
}

function outline(source, file = 'input.js') {
  const rows = [];
  const add = (node, kind, ancestors) => rows.push({ line: node.loc.start.line, kind, name: nameOf(node, ancestors) });
  walk(parse(source, file), {
    FunctionDeclaration: (node, ancestors) => add(node, 'function', ancestors),
    FunctionExpression: (node, ancestors) => add(node, ancestors.at(-1)?.type === 'MethodDefinition' ? 'method' : 'function', ancestors),
    ClassDeclaration: (node, ancestors) => add(node, 'class', ancestors),
    ClassExpression: (node, ancestors) => add(node, 'class', ancestors),
  });
  return rows;
}

function main(args) {
  const files = args;
  if (files.length === 0) {
    console.error('usage: outline FILE...');
    return 2;
  }
  let failed = false;
  for (const file of files) {
    try {
      for (const row of outline(readFileSync(file, 'utf8'), file)) console.log(`${files.length > 1 ? `${file}:` : ''}${row.line}\t${row.kind}\t${row.name}`);
    } catch (error) {
      console.error(`${file}: ${error.message}`);
      failed = true;
    }
  }
  return failed ? 1 : 0;
}

module.exports = { outline };
if (require.main === module) process.exitCode = main(process.argv.slice(2));
