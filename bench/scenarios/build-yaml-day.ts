/**
 * Builds `yaml-day.json` (run: `node --import tsx bench/scenarios/build-yaml-day.ts`): a working day on a
 * checkout of js-yaml (MIT; copied from node_modules at run time), ten related tasks one after another:
 * an integer bug, a `maxKeys` load option with tests, a checker script for YAML files, its follow-up for
 * multi-document files, moving the character helpers out of loader.js, a second integer bug found while
 * dumping, and a review. The real `node --test` suite (360 generated cases, 1,850 lines of TAP when
 * everything passes) runs after each step. Edits take their old text from the installed package, so the
 * build fails loudly if the package changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bash, between, edit, grep, packageFile, read, recall, say, step, user, write, writeScenario, type Turn } from './scriptSteps';
import { withIdlePattern } from './idlePattern';

const loader = packageFile('js-yaml/lib/loader.js');
const SUITE = readFileSync(join(__dirname, 'samples', 'yaml-day.suite.mjs'), 'utf8');
// The tests the agent writes for lib/chars.js in task 9 (kept beside the suite so both read as code).
const CHARS_TESTS = readFileSync(join(__dirname, 'samples', 'yaml-day.chars-test.mjs'), 'utf8');

// The two planted bugs (x-bench-patch): octal literals parsed in base 16, negative octal dumped with its sign twice.
const OCTAL_PARSE_OK = "    if (value[1] === 'o') return sign * parseInt(value.slice(2), 8)";
const OCTAL_PARSE_BUG = "    if (value[1] === 'o') return sign * parseInt(value.slice(2), 16)";
const OCTAL_DUMP_OK = "octal: function (obj) { return obj >= 0 ? '0o' + obj.toString(8) : '-0o' + obj.toString(8).slice(1) },";
const OCTAL_DUMP_BUG = "octal: function (obj) { return obj >= 0 ? '0o' + obj.toString(8) : '-0o' + obj.toString(8) },";

const STATE_OPTIONS =
  "  this.maxTotalMergeKeys = typeof options['maxTotalMergeKeys'] === 'number' ? options['maxTotalMergeKeys'] : 10000\n";
const STORE_PAIR = '    setProperty(_result, keyNode, valueNode)\n    delete overridableKeys[keyNode]\n';
const MAXKEYS_CHECK_FIRST =
  '    if (state.maxKeys !== -1 && !_hasOwnProperty.call(_result, keyNode) && Object.keys(_result).length > state.maxKeys) {\n' +
  "      throwError(state, 'mapping keys exceeded maxKeys (' + state.maxKeys + ')')\n" +
  '    }\n\n';
const MAXKEYS_CHECK = MAXKEYS_CHECK_FIRST.replace(
  'Object.keys(_result).length > state.maxKeys',
  'Object.keys(_result).length >= state.maxKeys',
);

// The character helpers task 5 moves to lib/chars.js, exactly as loader.js has them.
const CHAR_HELPERS = between(loader, 'function isEol (c) {', '// set a property of a literal object');
const CHAR_NAMES = [
  'isEol',
  'isWhiteSpace',
  'isWsOrEol',
  'isFlowIndicator',
  'fromHexCode',
  'escapedHexLen',
  'fromDecimalCode',
  'simpleEscapeSequence',
  'charFromCodepoint',
];
for (const name of CHAR_NAMES)
  if (!CHAR_HELPERS.includes(`function ${name} (c)`)) throw new Error(`loader.js no longer defines ${name} there`);
const CHARS_JS =
  "'use strict'\n\n// Character classes and escapes of the YAML grammar, used by the loader (moved out of loader.js).\n\n" +
  CHAR_HELPERS.trimEnd() +
  '\n\nmodule.exports = {\n' +
  CHAR_NAMES.map((n) => `  ${n}`).join(',\n') +
  '\n}\n';
const CHARS_REQUIRE = `const { ${CHAR_NAMES.join(', ')} } = require('./chars')\n`;

const MAXKEYS_TESTS = `describe('maxKeys', () => {
  for (const seed of SEEDS.slice(0, 12)) {
    it(\`refuses a mapping with more keys than allowed, seed \${seed}\`, () => {
      const keys = 2 + (seed % 5);
      const text = Array.from({ length: keys }, (_, i) => \`\${word(seed + i)}\${i}: \${i}\`).join('\\n');
      assert.equal(Object.keys(yaml.load(text, { maxKeys: keys })).length, keys);
      assert.throws(() => yaml.load(text, { maxKeys: keys - 1 }), /exceeded maxKeys/);
    });
  }
});
`;
const STYLE_TESTS = `describe('integer styles', () => {
  for (const seed of SEEDS.slice(0, 40)) {
    const style = ['binary', 'octal', 'decimal', 'hexadecimal'][seed % 4];
    it(\`dump \${style} and load back, seed \${seed}\`, () => {
      const n = (seed % 2 === 0 ? -1 : 1) * (seed * 97 + 3);
      assert.deepEqual(yaml.load(yaml.dump({ n }, { styles: { '!!int': style } })), { n });
    });
  }
});
`;

const CHECK_V1 = `#!/usr/bin/env node
// Checks every .yml/.yaml file under the given folders: prints file:line:column, the reason and the
// snippet for each error, and exits 1 when any file is bad.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import yaml from '../index.js';

function* yamlFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* yamlFiles(path);
    else if (/\\.ya?ml$/.test(entry.name)) yield path;
  }
}

const folders = process.argv.slice(2);
if (folders.length === 0) {
  console.error('usage: yaml-check.mjs FOLDER...');
  process.exit(2);
}
let bad = 0;
let checked = 0;
for (const folder of folders) {
  for (const file of yamlFiles(folder)) {
    checked++;
    try {
      yaml.load(readFileSync(file, 'utf8'), { filename: file });
    } catch (error) {
      if (!(error instanceof yaml.YAMLException)) throw error;
      bad++;
      const { line, column, snippet } = error.mark;
      console.log(\`\${relative('.', file)}:\${line + 1}:\${column + 1}: \${error.reason}\`);
      console.log(snippet + '\\n');
    }
  }
}
console.log(\`\${checked} files checked, \${bad} with errors\`);
process.exit(bad > 0 ? 1 : 0);
`;

const EXAMPLES: Record<string, string> = {
  'examples/good/app.yml': 'name: shop\nport: 8080\nfeatures:\n  - cart\n  - search\ndatabase:\n  host: db.internal\n  pool: 0o12\n',
  'examples/good/ci.yaml':
    'on:\n  push:\n    branches: [main]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npm test\n',
  'examples/good/streams.yaml':
    '# two documents: the defaults, then the production overrides\nlevel: info\nretries: 3\n---\nlevel: warn\nretries: 5\n',
  'examples/bad/duplicate.yml': 'server:\n  host: a.example\n  port: 80\n  host: b.example\n',
  'examples/bad/indent.yaml': 'server:\n  host: a.example\n   port: 80\n',
  'examples/bad/tabs.yml': 'root:\n\tchild: 1\n',
};

const turns: Turn[] = [
  // 1. An integer bug.
  user(
    'Since this morning `node --test` fails part of the integer tests, and a config with `pool: 0o12` loads as 18 instead of 10. Find the cause and fix it.',
  ),
  step("I'll run the suite first.", [bash('node --test')]),
  step('Which tests fail, and how?', [bash('node --test 2>&1 | grep -E "^    not ok" | head -30')], ['# fail 15']),
  step(
    'All of them are the base 8 cases. Let me reproduce with one value.',
    [bash(`node -e "const y = require('./index.js'); console.log(y.load('n: 0o12'), y.load('n: 0x12'), y.load('n: 012'))"`)],
    ['read in base 8'],
  ),
  step('`0o12` gives 18, which is 0x12. Where are octal literals handled?', [grep('0o', 'lib')], ['{ n: 18 }']),
  step(undefined, [read('lib/type/int.js')]),
  step('What does a failing case print in full?', [
    bash('node --test --test-name-pattern="base 8" 2>&1 | grep -B 2 -A 22 "^    not ok" | head -60'),
  ]),
  step('resolveYamlInteger checks the digits are octal, then parseYamlInteger computes the value. How does the loader call these?', [
    grep('resolve\\(|construct\\(', 'lib/loader.js'),
  ]),
  step(undefined, [read('lib/loader.js', 1560, 50)]),
  step('The loader takes whatever construct returns. In parseYamlInteger, `0o` is parsed with radix 16; it must be 8.', [
    edit('lib/type/int.js', OCTAL_PARSE_BUG, OCTAL_PARSE_OK),
  ]),
  step(undefined, [
    bash(`node -e "const y = require('./index.js'); console.log(y.load('n: 0o12'), y.load('n: -0o17'), y.load('n: 0x12'))"`),
  ]),
  step('10 and -15 now. The integer tests:', [bash('node --test --test-name-pattern=integers')]),
  step(undefined, [bash('node --test')]),
  say(
    'Fixed in lib/type/int.js: parseYamlInteger parsed `0o` literals with radix 16 (`parseInt(value.slice(2), 16)`), so `0o12` became 18; it is radix 8 now. resolveYamlInteger already checked the digits. All 360 tests pass.',
    ['# pass 360'],
  ),

  // 2. A maxKeys option.
  user(
    'We load YAML from users. Next to `maxDepth`, add a `maxKeys` load option that refuses a mapping with more keys than that (default: no limit), with tests.',
  ),
  step("Let me see how the loader's existing limits are read and enforced.", [grep('maxDepth|maxTotalMergeKeys', 'lib')]),
  step(undefined, [read('lib/loader.js', 140, 50)]),
  step(undefined, [read('lib/loader.js', 370, 100)]),
  step('And how maxDepth reports itself, to word the new error the same way:', [read('lib/loader.js', 1423, 30)]),
  step('Every key of a block or a flow mapping goes through storeMappingPair? Let me check its callers.', [
    grep('storeMappingPair\\(', 'lib/loader.js'),
  ]),
  step(undefined, [read('lib/loader.js', 772, 110)]),
  step('Flow mappings and block mappings both store through it. I read the option with the other limits:', [
    edit(
      'lib/loader.js',
      STATE_OPTIONS,
      `${STATE_OPTIONS}  this.maxKeys = typeof options['maxKeys'] === 'number' ? options['maxKeys'] : -1\n`,
    ),
  ]),
  step('and check it before a new key is stored (a key seen before replaces its value and does not count).', [
    edit('lib/loader.js', STORE_PAIR, MAXKEYS_CHECK_FIRST + STORE_PAIR),
  ]),
  step(undefined, [
    bash(
      `node -e "const y = require('./index.js'); console.log(y.load('a: 1\\nb: 2\\nc: 3', { maxKeys: 3 })); try { y.load('a: 1\\nb: 2\\nc: 3', { maxKeys: 2 }) } catch (e) { console.log(e.message) }"`,
    ),
  ]),
  step('Three keys with maxKeys 2 were accepted. Now the tests; the test file first, to follow its style.', [read('test/yaml.test.mjs')]),
  step(undefined, [edit('test/yaml.test.mjs', "describe('errors', () => {", `${MAXKEYS_TESTS}describe('errors', () => {`)]),
  step(undefined, [bash('node --test --test-name-pattern=maxKeys')]),
  step(
    'The refusals fail, as the manual check showed: the count is compared before the new key is added, so `>` lets one key too many through.',
    [read('lib/loader.js', 448, 20)],
    ['Missing expected exception'],
  ),
  step(undefined, [edit('lib/loader.js', MAXKEYS_CHECK_FIRST, MAXKEYS_CHECK)]),
  step(undefined, [bash('node --test --test-name-pattern=maxKeys')]),
  step('And flow mappings, which the tests do not cover:', [
    bash(
      `node -e "const y = require('./index.js'); try { y.load('{a: 1, b: 2, c: 3}', { maxKeys: 2 }) } catch (e) { console.log(e.message) }"`,
    ),
  ]),
  step('A key repeated in a mapping must still report the duplicate, not the limit:', [
    bash(
      `node -e "const y = require('./index.js'); try { y.load('a: 1\\nb: 2\\na: 3', { maxKeys: 2 }) } catch (e) { console.log(e.message) }"`,
    ),
  ]),
  step(undefined, [bash('node --test')]),
  say(
    'Added `maxKeys` to lib/loader.js: read in State beside maxDepth (default -1, no limit) and checked in storeMappingPair before a new key is stored, so block and flow mappings are both covered (a repeated key that is allowed to override does not count). The error reads "mapping keys exceeded maxKeys (N)" with the usual line and snippet. 12 new tests; all 372 pass.',
    ['# pass 372'],
  ),

  // 3. A checker script.
  user(
    'Write scripts/yaml-check.mjs: given folders, check every .yml/.yaml file under them and print file:line:column with the reason and the snippet for each error; exit 1 when any file is bad. Try it on examples/.',
  ),
  step('Let me see what a YAMLException carries.', [read('lib/exception.js')]),
  step(undefined, [read('lib/snippet.js')]),
  step('Where does the loader put the file name?', [grep('filename', 'lib')]),
  step(undefined, [bash('find examples -type f | sort && cat package.json')]),
  step('The package is CommonJS; an .mjs script can import index.js as a default export.', [write('scripts/yaml-check.mjs', CHECK_V1)]),
  step(undefined, [bash('node scripts/yaml-check.mjs examples; echo "exit $?"')]),
  step(
    'It crashed: a YAMLException without a mark. Errors about the whole stream have no position; report those with the file name only.',
    [
      edit(
        'scripts/yaml-check.mjs',
        '      const { line, column, snippet } = error.mark;',
        "      if (!error.mark) {\n        // Errors about the whole stream (several documents where one is expected) have no position.\n        console.log(`${relative('.', file)}: ${error.reason}`);\n        continue;\n      }\n      const { line, column, snippet } = error.mark;",
      ),
    ],
    ["Cannot destructure property 'line'"],
  ),
  step(undefined, [bash('node scripts/yaml-check.mjs examples; echo "exit $?"')]),
  step(
    'streams.yaml is reported, but it is valid: it holds two documents and `load` accepts only one. The file comment says so:',
    [read('examples/good/streams.yaml')],
    ['expected a single document in the stream'],
  ),
  step('A config stream is legitimate YAML; the checker must use loadAll.', [
    edit(
      'scripts/yaml-check.mjs',
      "      yaml.load(readFileSync(file, 'utf8'), { filename: file });",
      "      yaml.loadAll(readFileSync(file, 'utf8'), null, { filename: file });",
    ),
  ]),
  step(undefined, [bash('node scripts/yaml-check.mjs examples; echo "exit $?"')]),
  step('Three bad files, each with its line. The good folder alone must exit 0:', [
    bash('node scripts/yaml-check.mjs examples/good; echo "exit $?"'),
  ]),
  step(undefined, [
    bash('node scripts/yaml-check.mjs; echo "exit $?"; node scripts/yaml-check.mjs examples/bad > /dev/null; echo "exit $?"'),
  ]),
  say(
    'scripts/yaml-check.mjs walks the given folders, loads every .yml/.yaml file with loadAll (multi-document streams such as examples/good/streams.yaml are valid), and prints `file:line:column: reason` and the snippet for each error; it exits 1 when a file is bad and 2 without a folder. On examples/: duplicate.yml (duplicated mapping key, 4:3), indent.yaml (bad indentation of a mapping entry, 3:8), tabs.yml (tab in indentation, 2:1).',
  ),

  // 4. Follow-up: the checker in CI.
  user('In CI I want one line per error and no snippets. Add `--compact`, and make the file order stable.'),
  step(undefined, [read('scripts/yaml-check.mjs')]),
  step('formatError already has a compact form: YAMLException.toString(compact).', [grep('toString', 'lib/exception.js')]),
  step(undefined, [read('lib/exception.js', 40, 15)]),
  step(undefined, [
    edit(
      'scripts/yaml-check.mjs',
      'const folders = process.argv.slice(2);',
      "const compact = process.argv.includes('--compact');\nconst folders = process.argv.slice(2).filter((a) => a !== '--compact');",
    ),
  ]),
  step(undefined, [
    edit(
      'scripts/yaml-check.mjs',
      "      console.log(`${relative('.', file)}:${line + 1}:${column + 1}: ${error.reason}`);\n      console.log(snippet + '\\n');",
      "      console.log(`${relative('.', file)}:${line + 1}:${column + 1}: ${error.reason}`);\n      if (!compact) console.log(snippet + '\\n');",
    ),
  ]),
  step('readdirSync order depends on the file system; sort the entries.', [
    edit(
      'scripts/yaml-check.mjs',
      '  for (const entry of readdirSync(dir, { withFileTypes: true })) {',
      '  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));\n  for (const entry of entries) {',
    ),
  ]),
  step(undefined, [bash('node scripts/yaml-check.mjs --compact examples; echo "exit $?"')]),
  step(undefined, [bash('node scripts/yaml-check.mjs examples/bad; echo "exit $?"')]),
  step(undefined, [read('scripts/yaml-check.mjs')]),
  say(
    '`--compact` prints one `file:line:column: reason` line per error and no snippet; entries are sorted by name in each folder, so the order is stable. Without the flag the output is as before.',
    ['exit 1'],
  ),

  // 5. Moving the character helpers out of loader.js.
  user(
    'loader.js is 1,800 lines. Move the character-class and escape helpers at its top (isEol … charFromCodepoint) into lib/chars.js, no behaviour change.',
  ),
  step(undefined, [read('lib/loader.js', 1, 125)]),
  step('Which of them are used outside loader.js?', [
    grep(
      'isEol|isWhiteSpace|isWsOrEol|isFlowIndicator|fromHexCode|escapedHexLen|fromDecimalCode|simpleEscapeSequence|charFromCodepoint',
      'lib',
    ),
  ]),
  step(
    'Only loader.js uses them; dumper.js has its own isWhitespace with different rules (it also accepts BOM checks elsewhere). Let me confirm before leaving it alone.',
    [read('lib/dumper.js', 175, 50)],
  ),
  step("dumper's isWhitespace is a different predicate (space and tab only, for output); it stays. Moving the nine helpers:", [
    write('lib/chars.js', CHARS_JS),
  ]),
  step(undefined, [edit('lib/loader.js', CHAR_HELPERS, '')]),
  step(undefined, [
    edit('lib/loader.js', "const makeSnippet = require('./snippet')\n", `const makeSnippet = require('./snippet')\n${CHARS_REQUIRE}`),
  ]),
  step(undefined, [bash('node --test')]),
  step('Still 372. Any helper left in loader.js, or a name I missed?', [
    grep(
      '^function (isEol|isWhiteSpace|isWsOrEol|isFlowIndicator|fromHexCode|escapedHexLen|fromDecimalCode|simpleEscapeSequence|charFromCodepoint)',
      'lib',
    ),
  ]),
  step(undefined, [read('lib/loader.js', 1, 40)]),
  step(undefined, [bash('wc -l lib/loader.js lib/chars.js && node scripts/yaml-check.mjs --compact examples; echo "exit $?"')]),
  step('The simpleEscapeSequence table is built from it at load time; let me check that still happens in loader.js.', [
    grep('simpleEscapeCheck|simpleEscapeMap', 'lib/loader.js'),
  ]),
  step(undefined, [read('lib/loader.js', 255, 30)]),
  say(
    'Moved isEol, isWhiteSpace, isWsOrEol, isFlowIndicator, fromHexCode, escapedHexLen, fromDecimalCode, simpleEscapeSequence and charFromCodepoint to lib/chars.js unchanged; loader.js requires them (the escape tables are still built in loader.js from simpleEscapeSequence). dumper.js keeps its own output predicates. All 372 tests pass and the checker gives the same output.',
    ['# pass 372'],
  ),

  // 6. A second integer bug, found while dumping.
  user(
    "Another one: `yaml.dump({ n: -15 }, { styles: { '!!int': 'octal' } })` writes `n: -0o-17`, which loads back as a string. Fix it and test every integer style, negative numbers included.",
  ),
  step(undefined, [
    bash(
      `node -e "const y = require('./index.js'); for (const s of ['binary', 'octal', 'decimal', 'hexadecimal']) { const out = y.dump({ n: -15 }, { styles: { '!!int': s } }); console.log(s, JSON.stringify(out), y.load(out)) }"`,
    ),
  ]),
  step(
    'Only octal is wrong. The styles map to the represent functions of the int type:',
    [grep('styleMap|represent\\[', 'lib/dumper.js')],
    ['-0o-17'],
  ),
  step(undefined, [read('lib/dumper.js', 725, 50)]),
  step(undefined, [read('lib/type/int.js')]),
  step("binary and hexadecimal drop the '-' of toString with slice(1); octal keeps it.", [
    edit('lib/type/int.js', OCTAL_DUMP_BUG, OCTAL_DUMP_OK),
  ]),
  step(undefined, [
    bash(
      `node -e "const y = require('./index.js'); for (const s of ['binary', 'octal', 'decimal', 'hexadecimal']) { const out = y.dump({ n: -15 }, { styles: { '!!int': s } }); console.log(s, JSON.stringify(out), y.load(out)) }"`,
    ),
  ]),
  step('Now the tests, after the integer group.', [read('test/yaml.test.mjs', 70, 40)]),
  step(undefined, [
    edit('test/yaml.test.mjs', "describe('flow collections', () => {", `${STYLE_TESTS}describe('flow collections', () => {`),
  ]),
  step(undefined, [bash('node --test --test-name-pattern="integer styles"')]),
  step(undefined, [bash('node --test')]),
  step('Does anything else in the repository format negative numbers per base?', [grep('toString\\((2|8|16)\\)', 'lib')]),
  say(
    "Fixed lib/type/int.js: the octal style wrote `'-0o' + obj.toString(8)`, and toString(8) of a negative number already has its '-', so -15 became `-0o-17`; it drops it with slice(1) like binary and hexadecimal. 40 new tests dump and load every style with positive and negative numbers; all 412 pass.",
    ['# pass 412'],
  ),

  // 7. The cost of the limit.
  user('A colleague says loading a big mapping with `maxKeys: 100000` is far slower than without it. Check, and fix it if so.'),
  step('Let me time one mapping of 3,000 and one of 6,000 keys, with and without the option.', [
    bash(
      `node -e "const y = require('./index.js'); for (const n of [3000, 6000]) { const text = Array.from({ length: n }, (_, i) => 'k' + i + ': ' + i).join('\\\\n'); let t = Date.now(); y.load(text); const plain = Date.now() - t; t = Date.now(); y.load(text, { maxKeys: 100000 }); console.log(n, 'keys:', plain, 'ms without,', Date.now() - t, 'ms with maxKeys') }"`,
    ),
  ]),
  step(
    'Twice the keys, about four times the time with the option: quadratic. My check counts the keys with Object.keys on every new key.',
    [read('lib/loader.js', 445, 20)],
  ),
  step('A count per mapping object is enough; a WeakMap keeps it off the result and lets it go with the object.', [
    grep('this.totalMergeKeys = 0', 'lib/loader.js'),
  ]),
  step(undefined, [
    edit(
      'lib/loader.js',
      '  this.totalMergeKeys = 0\n',
      '  this.totalMergeKeys = 0\n  // Keys stored per mapping object, for maxKeys (counting them with Object.keys on every key is quadratic).\n  this.keyCounts = new WeakMap()\n',
    ),
  ]),
  step(undefined, [
    edit(
      'lib/loader.js',
      MAXKEYS_CHECK,
      "    if (state.maxKeys !== -1 && !_hasOwnProperty.call(_result, keyNode)) {\n      const count = (state.keyCounts.get(_result) || 0) + 1\n      if (count > state.maxKeys) {\n        throwError(state, 'mapping keys exceeded maxKeys (' + state.maxKeys + ')')\n      }\n      state.keyCounts.set(_result, count)\n    }\n\n",
    ),
  ]),
  step(undefined, [
    bash(
      `node -e "const y = require('./index.js'); for (const n of [3000, 6000]) { const text = Array.from({ length: n }, (_, i) => 'k' + i + ': ' + i).join('\\\\n'); let t = Date.now(); y.load(text); const plain = Date.now() - t; t = Date.now(); y.load(text, { maxKeys: 100000 }); console.log(n, 'keys:', plain, 'ms without,', Date.now() - t, 'ms with maxKeys') }"`,
    ),
  ]),
  step('Merged keys (`<<`) are set by mergeMappings, not through this check; do they still count against the limit?', [
    read('lib/loader.js', 382, 25),
  ]),
  step(undefined, [
    bash(
      `node -e "const y = require('./index.js'); try { console.log(y.load('base: &b {x: 1, y: 2}\\\\nm:\\\\n  <<: *b\\\\n  z: 3', { maxKeys: 2 })) } catch (e) { console.log(e.message) }"`,
    ),
  ]),
  step(undefined, [bash('node --test --test-name-pattern=maxKeys')]),
  step(undefined, [bash('node --test')]),
  say(
    'It was quadratic: the check counted keys with Object.keys for every new key. A per-mapping count in a WeakMap on the loader state makes it linear (6,000 keys now take about the same with and without the option). Keys brought in by a merge (`<<`) are not counted, as before: maxTotalMergeKeys bounds those. All 412 tests pass.',
    ['# pass 412'],
  ),

  // 8. The checker gets the limit.
  user('Let the checker take `--max-keys N` and pass it on, so CI refuses oversized configs too. Add an example that trips it.'),
  step(undefined, [read('scripts/yaml-check.mjs')]),
  step(undefined, [
    edit(
      'scripts/yaml-check.mjs',
      "const folders = process.argv.slice(2).filter((a) => a !== '--compact');",
      "const maxKeysAt = process.argv.indexOf('--max-keys');\nconst maxKeys = maxKeysAt === -1 ? -1 : Number(process.argv[maxKeysAt + 1]);\nif (maxKeysAt !== -1 && !(Number.isInteger(maxKeys) && maxKeys > 0)) {\n  console.error('--max-keys needs a positive whole number');\n  process.exit(2);\n}\nconst folders = process.argv.slice(2).filter((a, i, all) => a !== '--compact' && a !== '--max-keys' && all[i - 1] !== '--max-keys');",
    ),
  ]),
  step(undefined, [
    edit(
      'scripts/yaml-check.mjs',
      "      yaml.loadAll(readFileSync(file, 'utf8'), null, { filename: file });",
      "      yaml.loadAll(readFileSync(file, 'utf8'), null, { filename: file, maxKeys });",
    ),
  ]),
  step(undefined, [
    bash(
      `mkdir -p examples/large && node -e "console.log(Array.from({ length: 60 }, (_, i) => 'flag_' + i + ': ' + (i % 2 === 0)).join('\\\\n'))" > examples/large/flags.yml && wc -l examples/large/flags.yml`,
    ),
  ]),
  step(undefined, [bash('node scripts/yaml-check.mjs --compact --max-keys 50 examples; echo "exit $?"')]),
  step(undefined, [
    bash(
      'node scripts/yaml-check.mjs --max-keys 50 examples/large; echo "exit $?"; node scripts/yaml-check.mjs --max-keys x examples; echo "exit $?"',
    ),
  ]),
  step(undefined, [bash('node scripts/yaml-check.mjs --compact examples/good examples/large; echo "exit $?"')]),
  say(
    '`--max-keys N` passes maxKeys to the loader (a missing or non-positive value exits 2 with a message); examples/large/flags.yml has 60 keys and is refused at `--max-keys 50`, accepted without it.',
    ['exceeded maxKeys (50)'],
  ),

  // 9. Tests for the moved helpers.
  user('chars.js has no tests of its own. Add a test file for it, especially the escapes.'),
  step(undefined, [read('lib/chars.js')]),
  step('How does the loader use the escape helpers, to test what it relies on?', [
    grep('escapedHexLen|fromHexCode|simpleEscapeSequence|charFromCodepoint', 'lib/loader.js'),
  ]),
  step(undefined, [read('lib/loader.js', 610, 70)]),
  step(undefined, [write('test/chars.test.mjs', CHARS_TESTS)]),
  step(undefined, [bash('node --test test/chars.test.mjs')]),
  step('And end to end, through a double-quoted scalar:', [
    bash(
      String.raw`node -e 'const y = require("./index.js"); console.log(JSON.stringify(y.load("s: \"a\\tb\\x41\\u00e9\\U0001F600\\N\"")))'`,
    ),
  ]),
  step('An unknown escape must still be refused with its position:', [
    bash(String.raw`node -e 'const y = require("./index.js"); try { y.load("s: \"a\\qb\"") } catch (e) { console.log(e.message) }'`),
  ]),
  step(undefined, [bash('node --test')]),
  say(
    'test/chars.test.mjs: 17 tests of the helpers (line ends and flow indicators, hex digits, the length of \\x, \\u and \\U escapes, the single-character escapes including \\N, \\_ and \\P, surrogate pairs); a double-quoted scalar with each kind of escape loads as expected and an unknown escape is refused. The whole suite: 429 pass.',
    ['# pass 429'],
  ),

  // 10. Review.
  user(
    'Before I commit: review everything we changed today, run the suite and the checker once more, and give me a summary for the commit message.',
  ),
  step(undefined, [read('lib/type/int.js', 90, 40)]),
  step(undefined, [read('lib/chars.js')]),
  step(undefined, [read('test/chars.test.mjs')]),
  step(undefined, [grep('maxKeys|keyCounts', 'lib')]),
  step(undefined, [read('lib/loader.js', 20, 15)]),
  step(undefined, [read('lib/loader.js', 58, 50)]),
  step(undefined, [read('lib/loader.js', 340, 50)]),
  step(undefined, [read('scripts/yaml-check.mjs')]),
  step(undefined, [read('test/yaml.test.mjs', 60, 90)]),
  step(undefined, [bash('node --test')]),
  step(undefined, [bash('node --test 2>&1 | tail -8')]),
  step(undefined, [bash('node scripts/yaml-check.mjs --compact examples; echo "exit $?"')]),
  say(
    'Reviewed; the suite passes (429) and the checker reports the three bad examples. Commit message:\n\nint: parse 0o literals in base 8 and dump negative octal with one sign\nloader: add the maxKeys option (block and flow mappings, counted per mapping) with tests\nloader: move the character helpers to lib/chars.js\nscripts: add yaml-check.mjs (loadAll, --compact, --max-keys, stable order)\ntest: maxKeys, integer styles, chars.js',
    ['# pass 429'],
  ),
];

writeScenario(
  'yaml-day',
  {
    about:
      "A working day on a checkout of js-yaml 4 (MIT, copied from node_modules at run time, two planted bugs in lib/type/int.js), ten related tasks one after another: an octal parsing bug, a `maxKeys` load option with tests, a checker script for YAML folders, its `--compact` follow-up, moving loader.js's character helpers into their own file, a second octal bug found while dumping, making the new limit linear, the limit in the checker, tests for the moved helpers, and a review. The real `node --test` suite (360 generated cases growing to 429, 1,850–2,250 lines of TAP) runs after each step; files are re-read after edits and searches repeated. Window: 200,000 tokens. Built by bench/scenarios/build-yaml-day.ts.",
    model: { context_window: 200000, max_output: 8192 },
    'x-bench-copy': [{ from: 'js-yaml', to: '.' }],
    'x-bench-patch': [
      { path: 'lib/type/int.js', old: OCTAL_PARSE_OK, new: OCTAL_PARSE_BUG },
      { path: 'lib/type/int.js', old: OCTAL_DUMP_OK, new: OCTAL_DUMP_BUG },
    ],
    'x-bench-check': `node --test && node -e "const y = require('./index.js'); const out = y.dump({ n: -15 }, { styles: { '!!int': 'octal' } }); if (y.load('n: 0o12').n !== 10 || !out.includes('-0o17') || y.load(out).n !== -15) process.exit(1)" && test -f lib/chars.js && node scripts/yaml-check.mjs examples/good`,
    workspace: { 'test/yaml.test.mjs': SUITE, ...EXAMPLES },
    // The user's day: away a while before some messages (idlePattern.ts says from which published figures).
    turns: withIdlePattern(turns),
  },
  120,
);
void recall;
