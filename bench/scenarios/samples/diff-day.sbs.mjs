#!/usr/bin/env node
// Side-by-side diff of two files: node scripts/sbs.mjs OLD NEW [--width N]
import { readFileSync } from 'node:fs';
import { structuredPatch, sideBySide } from '../src/index.js';

const args = process.argv.slice(2);
const widthAt = args.indexOf('--width');
const width = widthAt === -1 ? Math.max(20, Math.floor(((process.stdout.columns || 120) - 3) / 2)) : Number(args[widthAt + 1]);
const files = args.filter((a, i) => a !== '--width' && args[i - 1] !== '--width');
if (files.length !== 2 || !(Number.isInteger(width) && width > 0)) {
    console.error('usage: sbs.mjs OLD NEW [--width N]');
    process.exit(2);
}
const [oldFile, newFile] = files;
const patch = structuredPatch(oldFile, newFile, readFileSync(oldFile, 'utf8'), readFileSync(newFile, 'utf8'));
if (patch.hunks.length === 0) {
    console.log('no differences');
    process.exit(0);
}
console.log(sideBySide(patch, { width }));
process.exit(1);
