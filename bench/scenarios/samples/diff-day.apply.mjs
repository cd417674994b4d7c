#!/usr/bin/env node
// Applies a one-file patch to a file in place: node scripts/apply.mjs PATCH FILE [--fuzz N]
import { readFileSync, writeFileSync } from 'node:fs';
import { applyPatch } from '../src/index.js';

const args = process.argv.slice(2);
const fuzzAt = args.indexOf('--fuzz');
const fuzzFactor = fuzzAt === -1 ? 0 : Number(args[fuzzAt + 1]);
const files = args.filter((a, i) => a !== '--fuzz' && args[i - 1] !== '--fuzz');
if (files.length !== 2 || !(Number.isInteger(fuzzFactor) && fuzzFactor >= 0)) {
    console.error('usage: apply.mjs PATCH FILE [--fuzz N]');
    process.exit(2);
}
const [patchFile, target] = files;
const result = applyPatch(readFileSync(target, 'utf8'), readFileSync(patchFile, 'utf8'), { fuzzFactor });
if (result === false) {
    console.error(`${patchFile} does not apply to ${target}`);
    process.exit(1);
}
writeFileSync(target, result);
console.log(`patched ${target}`);
