/**
 * Builds `wide-search.json` and `wide-search-inline.json` (run: `node --import tsx
 * bench/scenarios/build-wide-search.ts`): the same piece of work on the `semver` package's sources
 * (ISC; copied from node_modules at run time), once with the search delegated and once done inline.
 *
 * The task: every place that swallows the TypeError of an invalid version or range (`catch (er)` that
 * returns null or false) should say so through `debug` (`NODE_DEBUG=semver`). That needs a wide search
 * first — which constructors run inside a `try`, what each catch returns, who gets the null — across
 * functions/, ranges/ and classes/. In `wide-search` the parent sends two `explore` children in one
 * response (functions/ in one, ranges/ and classes/ in the other) and works from their answers; in
 * `wide-search-inline` the parent runs exactly the children's tool calls itself, in the same order, and
 * then writes the same edits. What differs is only who carried the search's results in its context.
 *
 * The children's answers are built from what their greps and reads return on the installed package
 * (file, line, what the catch returns), so they are true; every edit takes its old text from the
 * package, so a changed package fails the build instead of editing nothing.
 */
import { BENCH_MODEL } from '../benchModel';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  bash,
  childStep,
  edit,
  grep,
  packageFile,
  read,
  say,
  step,
  task,
  user,
  writeScenario,
  type ToolCall,
  type Turn,
} from './scriptSteps';

const FOLDERS = ['functions', 'ranges', 'classes'] as const;
const CATCH = '} catch (er) {\n';
const DEBUG_REQUIRE = "const debug = require('../internal/debug')\n";
const MESSAGE = 'invalid input ignored:';

interface CatchSite {
  readonly path: string;
  readonly line: number;
  /** The statement right after the catch (`return null`, `return false`). */
  readonly next: string;
  readonly text: string;
}

const files = FOLDERS.flatMap((folder) =>
  readdirSync(join(__dirname, '..', '..', 'node_modules', 'semver', folder))
    .filter((name) => name.endsWith('.js'))
    .sort()
    .map((name) => `${folder}/${name}`),
);

const sites: CatchSite[] = files.flatMap((path) => {
  const text = packageFile(`semver/${path}`);
  const at = text.indexOf(CATCH);
  if (at < 0) return [];
  if (text.indexOf(CATCH, at + 1) >= 0) throw new Error(`${path} has two catch blocks: the edit below would be ambiguous`);
  const line = text.slice(0, at).split('\n').length;
  const next = text.slice(at + CATCH.length).split('\n')[0]!;
  return [{ path, line, next, text }];
});
if (sites.length !== 8) throw new Error(`expected 8 catch sites in semver, found ${sites.length}: has the package changed?`);

const parseCallers = files.filter((path) => path.startsWith('functions/') && packageFile(`semver/${path}`).includes("require('./parse')"));
/** `functions/inc.js:17 (returns null)`; parse.js's catch rethrows when asked to: `(returns null unless throwErrors)`. */
function describeSite(site: CatchSite): string {
  const after = site.text.slice(site.text.indexOf(CATCH) + CATCH.length);
  const value = /return (\w+)/.exec(after)?.[1];
  const condition = /^\s*if \(!(\w+)\)/.exec(site.next)?.[1];
  if (!value) throw new Error(`${site.path}: no return after the catch`);
  return `${site.path}:${site.line} (returns ${value}${condition ? ` unless ${condition}` : ''})`;
}
const inFolder = (prefixes: readonly string[]) => sites.filter((s) => prefixes.some((p) => s.path.startsWith(p)));

// The children's prompts, as the parent writes them in its task calls.
const PROMPT_FUNCTIONS =
  'In functions/ of this semver checkout: find every place that constructs a SemVer or Range inside a try and swallows the error (catch (er) that returns instead of throwing). For each give file:line and what the catch returns. Also list the functions that call parse() and so get null for an invalid version. Answer with the list only.';
const PROMPT_RANGES =
  'In ranges/ and classes/ of this semver checkout: find every place that constructs a SemVer, Range or Comparator inside a try and swallows the error (catch (er) that returns instead of throwing). For each give file:line and what the catch returns, and say whether the file already has debug in scope. Answer with the list only.';

const NEW_ANY = 'new (SemVer|Range|Comparator)\\(';
const CATCH_PATTERN = 'catch \\(er\\)';

/** explore-1's own steps: functions/. */
const functionsSearch: ToolCall[][] = [
  [grep(NEW_ANY, 'functions'), grep(CATCH_PATTERN, 'functions')],
  inFolder(['functions/']).map((s) => read(s.path)),
  [grep("require\\('\\./parse'\\)", 'functions')],
];
const functionsAnswer = [
  `functions/ swallows the error in ${inFolder(['functions/']).length} places:`,
  ...inFolder(['functions/']).map((s) => `- ${describeSite(s)}`),
  `Every other constructor call in functions/ is outside a try and lets the TypeError through.`,
  `parse() is called by ${parseCallers.join(', ')}: they get null for an invalid version, through parse.js's catch.`,
].join('\n');

/** explore-2's own steps: ranges/ and classes/. */
const rangesSearch: ToolCall[][] = [
  [grep(NEW_ANY, 'ranges'), grep(NEW_ANY, 'classes')],
  [grep(CATCH_PATTERN, 'ranges'), grep(CATCH_PATTERN, 'classes')],
  [read('classes/range.js'), read('classes/comparator.js')],
  inFolder(['ranges/']).map((s) => read(s.path)),
];
const hasDebug = (site: CatchSite): boolean => site.text.includes("require('../internal/debug')");
const rangesAnswer = [
  `ranges/ and classes/ swallow the error in ${inFolder(['ranges/', 'classes/']).length} places:`,
  ...inFolder(['ranges/', 'classes/']).map(
    (s) => `- ${describeSite(s)}${hasDebug(s) ? ', debug already required' : ', no debug in scope'}`,
  ),
  'The other constructions (subset, intersects, outside, simplify, min-version, …) are outside a try and throw.',
].join('\n');

/** The parent's edits, the same in both scenarios: one step per file, the require first where debug is missing. */
const editSteps: Turn[] = sites.map((site, i) => {
  const indent = /^\s*/.exec(site.next)![0];
  const calls: ToolCall[] = [];
  if (!hasDebug(site)) {
    const firstRequire = /^const .* = require\(.*\)\n/m.exec(site.text)?.[0];
    if (!firstRequire) throw new Error(`${site.path}: no require line to put debug after`);
    calls.push(edit(site.path, firstRequire, firstRequire + DEBUG_REQUIRE));
  }
  calls.push(edit(site.path, `${CATCH}${site.next}\n`, `${CATCH}${indent}debug('${MESSAGE}', er.message)\n${site.next}\n`));
  return step(i === 0 ? 'Now the edits, one file at a time.' : undefined, calls);
});

const CHECK_SCRIPT = [
  "const s = require('./index.js');",
  "const r = [s.valid('nope'), s.inc('nope', 'major'), s.satisfies('1.2.3', '>=nope'), s.validRange('>=nope'),",
  "s.maxSatisfying(['1.2.3'], '>=nope'), s.minSatisfying(['1.2.3'], '>=nope'),",
  "new s.Range('>=1.0.0').test('nope'), new s.Comparator('>=1.0.0').test('nope')]",
  '; console.log(JSON.stringify(r))',
].join(' ');
const CHECK = `NODE_DEBUG=semver node -e "${CHECK_SCRIPT}" 2>&1 | grep -c '${MESSAGE}'`;

const USER =
  "In this semver checkout, every place that catches the TypeError of an invalid version or range and returns null/false instead should report it through debug (NODE_DEBUG=semver), e.g. debug('invalid input ignored:', er.message). Find all of them across functions/, ranges/ and classes/ first, then make the change and check that each one reports.";

const finish: Turn[] = [
  step('All eight edits are in. Checking that each swallowed error now reports under NODE_DEBUG=semver.', [bash(CHECK)]),
  say(
    `Done. The ${sites.length} places that swallow an invalid version or range now report it through debug before returning:\n${sites
      .map((s) => `- ${s.path}`)
      .join('\n')}\nWith NODE_DEBUG=semver each of the eight calls in the check printed "${MESSAGE} …" once; without it nothing changes.`,
  ),
];

const common = {
  model: { id: BENCH_MODEL, context_window: 200000, max_output: 64000 },
  'x-bench-copy': [{ from: 'semver', to: '.' }],
  'x-bench-check': `test "$(${CHECK})" = ${sites.length}`,
};

const delegated: Turn[] = [
  user(USER),
  step('The search is wide and only its answer matters here: two explore agents, one for functions/, one for ranges/ and classes/.', [
    task('swallowed errors in functions/', PROMPT_FUNCTIONS, 'explore'),
    task('swallowed errors in ranges/ and classes/', PROMPT_RANGES, 'explore'),
  ]),
  ...functionsSearch.map((calls) => childStep('explore-1', undefined, calls)),
  childStep('explore-1', functionsAnswer, []),
  ...rangesSearch.map((calls) => childStep('explore-2', undefined, calls)),
  childStep('explore-2', rangesAnswer, []),
  ...editSteps,
  ...finish,
];

const inline: Turn[] = [
  user(USER),
  step('First the search: functions/, then ranges/ and classes/.', functionsSearch[0]!),
  ...functionsSearch.slice(1).map((calls) => step(undefined, calls)),
  ...rangesSearch.map((calls) => step(undefined, calls)),
  ...editSteps.map((turn, i) =>
    i === 0
      ? step(
          `${functionsAnswer}\n\n${rangesAnswer}\n\nNow the edits, one file at a time.`,
          (turn as { assistant: { tool_calls: ToolCall[] } }).assistant.tool_calls,
        )
      : turn,
  ),
  ...finish,
];

const ABOUT =
  'A wide search on the semver package (ISC, copied from node_modules): find the eight places that swallow an invalid version or range, then report each through debug.';

writeScenario(
  'wide-search',
  {
    about: `${ABOUT} The search is delegated to two parallel explore children; the parent works from their answers.`,
    ...common,
    'x-bench-inline': 'wide-search-inline.json',
    turns: delegated,
  },
  20,
);
writeScenario(
  'wide-search-inline',
  { about: `${ABOUT} The same tool calls as wide-search's children, done by the parent itself.`, ...common, turns: inline },
  15,
);
