#!/usr/bin/env node
// Fails when two folders of src/ import each other, directly or round a longer loop. ESLint's rules see one
// file at a time; a cycle between folders (ledger → tools → ledger) only shows in the whole graph, which is
// what this builds: every relative import of every product file (tests excluded: a test may reach anywhere),
// type-only imports included (a cycle in types is a cycle in the design), collapsed to folders.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const srcDir = join(root, 'src');

function productFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...productFiles(path));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function resolveImport(from, specifier) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not this spelling; try the next.
    }
  }
  return undefined;
}

const folderOf = (file) => relative(srcDir, dirname(file)) || '.';
/** folder → folder → one file-level import that makes the edge (for the message). */
const edges = new Map();
for (const file of productFiles(srcDir)) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  for (const { fileName } of importedFiles) {
    const target = resolveImport(file, fileName);
    if (!target || !target.startsWith(srcDir)) continue;
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${relative(root, file)} → ${relative(root, target)}`);
  }
}

// Tarjan's strongly connected components: any component of two or more folders is a cycle.
let index = 0;
const indices = new Map();
const lowlinks = new Map();
const stack = [];
const onStack = new Set();
const components = [];
function visit(node) {
  indices.set(node, index);
  lowlinks.set(node, index);
  index++;
  stack.push(node);
  onStack.add(node);
  for (const next of edges.get(node)?.keys() ?? []) {
    if (!indices.has(next)) {
      visit(next);
      lowlinks.set(node, Math.min(lowlinks.get(node), lowlinks.get(next)));
    } else if (onStack.has(next)) {
      lowlinks.set(node, Math.min(lowlinks.get(node), indices.get(next)));
    }
  }
  if (lowlinks.get(node) === indices.get(node)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) components.push(component.sort());
  }
}
for (const node of edges.keys()) if (!indices.has(node)) visit(node);

if (components.length === 0) {
  process.stdout.write('Folder cycles: none.\n');
} else {
  process.stdout.write(
    `Folder cycles: ${components.length}. Move the shared piece to the folder both depend on, or invert the dependency with a port.\n`,
  );
  for (const component of components) {
    process.stdout.write(`\n  ${component.join(' ↔ ')}\n`);
    for (const from of component) {
      for (const [to, example] of edges.get(from) ?? []) if (component.includes(to)) process.stdout.write(`    ${example}\n`);
    }
  }
  process.exitCode = 1;
}
