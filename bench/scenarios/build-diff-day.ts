/**
 * Builds `diff-day.json` (run: `node --import tsx bench/scenarios/build-diff-day.ts`): a working day on
 * the `diff` package's sources (BSD-3-Clause; copied from node_modules at run time, one planted bug in
 * word.js), ten related tasks one after another: a diffWords bug, a `sideBySide` renderer with tests,
 * a script around it, multi-file patches in it, tests for the line-ending helpers, a rename, a question
 * about diffing large files answered with measurements and used in the script, a patch-applying script,
 * and a review. The real
 * `node --test` suite (360 generated cases, growing to 448) runs after each step. Edits take their old
 * text from the installed package, so the build fails loudly if the package changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bash, between, edit, grep, packageFile, read, recall, say, step, user, write, writeScenario, type Turn } from './scriptSteps';
import { withIdlePattern } from './idlePattern';

const own = (name: string): string => readFileSync(join(__dirname, 'samples', name), 'utf8');
const SUITE = own('diff-day.suite.mjs');
const SIDE_BY_SIDE_V1 = own('diff-day.side-by-side.js');
const SBS_V1 = own('diff-day.sbs.mjs');
const APPLY_V1 = own('diff-day.apply.mjs');
const APPLY_V2 = own('diff-day.apply-folder.mjs');
const index = packageFile('diff/libesm/index.js');
const params = packageFile('diff/libesm/util/params.js');
const line = packageFile('diff/libesm/diff/line.js');

// The planted bug (x-bench-patch): a word after whitespace loses the whitespace before it.
const WORD_OK = '                else {\n                    tokens.push(prevPart + part);\n                }';
const WORD_BUG = '                else {\n                    tokens.push(part);\n                }';
if (!packageFile('diff/libesm/diff/word.js').includes(WORD_OK)) throw new Error('word.js has changed: the planted bug no longer applies');

const REVERSE_IMPORT = "import { reversePatch } from './patch/reverse.js';";
const EXPORT_LIST = between(index, 'export { Diff,', '\n');
const SKIP_MARKER =
  '            else if (line.startsWith(\'\\\\\')) {\n                // "\\\\ No newline at end of file" belongs to the line before it; it has no row of its own.\n            }\n';
const CONTEXT_BRANCH = '            else {\n                flush();\n';

const SBS_TESTS = `describe('sideBySide', () => {
  for (const seed of SEEDS.slice(0, 30)) {
    it(\`shows both sides of every hunk, seed \${seed}\`, () => {
      const before = text(seed, 6 + (seed % 17));
      const after = mutate(before, seed);
      const patch = Diff.structuredPatch('a.txt', 'b.txt', before, after);
      const rows = Diff.sideBySide(patch, { width: 30 }).split('\\n').filter((r) => !r.startsWith('@@'));
      const side = (sign) => patch.hunks.flatMap((h) => h.lines.filter((l) => l[0] === ' ' || l[0] === sign).map((l) => l.slice(1)));
      assert.deepEqual(rows.filter((r) => r[31] !== '>').map((r) => r.slice(0, 30).trimEnd()), side('-'));
      assert.deepEqual(rows.filter((r) => r[31] !== '<').map((r) => r.slice(33)), side('+'));
    });
  }
});
`;
const EOL_TESTS = `describe('line endings', () => {
  for (const seed of SEEDS.slice(0, 40)) {
    it(\`unixToWin and winToUnix round trip, seed \${seed}\`, () => {
      const before = text(seed, 5 + (seed % 13));
      const patch = Diff.structuredPatch('a.txt', 'a.txt', before, mutate(before, seed));
      const win = unixToWin(patch);
      assert.equal(isWin(win), patch.hunks.length > 0);
      assert.deepEqual(winToUnix(win), patch);
      assert.equal(isUnix(patch), true);
    });
  }
});
`;

const BIG = (lines: number, every: number): string =>
  `node -e "const lines = Array.from({ length: ${lines} }, (_, i) => 'line ' + i + ' of the generated file'); const changed = lines.map((l, i) => (i % ${every} === 0 ? l + ' (changed)' : l)); require('fs').writeFileSync('examples/big-old.txt', lines.join('\\\\n') + '\\\\n'); require('fs').writeFileSync('examples/big-new.txt', changed.join('\\\\n') + '\\\\n')"`;
const TIME_DIFF = (extra: string): string =>
  `node -e "import('./src/index.js').then((d) => { const fs = require('fs'); const a = fs.readFileSync('examples/big-old.txt', 'utf8'), b = fs.readFileSync('examples/big-new.txt', 'utf8'); const t = Date.now(); const r = d.diffLines(a, b${extra}); console.log(r === undefined ? 'gave up' : r.length + ' parts', Date.now() - t, 'ms') })"`;

const SERVER_OLD = [
  '# server settings',
  'listen 8080',
  'workers 4',
  'worker_connections 1024',
  'log_level info',
  'log_file /var/log/app/server.log',
  'access_log /var/log/app/access.log',
  'timeout 30',
  'client_max_body_size 10m',
  'gzip on',
  'gzip_types text/plain application/json',
  'upstream api.internal.example.com:9000 weight=5 max_fails=3 fail_timeout=30s',
  'keepalive 64',
  'keepalive_timeout 65',
];
const SERVER_NEW = SERVER_OLD.flatMap((l) =>
  l === 'listen 8080'
    ? ['listen 8443']
    : l.startsWith('upstream')
      ? [
          'upstream api.internal.example.com:9000 weight=5 max_fails=5 fail_timeout=60s',
          'upstream api-2.internal.example.com:9000 weight=1',
        ]
      : [l],
).concat('tls on');
const EXAMPLES: Record<string, string> = {
  'examples/old/server.conf': SERVER_OLD.join('\n') + '\n',
  'examples/new/server.conf': SERVER_NEW.join('\n') + '\n',
  'examples/old/app.env': 'APP_ENV=production\nAPP_PORT=8080\nCACHE_TTL=300\nFEATURE_SEARCH=off\n',
  'examples/new/app.env': 'APP_ENV=production\nAPP_PORT=8443\nCACHE_TTL=600\nFEATURE_SEARCH=on\nFEATURE_CART=on\n',
};

const turns: Turn[] = [
  // 1. A diffWords bug.
  user(
    'diffWords has been wrong since this morning: it drops the spaces before some words, and part of `node --test` fails. Find and fix it.',
  ),
  step("I'll run the suite first.", [bash('node --test')]),
  step('Which tests fail?', [bash('node --test 2>&1 | grep -E "^    not ok|^not ok" | head -30')], ['# fail 20']),
  step('All twenty are diffWords. One failure in full, from the first run:', [
    bash('node --test --test-name-pattern=diffWords 2>&1 | grep -m1 -A 24 "^    not ok"'),
  ]),
  step('The rebuilt text lacks a space. A small case:', [
    bash(
      `node -e "import('./src/index.js').then((d) => console.log(JSON.stringify(d.diffWords('alpha  beta gamma', 'alpha  beta delta'))))"`,
    ),
  ]),
  step(undefined, [read('src/diff/word.js')], ['alpha  beta ']),
  step('tokenize merges whitespace into the tokens around it. Let me see what it returns for that text.', [
    bash(`node -e "import('./src/index.js').then((d) => console.log(JSON.stringify(d.wordDiff.tokenize('alpha  beta gamma'))))"`),
  ]),
  step('Where else is the word tokenizer pattern used?', [grep('tokenizeIncludingWhitespace|extendedWordChars', 'src')]),
  step('And how base.js puts tokens back together (join, removeEmpty, postProcess):', [read('src/diff/base.js', 180, 74)]),
  step('postProcess for words dedupes the whitespace around changes; that relies on util/string.js:', [
    read('src/util/string.js', 100, 85),
  ]),
  step(
    'The token after a whitespace run should carry that whitespace (`prevPart + part`) when the run was not already attached to the previous token; it pushes `part` alone, so the run is lost.',
    [read('src/diff/word.js', 74, 24)],
  ),
  step(undefined, [edit('src/diff/word.js', WORD_BUG, WORD_OK)]),
  step(undefined, [
    bash(
      `node -e "import('./src/index.js').then((d) => { console.log(JSON.stringify(d.wordDiff.tokenize('alpha  beta gamma'))); console.log(JSON.stringify(d.diffWords('alpha  beta gamma', 'alpha  beta delta'))) })"`,
    ),
  ]),
  step('Does diffWordsWithSpace share this tokenizer?', [read('src/diff/word.js', 262, 20)]),
  step('Which tests exercise diffWords with runs of spaces?', [grep('diffWords', 'test')]),
  step(undefined, [bash('node --test --test-name-pattern=diffWords')]),
  step(undefined, [bash('node --test')]),
  say(
    'Fixed in src/diff/word.js: WordDiff.tokenize pushed a word that follows a whitespace run on its own (`tokens.push(part)`) when the run had not been merged into the previous token, so the run vanished from the tokens and from the rebuilt text. It is `prevPart + part` again. diffWordsWithSpace uses its own tokenizer and was not affected. All 360 tests pass.',
    ['# pass 360'],
  ),

  // 2. A side-by-side renderer.
  user(
    'Add `sideBySide(patch, { width })`: render a one-file patch (structured or a string) in two columns, old on the left and new on the right, `|` on changed rows, `<` removed, `>` added, hunk headers kept. Export it and test it.',
  ),
  step('How the package exports things, and a small patch function to follow:', [read('src/index.js'), read('src/patch/reverse.js')]),
  step('How do patch functions accept a string?', [grep('parsePatch\\(', 'src')]),
  step(undefined, [read('src/patch/apply.js', 27, 20)]),
  step("And how a hunk's lines and counts are built, so the columns can trust them:", [read('src/patch/create.js', 126, 100)]),
  step('What a structured patch looks like for a small change:', [
    bash(
      `node -e "import('./src/index.js').then((d) => console.log(JSON.stringify(d.structuredPatch('a.txt', 'b.txt', 'one\\\\ntwo\\\\nthree\\\\nfour\\\\n', 'one\\\\nTWO\\\\nthree\\\\nfour\\\\nfive\\\\n'), null, 1)))"`,
    ),
  ]),
  step('Hunks hold lines prefixed with space, - or +. Changed rows pair the removed and added lines of a run.', [
    write('src/patch/side-by-side.js', SIDE_BY_SIDE_V1),
  ]),
  step(undefined, [edit('src/index.js', REVERSE_IMPORT, `${REVERSE_IMPORT}\nimport { sideBySide } from './patch/side-by-side.js';`)]),
  step(undefined, [edit('src/index.js', EXPORT_LIST, EXPORT_LIST.replace('reversePatch,', 'reversePatch, sideBySide,'))]),
  step(undefined, [
    bash(
      `node -e "import('./src/index.js').then((d) => console.log(d.sideBySide(d.createPatch('a.txt', 'one\\\\ntwo\\\\nthree\\\\nfour\\\\n', 'one\\\\nTWO\\\\nthree\\\\nfour\\\\nfive\\\\n'), { width: 12 })))"`,
    ),
  ]),
  step('Now tests; the test file first.', [read('test/diff.test.mjs')]),
  step('Both columns must give back exactly the lines of each side of the hunks.', [
    edit('test/diff.test.mjs', "describe('diffChars', () => {", `${SBS_TESTS}describe('diffChars', () => {`),
  ]),
  step(undefined, [bash('node --test --test-name-pattern=sideBySide')]),
  step(undefined, [bash('node --test --test-name-pattern=sideBySide 2>&1 | grep -m1 -A 30 "^    not ok"')], ['# fail 7']),
  step('The failing seeds are the ones whose text has no final newline. A row too many on both sides:', [
    bash(
      `node -e "import('./src/index.js').then((d) => console.log(d.sideBySide(d.createPatch('a.txt', 'one\\\\ntwo', 'one\\\\nTWO'), { width: 12 })))"`,
    ),
  ]),
  step(
    '"\\ No newline at end of file" is shown as a context row. It belongs to the line before it.',
    [read('src/patch/side-by-side.js', 34, 15)],
    ['No newline at end of file'],
  ),
  step(undefined, [edit('src/patch/side-by-side.js', CONTEXT_BRANCH, SKIP_MARKER + CONTEXT_BRANCH)]),
  step(undefined, [bash('node --test --test-name-pattern=sideBySide')]),
  step('How does it look with a tab and a long line?', [
    bash(
      `node -e "import('./src/index.js').then((d) => console.log(d.sideBySide(d.createPatch('a.txt', 'a\\\\tb\\\\nshort\\\\n', 'a\\\\tb\\\\na line much longer than the column\\\\n'), { width: 14 })))"`,
    ),
  ]),
  step(undefined, [bash('node --test')]),
  say(
    'Added `sideBySide(patch, { width = 40 })` in src/patch/side-by-side.js, exported from index.js: hunk headers, then one row per line; runs of removed and added lines are paired (`|`), the rest marked `<` or `>`; tabs become four spaces and a left cell longer than the width ends in `…`. "\\ No newline at end of file" adds no row. 30 tests check that each column gives back exactly its side of every hunk; all 390 pass.',
    ['# pass 390'],
  ),

  // 3. A script around it.
  user(
    'Write scripts/sbs.mjs: `node scripts/sbs.mjs OLD NEW [--width N]` prints the side-by-side diff of two files, the width fitting the terminal by default. Try it on examples/old and examples/new.',
  ),
  step(undefined, [read('src/patch/create.js', 318, 30)]),
  step(undefined, [write('scripts/sbs.mjs', SBS_V1)]),
  step(undefined, [bash('node scripts/sbs.mjs examples/old/server.conf examples/new/server.conf; echo "exit $?"')]),
  step('Without a terminal the width falls back to 58, so the long upstream line is cut on the left only. With a narrow width:', [
    bash('node scripts/sbs.mjs examples/old/server.conf examples/new/server.conf --width 30; echo "exit $?"'),
  ]),
  step(undefined, [
    bash(
      'node scripts/sbs.mjs examples/old/server.conf; echo "exit $?"; node scripts/sbs.mjs examples/old/server.conf examples/old/server.conf; echo "exit $?"',
    ),
  ]),
  step('The output should say which files it compares, like diff does.', [
    edit(
      'scripts/sbs.mjs',
      'console.log(sideBySide(patch, { width }));',
      'console.log(`${oldFile.padEnd(width)}   ${newFile}`);\nconsole.log(sideBySide(patch, { width }));',
    ),
  ]),
  step(undefined, [bash('node scripts/sbs.mjs examples/old/server.conf examples/new/server.conf --width 40; echo "exit $?"')]),
  step(undefined, [bash('node scripts/sbs.mjs examples/old/server.conf examples/new/server.conf --width 0; echo "exit $?"')]),
  say(
    'scripts/sbs.mjs prints the two file names and the side-by-side diff; `--width N` sets the column width (default: half the terminal, 58 without one); it exits 0 when the files are the same ("no differences"), 1 when they differ, 2 on a usage error, like diff.',
    ['exit 1'],
  ),

  // 4. Multi-file patches.
  user('Make sideBySide take a patch of several files too (a string or what parsePatch returns): one block per file, headed by its names.'),
  step(undefined, [read('src/patch/side-by-side.js')]),
  step('How parsePatch splits files (the Index and --- / +++ headers):', [read('src/patch/parse.js', 14, 80)]),
  step('What parsePatch gives for two files:', [
    bash(
      `node -e "import('./src/index.js').then((d) => { const p = d.createPatch('a.txt', 'x\\\\n', 'y\\\\n') + d.createPatch('b.txt', 'p\\\\n', 'q\\\\n'); console.log(p); console.log(JSON.stringify(d.parsePatch(p).map((f) => [f.oldFileName, f.newFileName, f.hunks.length]))) })"`,
    ),
  ]),
  step("Each file becomes its own block; one file keeps today's output exactly.", [
    edit(
      'src/patch/side-by-side.js',
      "    if (Array.isArray(structured) && structured.length > 1) {\n        throw new Error('sideBySide takes a patch of one file');\n    }\n    const file = Array.isArray(structured) ? structured[0] : structured;\n",
      "    if (Array.isArray(structured) && structured.length > 1) {\n        return structured.map((one) => `=== ${one.oldFileName} → ${one.newFileName}\\n${sideBySide(one, options)}`).join('\\n');\n    }\n    const file = Array.isArray(structured) ? structured[0] : structured;\n",
    ),
  ]),
  step(undefined, [
    bash(
      `node -e "import('./src/index.js').then((d) => console.log(d.sideBySide(d.createPatch('a.txt', 'x\\\\n', 'y\\\\n') + d.createPatch('b.txt', 'p\\\\n', 'q\\\\n'), { width: 10 })))"`,
    ),
  ]),
  step('A test for it, beside the others:', [read('test/diff.test.mjs', 60, 30)]),
  step(undefined, [
    edit(
      'test/diff.test.mjs',
      "describe('diffChars', () => {",
      "describe('sideBySide of several files', () => {\n  for (const seed of SEEDS.slice(0, 8)) {\n    it(`gives one block per file, seed ${seed}`, () => {\n      const one = Diff.createPatch('a.txt', text(seed, 4), mutate(text(seed, 4), seed));\n      const two = Diff.createPatch('b.txt', text(seed + 1, 5), mutate(text(seed + 1, 5), seed + 1));\n      const rendered = Diff.sideBySide(one + two, { width: 30 });\n      assert.deepEqual(rendered.split('\\n').filter((r) => r.startsWith('=== ')), ['=== a.txt → a.txt', '=== b.txt → b.txt']);\n      assert.ok(rendered.includes(Diff.sideBySide(two, { width: 30 })));\n    });\n  }\n});\ndescribe('diffChars', () => {",
    ),
  ]),
  step(undefined, [bash('node --test --test-name-pattern=sideBySide')]),
  step(undefined, [bash('node --test')]),
  say(
    'sideBySide now takes several files: one block per file headed `=== old → new`, each rendered as before; a single file gives exactly the previous output. 8 new tests; all 398 pass.',
    ['# pass 398'],
  ),

  // 5. The line-ending helpers.
  user(
    'We get patches from Windows users. unixToWin, winToUnix, isUnix and isWin have no tests here: add round-trip tests on generated patches.',
  ),
  step(undefined, [grep('unixToWin|winToUnix|isUnix|isWin', 'src')]),
  step('They are not exported from index.js in this version; the tests import the module directly.', [read('src/patch/line-endings.js')]),
  step(undefined, [read('test/diff.test.mjs', 1, 12)]),
  step(undefined, [
    edit(
      'test/diff.test.mjs',
      "import * as Diff from '../src/index.js';",
      "import * as Diff from '../src/index.js';\nimport { unixToWin, winToUnix, isUnix, isWin } from '../src/patch/line-endings.js';",
    ),
  ]),
  step(undefined, [edit('test/diff.test.mjs', "describe('diffChars', () => {", `${EOL_TESTS}describe('diffChars', () => {`)]),
  step(undefined, [bash('node --test --test-name-pattern="line endings"')]),
  step('A patch mixing both endings must be neither:', [
    bash(
      `node -e "import('./src/patch/line-endings.js').then((e) => { const p = { hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' a\\r', '-b', '+c\\r'] }] }; console.log(e.isUnix(p), e.isWin(p)) })"`,
    ),
  ]),
  step('And a CRLF patch applied to CRLF text, end to end:', [
    bash(
      `node -e "import('./src/index.js').then(async (d) => { const e = await import('./src/patch/line-endings.js'); const a = 'one\\\\r\\\\ntwo\\\\r\\\\n', b = 'one\\\\r\\\\nTWO\\\\r\\\\n'; const p = e.unixToWin(d.structuredPatch('f', 'f', 'one\\\\ntwo\\\\n', 'one\\\\nTWO\\\\n')); console.log(JSON.stringify(d.applyPatch(a, p)) === JSON.stringify(b)) })"`,
    ),
  ]),
  step(undefined, [bash('node --test')]),
  say(
    '40 tests: unixToWin gives a patch isWin accepts (when it has hunks), winToUnix gives the original back exactly, and generated patches are isUnix. A Windows patch applies to CRLF text end to end. All 438 pass.',
    ['# pass 438'],
  ),

  // 6. A rename.
  user(
    "util/params.js's generateOptions merges options into defaults; it generates nothing. Rename it to mergeOptions, no behaviour change.",
  ),
  step(undefined, [grep('generateOptions', '.')]),
  step(undefined, [read('src/util/params.js')]),
  step(undefined, [
    edit('src/util/params.js', 'export function generateOptions(options, defaults) {', 'export function mergeOptions(options, defaults) {'),
  ]),
  step(undefined, [read('src/diff/line.js')]),
  step(undefined, [
    edit('src/diff/line.js', "import { generateOptions } from '../util/params.js';", "import { mergeOptions } from '../util/params.js';"),
    edit(
      'src/diff/line.js',
      between(line, '    options = generateOptions(', '\n'),
      between(line, '    options = generateOptions(', '\n').replace('generateOptions', 'mergeOptions'),
    ),
  ]),
  step(undefined, [grep('generateOptions', '.')]),
  step(undefined, [read('src/diff/line.js', 36, 8)]),
  step(undefined, [bash('node --test')]),
  say(
    'Renamed generateOptions to mergeOptions in src/util/params.js and its one caller, diffTrimmedLines in src/diff/line.js; nothing else used it. All 438 tests pass.',
    ['# pass 438'],
  ),

  // 7. Large files.
  user('sbs.mjs takes seconds on two large generated files. Why, and what can we do?'),
  step('Two files of 12,000 lines with every 4th line changed:', [bash(BIG(12000, 4))]),
  step(undefined, [bash(TIME_DIFF(''))]),
  step('Myers diff costs about N × D (lines × edits). How does the library bound it?', [grep('maxEditLength|timeout', 'src')]),
  step(undefined, [read('src/diff/base.js', 1, 120)]),
  step(undefined, [bash(TIME_DIFF(', { maxEditLength: 100 }'))]),
  step(undefined, [bash(TIME_DIFF(', { timeout: 300 }'))]),
  step('And a change every 2,000 lines, the common case of a small edit to a big file:', [bash(BIG(12000, 2000))]),
  step(undefined, [bash(TIME_DIFF(''))]),
  step('structuredPatch passes options on to diffLines and returns undefined when it gives up:', [read('src/patch/create.js', 93, 40)]),
  step(undefined, [read('scripts/sbs.mjs')]),
  step('The script gets a time limit and says when it gave up instead of crashing on an undefined patch.', [
    edit(
      'scripts/sbs.mjs',
      "const patch = structuredPatch(oldFile, newFile, readFileSync(oldFile, 'utf8'), readFileSync(newFile, 'utf8'));\n",
      "// Myers diff is O(N × D): on large, very different files it can run for minutes. Give up after 2 s.\nconst patch = structuredPatch(oldFile, newFile, readFileSync(oldFile, 'utf8'), readFileSync(newFile, 'utf8'), undefined, undefined, { timeout: 2000 });\nif (!patch) {\n    console.error(`${oldFile} and ${newFile} differ too much to diff in 2 s`);\n    process.exit(3);\n}\n",
    ),
  ]),
  step(undefined, [
    bash('node scripts/sbs.mjs examples/big-old.txt examples/big-new.txt --width 40 | head -20; echo "exit ${PIPESTATUS[0]}"'),
  ]),
  step(undefined, [bash(BIG(12000, 4))]),
  step(undefined, [bash('time node scripts/sbs.mjs examples/big-old.txt examples/big-new.txt --width 40 > /dev/null; echo "exit $?"')]),
  say(
    'Myers diff costs about lines × edits: 12,000 lines with 3,000 changes takes seconds, the same files with 6 changes a few milliseconds. diffLines takes `timeout` (ms) and `maxEditLength` and returns undefined when it gives up; structuredPatch passes them on. sbs.mjs now gives up after 2 s with exit 3 and a message, instead of running on or crashing on an undefined patch.',
    ['differ too much to diff in 2 s'],
  ),

  // 8. Applying patches that drifted.
  user(
    'People send us patches made against older versions of our config files. Write scripts/apply.mjs PATCH FILE [--fuzz N] that patches the file in place, and says clearly when it cannot.',
  ),
  step(undefined, [read('src/patch/apply.js')]),
  step('A patch to try it with, from the two example versions:', [
    bash(
      `node -e "import('./src/index.js').then((d) => { const fs = require('fs'); fs.writeFileSync('examples/server.patch', d.createPatch('server.conf', fs.readFileSync('examples/old/server.conf', 'utf8'), fs.readFileSync('examples/new/server.conf', 'utf8'))) })" && cat examples/server.patch`,
    ),
  ]),
  step(undefined, [write('scripts/apply.mjs', APPLY_V1)]),
  step(undefined, [
    bash(
      'cp examples/old/server.conf examples/try.conf && node scripts/apply.mjs examples/server.patch examples/try.conf; echo "exit $?"; cmp examples/try.conf examples/new/server.conf && echo same',
    ),
  ]),
  step('Now a file that drifted: someone turned the log level up since the patch was made.', [
    bash(
      `cp examples/old/server.conf examples/drifted.conf && sed -i 's/^log_level info$/log_level debug/' examples/drifted.conf && node scripts/apply.mjs examples/server.patch examples/drifted.conf; echo "exit $?"`,
    ),
  ]),
  step(undefined, [
    bash(
      'node scripts/apply.mjs examples/server.patch examples/drifted.conf --fuzz 1; echo "exit $?"; diff examples/drifted.conf examples/new/server.conf',
    ),
  ]),
  step(
    'With fuzz 1 it applies and keeps their `log_level debug`. When it fails, the message should say which hunk; applyPatch only returns false, so try the hunks one at a time for the report.',
    [read('scripts/apply.mjs')],
  ),
  step(undefined, [
    edit(
      'scripts/apply.mjs',
      '    console.error(`${patchFile} does not apply to ${target}`);\n',
      "    console.error(`${patchFile} does not apply to ${target}` + (fuzzFactor === 0 ? ' (try --fuzz 1 or 2 if the file has changed since the patch was made)' : ''));\n    // applyPatch says only false: try each hunk alone to name the ones that do not fit.\n    const [patch] = parsePatch(readFileSync(patchFile, 'utf8'));\n    const source = readFileSync(target, 'utf8');\n    for (const hunk of patch.hunks) {\n        if (applyPatch(source, { ...patch, hunks: [hunk] }, { fuzzFactor }) === false) {\n            console.error(`  hunk @@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@ does not fit`);\n        }\n    }\n",
    ),
    edit('scripts/apply.mjs', "import { applyPatch } from '../src/index.js';", "import { applyPatch, parsePatch } from '../src/index.js';"),
  ]),
  step(undefined, [
    bash(
      `cp examples/old/server.conf examples/drifted.conf && sed -i -e 's/^log_level info$/log_level debug/' -e 's/^worker_connections 1024$/worker_connections 2048/' -e 's/^client_max_body_size 10m$/client_max_body_size 50m/' examples/drifted.conf && node scripts/apply.mjs examples/server.patch examples/drifted.conf --fuzz 1; echo "exit $?"`,
    ),
  ]),
  step(undefined, [
    bash(
      'node scripts/apply.mjs examples/server.patch; echo "exit $?"; node scripts/apply.mjs examples/server.patch examples/drifted.conf --fuzz -1; echo "exit $?"',
    ),
  ]),
  step('The first hunk has two drifted context lines, the second one; does fuzz 2 take them?', [
    bash('node scripts/apply.mjs examples/server.patch examples/drifted.conf --fuzz 2; echo "exit $?"'),
  ]),
  say(
    'scripts/apply.mjs PATCH FILE [--fuzz N] patches the file in place and prints "patched FILE"; when the patch does not apply it exits 1, suggests --fuzz when none was given, and names each hunk that does not fit; usage errors exit 2. A file that drifted by one context line applies with --fuzz 1 and keeps its own change; with two drifted lines in one hunk it takes --fuzz 2.',
    ['does not fit'],
  ),

  // 9. Patches of several files.
  user(
    'Our patches usually touch several files. Let apply.mjs take a multi-file patch and a folder: each file named in the patch is patched under that folder, and nothing is written unless every file applies.',
  ),
  step('applyPatches exists; let me see what it does.', [read('src/patch/apply.js', 225, 33)]),
  step(
    'applyPatches is callback-based and writes as it goes (patched is called per file), which cannot give "all or nothing". I will apply each file in memory first and write only when all succeeded.',
    [read('scripts/apply.mjs')],
  ),
  step(undefined, [write('scripts/apply.mjs', APPLY_V2)]),
  step('A two-file patch from the examples:', [
    bash(
      `node -e "import('./src/index.js').then((d) => { const fs = require('fs'); const one = (n) => d.createPatch(n, fs.readFileSync('examples/old/' + n, 'utf8'), fs.readFileSync('examples/new/' + n, 'utf8')); fs.writeFileSync('examples/multi.patch', one('server.conf') + one('app.env')) })" && grep -c "^@@" examples/multi.patch`,
    ),
  ]),
  step(undefined, [
    bash(
      'rm -rf examples/site && mkdir examples/site && cp examples/old/* examples/site/ && node scripts/apply.mjs examples/multi.patch examples/site; echo "exit $?"; diff -r examples/site examples/new && echo "same as new"',
    ),
  ]),
  step('Now one of the two drifted too far: nothing may be written.', [
    bash(
      `cp examples/old/* examples/site/ && sed -i -e 's/^APP_PORT=8080$/APP_PORT=9000/' examples/site/app.env && node scripts/apply.mjs examples/multi.patch examples/site; echo "exit $?"; cmp examples/site/server.conf examples/old/server.conf && echo "server.conf untouched"`,
    ),
  ]),
  step(undefined, [
    bash(
      'node scripts/apply.mjs examples/multi.patch examples/try.conf; echo "exit $?"; cp examples/old/server.conf examples/try.conf && node scripts/apply.mjs examples/server.patch examples/try.conf; echo "exit $?"',
    ),
  ]),
  say(
    'apply.mjs now takes a folder for a multi-file patch: every file is patched in memory first and written only when all of them apply ("nothing was written" otherwise, with the failing file and hunks named); a one-file patch still takes a file; a multi-file patch given a file is a usage error.',
    ['nothing was written'],
  ),

  // 10. Review.
  user("Before I commit: review the day's changes, run everything once more, and give me a commit message."),
  step(undefined, [read('src/diff/word.js', 70, 30)]),
  step(undefined, [read('src/patch/side-by-side.js')]),
  step(undefined, [read('src/util/params.js')]),
  step(undefined, [read('scripts/sbs.mjs')]),
  step(undefined, [read('scripts/apply.mjs')]),
  step(undefined, [grep('sideBySide|mergeOptions', 'src')]),
  step(undefined, [read('test/diff.test.mjs', 60, 60)]),
  step(undefined, [bash('node --test')]),
  step(undefined, [bash('node --test 2>&1 | tail -8')]),
  step(undefined, [bash('node scripts/sbs.mjs examples/old/server.conf examples/new/server.conf --width 40; echo "exit $?"')]),
  step('The generated big files and the trial copies are scratch; they should not be committed.', [
    bash('rm -r examples/big-old.txt examples/big-new.txt examples/try.conf examples/drifted.conf examples/site && ls examples'),
  ]),
  say(
    'Reviewed; 438 tests pass and the script works on the examples. Commit message:\n\nword: keep the whitespace before a word in diffWords tokens\npatch: add sideBySide (one or several files) with tests\nscripts: add sbs.mjs (width, exit codes, 2 s diff timeout) and apply.mjs (fuzz, failing hunks named, several files all or nothing)\nutil: rename generateOptions to mergeOptions\ntest: line-ending helpers round trips',
    ['# pass 438'],
  ),
];

writeScenario(
  'diff-day',
  {
    about:
      'A working day on the `diff` package (BSD-3-Clause, its ESM sources copied from node_modules at run time, one planted bug in word.js), ten related tasks one after another: a diffWords bug, a `sideBySide` renderer with tests, a script around it, multi-file patches in it, tests for the line-ending helpers, a rename, why large files are slow (measured, then a time limit in the script), a script applying patches that drifted, its multi-file mode, and a review. The real `node --test` suite (360 generated cases growing to 438, 1,850–2,300 lines of TAP) runs after each step; files are re-read after edits, searches repeated and outputs recalled. Window: 200,000 tokens. Built by bench/scenarios/build-diff-day.ts.',
    model: { context_window: 200000, max_output: 8192 },
    'x-bench-copy': [{ from: 'diff/libesm', to: 'src' }],
    'x-bench-patch': [{ path: 'src/diff/word.js', old: WORD_OK, new: WORD_BUG }],
    'x-bench-check': `node --test && node -e "import('./src/index.js').then((d) => { if (typeof d.sideBySide !== 'function' || d.diffWords('a  b c', 'a  b d').map((p) => p.value).join('') === '') process.exit(1) })" && ! grep -rq generateOptions src`,
    workspace: {
      'package.json': '{\n  "name": "diff-bench",\n  "private": true,\n  "type": "module"\n}\n',
      'test/diff.test.mjs': SUITE,
      ...EXAMPLES,
    },
    // The user's day: away a while before some messages (idlePattern.ts says from which published figures).
    turns: withIdlePattern(turns),
  },
  120,
);
void recall;
void params;
