/**
 * `npm run bench -- economy [--scenario FILE]... [--json]`, `npm run bench -- peers [--agent NAME]... [--scenario FILE]... [--model ID] [--json]` and `npm run bench -- hot [--heavy] [--only GROUP,...] [--json]`.
 * Benchmarks report ratios measured side by side in one run; they never fail on a time. The exit code is
 * non-zero only when a benchmark could not run (a broken scenario, a missing build).
 */
import { readdir, writeFile } from 'node:fs/promises';
import { BENCH_MODEL } from './benchModel';
import { arch, cpus, platform, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { CANDIDATES, candidatesMarkdown, runCandidate } from './economy/candidates';
import { loadBenchScenario, SCENARIOS_DIR } from './economy/benchScenario';
import { economyMarkdown } from './economy/report';
import { runEconomy, traceStrategy, type EconomyResult } from './economy/runEconomy';
import { STRATEGIES, type StrategyName } from './economy/strategies';
import { hotMarkdown } from './hot/report';
import { agentsNamed } from './peers/agents';
import { peersMarkdown } from './peers/report';
import { runPeers } from './peers/runPeers';
import { checkpointMarkdown, measureShape, SHAPES } from './checkpoints/checkpointCost';
import { DEFAULT_MAX_STEPS, historyMarkdown, runHistory } from '../test/reliability/history/run';

function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'unknown CPU'}, ${Math.round(totalmem() / 2 ** 30)} GiB, ${platform()} ${arch()}, Node ${process.version}`;
}

async function scenarioFiles(given: readonly string[]): Promise<string[]> {
  if (given.length > 0) return given.map((f) => resolve(f));
  const names = (await readdir(SCENARIOS_DIR)).filter((n) => n.endsWith('.json')).sort();
  return names.map((n) => join(SCENARIOS_DIR, n));
}

async function economy(args: readonly string[], json: boolean): Promise<void> {
  const given: string[] = [];
  for (let i = 0; i < args.length; i++) if (args[i] === '--scenario' && args[i + 1]) given.push(args[++i]!);
  const results: EconomyResult[] = [];
  for (const file of await scenarioFiles(given)) {
    const bench = await loadBenchScenario(file);
    if (!json) process.stderr.write(`economy: ${bench.name} …\n`);
    results.push(await runEconomy(bench));
  }
  if (json) await emitJson({ date: new Date().toISOString(), machine: machine(), economy: results });
  else process.stdout.write(`# Token economy — ${new Date().toISOString()}\n\n${machine()}\n\n${economyMarkdown(results)}`);
}

/** `peers`: every scenario through Cairn and the peer agents, on the same meter. */
async function peers(args: readonly string[], json: boolean): Promise<void> {
  const given: string[] = [];
  const names: string[] = [];
  let model = BENCH_MODEL;
  let markdownFile: string | undefined;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--scenario' && args[i + 1]) given.push(args[++i]!);
    else if (args[i] === '--agent' && args[i + 1]) names.push(args[++i]!);
    else if (args[i] === '--model' && args[i + 1]) model = args[++i]!;
    else if (args[i] === '--markdown' && args[i + 1]) markdownFile = args[++i]!;
  }
  const run = await runPeers({
    files: await scenarioFiles(given),
    agents: agentsNamed(names),
    model,
    machine: machine(),
    progress: (line) => process.stderr.write(`${line}\n`),
  });
  const markdown = `# Cairn and the agents people use — ${run.report.date}\n\n${run.report.machine}; model ${run.report.model}\n\n${peersMarkdown(run)}`;
  // --markdown FILE keeps the Markdown (with where each agent's tokens go) beside a --json run.
  if (markdownFile) await writeFile(markdownFile, markdown);
  if (json) await emitJson(run.report);
  // The JSON holds the table's rows only: with `--out FILE` stdout is free, and the Markdown's unmet needs,
  // notices and categories would otherwise be lost (session 9 lost them on two runs).
  if (!json || jsonOut !== undefined) process.stdout.write(markdown);
}

/** `trace --scenario FILE [--strategy naive|rewrite|cairn]`: per-request cache figures, to see where a goal is missed. */
async function trace(args: readonly string[]): Promise<void> {
  const at = (flag: string) => (args.indexOf(flag) >= 0 ? args[args.indexOf(flag) + 1] : undefined);
  const file = at('--scenario');
  const strategy = (at('--strategy') ?? 'cairn') as StrategyName;
  if (!file || !STRATEGIES.includes(strategy)) throw new Error(`trace needs --scenario FILE and --strategy ${STRATEGIES.join('|')}.`);
  const lines = await traceStrategy(await loadBenchScenario(resolve(file)), strategy);
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `candidates --scenario FILE [--candidate NAME]...`: candidate measures beside Cairn as built (issue 16 §3). */
async function candidates(args: readonly string[], json: boolean): Promise<void> {
  const files: string[] = [];
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--scenario' && args[i + 1]) files.push(args[++i]!);
    else if (args[i] === '--candidate' && args[i + 1]) names.push(args[++i]!);
  }
  if (files.length === 0) throw new Error(`candidates needs --scenario FILE (candidates: ${Object.keys(CANDIDATES).join(', ')}).`);
  // --no-baseline: the candidates alone, beside a Cairn row measured in an earlier run (its ratios are then left blank).
  const baseline = args.includes('--no-baseline') ? [] : ['cairn'];
  const chosen = [...baseline, ...(names.length > 0 ? names : Object.keys(CANDIDATES)).filter((n) => n !== 'cairn')];
  const results = [];
  for (const file of files) {
    const bench = await loadBenchScenario(resolve(file));
    const runs = [];
    for (const name of chosen) {
      process.stderr.write(`candidates: ${bench.name} ${name} …\n`);
      runs.push(await runCandidate(bench, resolve(file), name));
    }
    results.push({ scenario: bench.name, runs });
  }
  if (json) await emitJson({ date: new Date().toISOString(), machine: machine(), candidates: results });
  else
    process.stdout.write(
      `# Candidate measures — ${new Date().toISOString()}\n\n${machine()}\n\n${results.map((r) => candidatesMarkdown(r.scenario, r.runs)).join('\n')}`,
    );
}

async function hot(args: readonly string[], json: boolean): Promise<void> {
  const onlyAt = args.indexOf('--only');
  const only = onlyAt >= 0 && args[onlyAt + 1] ? new Set(args[onlyAt + 1]!.split(',')) : undefined;
  // Loaded only here: the hot paths' webview rows use the browser-test harness (esbuild, Chromium), which
  // the other benchmarks have no use for.
  const { runHot } = await import('./hot/runHot');
  const results = await runHot({
    heavy: args.includes('--heavy'),
    progress: (line) => process.stderr.write(`${line}\n`),
    ...(only ? { only } : {}),
  });
  if (json) await emitJson({ date: new Date().toISOString(), machine: machine(), hot: results });
  else process.stdout.write(`# Hot paths — ${new Date().toISOString()}\n\n${machine()}\n\n${hotMarkdown(results)}`);
}

/** `checkpoints [--turns N] [--json]`: checkpoint cost per turn on a 10,000-file and a 1 GB workspace. */
async function checkpoints(args: readonly string[], json: boolean): Promise<void> {
  const turnsAt = args.indexOf('--turns');
  const turns = turnsAt >= 0 ? Number(args[turnsAt + 1]) : 9;
  const rows = [];
  for (const shape of SHAPES) rows.push(await measureShape(shape, turns, (line) => process.stderr.write(`${line}\n`)));
  if (json) await emitJson({ date: new Date().toISOString(), machine: machine(), checkpoints: rows });
  else process.stdout.write(`# Checkpoints — ${new Date().toISOString()}\n\n${machine()}\n\n${checkpointMarkdown(rows)}`);
}

/**
 * `history [--runs N] [--seed S] [--steps K] [--chunk C] [--no-shrink]`: the model-based history suite's long run
 * (test/reliability/history/README.md). Sequences run in chunks of C (default 100) from seeds S, S+C, …, so a
 * failure is shrunk and printed and the run goes on; the last line is the summary. Exit code 1 when a check failed.
 */
async function history(args: readonly string[]): Promise<number> {
  const at = (flag: string): number | undefined => (args.indexOf(flag) >= 0 ? Number(args[args.indexOf(flag) + 1]) : undefined);
  const runs = at('--runs') ?? 1000;
  const seed = at('--seed') ?? 2929;
  const chunk = at('--chunk') ?? 100;
  const maxSteps = at('--steps') ?? DEFAULT_MAX_STEPS;
  if (![runs, seed, chunk, maxSteps].every((n) => Number.isSafeInteger(n) && n >= 0) || runs === 0 || chunk === 0) {
    throw new Error('history takes --runs N (≥ 1), --seed S, --chunk C (≥ 1) and --steps K, all whole numbers.');
  }
  const started = Date.now();
  const result = await runHistory({
    runs,
    seed,
    chunk,
    maxSteps,
    shrink: !args.includes('--no-shrink'),
    onFailure: (failure) =>
      process.stdout.write(`\nVIOLATION (chunk seed ${failure.seed}${failure.path ? `, path ${failure.path}` : ''}):\n${failure.report}\n`),
    progress: (done, stats) => {
      if (done % 50 === 0) {
        const rate = (done / ((Date.now() - started) / 1000)).toFixed(2);
        process.stderr.write(`history: ${done}/${runs} sequences, ${stats.steps} steps, ${rate} sequences/s\n`);
      }
    },
  });
  process.stdout.write(`\n${historyMarkdown(result, machine())}\n`);
  return result.failures.length > 0 ? 1 : 0;
}

/**
 * Where `--json` output goes: `--out FILE`, or stdout. `npm run bench -- … --json` on stdout carries npm's
 * own banner lines before the JSON; use `npm run -s bench -- … --json` (or `--out`) to get JSON alone.
 */
let jsonOut: string | undefined;

async function emitJson(value: unknown): Promise<void> {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  if (jsonOut) await writeFile(jsonOut, text);
  else process.stdout.write(text);
}

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const outAt = rest.indexOf('--out');
  if (outAt >= 0) {
    jsonOut = rest[outAt + 1];
    if (!jsonOut || jsonOut.startsWith('--')) {
      process.stderr.write('--out needs a file name: npm run bench -- peers --json --out peers.json\n');
      return 2;
    }
  }
  const json = rest.includes('--json') || jsonOut !== undefined;
  if (command === 'economy') await economy(rest, json);
  else if (command === 'hot') await hot(rest, json);
  else if (command === 'trace') await trace(rest);
  else if (command === 'candidates') await candidates(rest, json);
  else if (command === 'peers') await peers(rest, json);
  else if (command === 'checkpoints') await checkpoints(rest, json);
  else if (command === 'history') return history(rest);
  else {
    process.stderr.write(
      'Usage: npm run bench -- economy [--scenario FILE]... [--json]\n       npm run bench -- peers [--agent NAME]... [--scenario FILE]... [--model ID] [--json] [--out FILE] [--markdown FILE]\n       npm run bench -- hot [--heavy] [--only ledger,diff,compose,journal,webview] [--json]\n       npm run bench -- trace --scenario FILE [--strategy naive|rewrite|cairn]\n       npm run bench -- candidates --scenario FILE [--candidate NAME]... [--no-baseline] [--json]\n       npm run bench -- checkpoints [--turns N] [--json]\n       npm run bench -- history [--runs N] [--seed S] [--chunk C] [--steps K] [--no-shrink]\n',
    );
    return 2;
  }
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
