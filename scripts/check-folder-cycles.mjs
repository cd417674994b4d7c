#!/usr/bin/env node
// Fails when files import each other round a loop, or folders of src/ do. ESLint's rules see one file at a
// time; a loop (ledger → tools → ledger, loop → gate → loop) only shows in the whole graph, which is what
// this builds from every relative import, type-only imports and re-exports included (a cycle in types is a
// cycle in the design: the rule is about who knows whom).
//
// - Files: every TypeScript file of src/, webview-ui/, test/, bench/ and conformance/, tests included (a
//   circle is one wherever it is). A file that imports itself counts.
// - Folders: the product files of src/ (tests excluded: a test may reach anywhere), collapsed to folders.
//
// `--root <dir>` checks another tree laid out the same way (the script's own tests use it).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const FILE_ROOTS = ['src', 'webview-ui', 'test', 'bench', 'conformance'];
/** Data and other people's code, not the project's (as eslint.config.mjs and .prettierignore skip them). */
const SKIPPED_FOLDERS = new Set(['node_modules', 'fixtures', 'samples', 'dist', 'out']);

const rootArg = process.argv.indexOf('--root');
const root =
  rootArg >= 0 && process.argv[rootArg + 1]
    ? resolve(process.argv[rootArg + 1])
    : resolve(dirname(new URL(import.meta.url).pathname), '..');
const srcDir = join(root, 'src');

function sourceFiles(dir) {
  let names;
  try {
    names = readdirSync(dir, { withFileTypes: true });
  } catch {
    return []; // A tree without this root (a fixture with no bench/).
  }
  const out = [];
  for (const entry of names) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) out.push(...sourceFiles(path));
    } else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

const isTest = (file) => /\.test\.tsx?$/.test(file);

/** `from`'s import of `specifier` as a file of the scanned set, or undefined (a package, a script, a JSON). */
function resolveImport(from, specifier, known) {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(m|c)?js$/, '');
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
    `${stem}.ts`,
    `${stem}.tsx`,
  ]) {
    if (known.has(candidate)) return candidate;
  }
  return undefined;
}

// One read and one scan per file: the graph both checks use.
const files = FILE_ROOTS.flatMap((name) => sourceFiles(join(root, name)));
const known = new Set(files);
/** file → file → the position of the first import that makes the edge. */
const fileEdges = new Map();
for (const file of files) {
  const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  const targets = new Map();
  for (const { fileName, pos } of importedFiles) {
    const target = resolveImport(file, fileName, known);
    if (target && !targets.has(target)) targets.set(target, pos);
  }
  fileEdges.set(file, targets);
}

/** Tarjan's strongly connected components of `edges` (node → Map of next → anything), in no set order. */
function stronglyConnected(edges) {
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
      components.push(component.sort());
    }
  }
  for (const node of edges.keys()) if (!indices.has(node)) visit(node);
  return components;
}

const shown = (file) => relative(root, file);
/** `file:line` of the import at `pos` (read again only for the few lines a report names). */
function importLine(file, pos) {
  const text = readFileSync(file, 'utf8');
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < pos; at = text.indexOf('\n', at + 1)) line++;
  return `${shown(file)}:${line}`;
}

let failed = false;

// Folders of src/: product files only, collapsed.
const folderOf = (file) => relative(srcDir, dirname(file)) || '.';
const folderEdges = new Map();
for (const [file, targets] of fileEdges) {
  if (!file.startsWith(srcDir + sep) || isTest(file)) continue;
  for (const target of targets.keys()) {
    if (!target.startsWith(srcDir + sep) || isTest(target)) continue;
    const from = folderOf(file);
    const to = folderOf(target);
    if (from === to) continue;
    if (!folderEdges.has(from)) folderEdges.set(from, new Map());
    if (!folderEdges.get(from).has(to)) folderEdges.get(from).set(to, `${shown(file)} → ${shown(target)}`);
  }
}
const folderCycles = stronglyConnected(folderEdges).filter((component) => component.length > 1);
if (folderCycles.length === 0) {
  process.stdout.write('Folder cycles: none.\n');
} else {
  failed = true;
  process.stdout.write(
    `Folder cycles: ${folderCycles.length}. Move the shared piece to the folder both depend on, or invert the dependency with a port.\n`,
  );
  for (const component of folderCycles) {
    process.stdout.write(`\n  ${component.join(' ↔ ')}\n`);
    for (const from of component) {
      for (const [to, example] of folderEdges.get(from) ?? []) if (component.includes(to)) process.stdout.write(`    ${example}\n`);
    }
  }
}

// Files: every loop, with the import lines that close it.
const fileCircles = stronglyConnected(fileEdges).filter(
  (component) => component.length > 1 || fileEdges.get(component[0])?.has(component[0]),
);
if (fileCircles.length === 0) {
  process.stdout.write('File circles: none.\n');
} else {
  failed = true;
  process.stdout.write(
    `File circles: ${fileCircles.length}. No file may import one that imports it back, directly or round a loop (type imports too): ` +
      'move what both need to the file that owns it, or pass it in (a port) instead of importing the caller.\n',
  );
  for (const component of fileCircles) {
    const names = component.map(shown);
    process.stdout.write(`\n  ${names.length === 1 ? `${names[0]} imports itself` : names.join(' ↔ ')}\n`);
    for (const from of component) {
      for (const [to, pos] of fileEdges.get(from)) {
        if (component.includes(to)) process.stdout.write(`    ${importLine(from, pos)} → ${shown(to)}\n`);
      }
    }
  }
}

if (failed) process.exitCode = 1;
