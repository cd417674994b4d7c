#!/usr/bin/env node
// Applies a patch in place: `node scripts/apply.mjs PATCH FILE [--fuzz N]` for a one-file patch, or
// `node scripts/apply.mjs PATCH FOLDER [--fuzz N]` for a patch of several files named relative to FOLDER.
// Nothing is written unless every file applies.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyPatch, parsePatch } from '../src/index.js';

const args = process.argv.slice(2);
const fuzzAt = args.indexOf('--fuzz');
const fuzzFactor = fuzzAt === -1 ? 0 : Number(args[fuzzAt + 1]);
const files = args.filter((a, i) => a !== '--fuzz' && args[i - 1] !== '--fuzz');
if (files.length !== 2 || !(Number.isInteger(fuzzFactor) && fuzzFactor >= 0)) {
    console.error('usage: apply.mjs PATCH FILE|FOLDER [--fuzz N]');
    process.exit(2);
}
const [patchFile, target] = files;
const patches = parsePatch(readFileSync(patchFile, 'utf8'));
const intoFolder = statSync(target).isDirectory();
if (!intoFolder && patches.length > 1) {
    console.error(`${patchFile} changes ${patches.length} files: give the folder they are in`);
    process.exit(2);
}
// git names files a/… and b/…; the folder holds them without the prefix.
const nameOf = (patch) => patch.newFileName.replace(/^[ab]\//, '');
const patched = [];
let failed = false;
for (const patch of patches) {
    const file = intoFolder ? join(target, nameOf(patch)) : target;
    const source = readFileSync(file, 'utf8');
    const result = applyPatch(source, patch, { fuzzFactor });
    if (result !== false) {
        patched.push([file, result]);
        continue;
    }
    failed = true;
    console.error(`${patchFile} does not apply to ${file}` + (fuzzFactor === 0 ? ' (try --fuzz 1 or 2 if the file has changed since the patch was made)' : ''));
    // applyPatch says only false: try each hunk alone to name the ones that do not fit.
    for (const hunk of patch.hunks) {
        if (applyPatch(source, { ...patch, hunks: [hunk] }, { fuzzFactor }) === false) {
            console.error(`  hunk @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@ does not fit`);
        }
    }
}
if (failed) {
    console.error('nothing was written');
    process.exit(1);
}
for (const [file, text] of patched) {
    writeFileSync(file, text);
    console.log(`patched ${file}`);
}
