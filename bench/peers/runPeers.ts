/**
 * `npm run bench -- peers`: one scenario, every agent. Each agent gets a fresh workspace (the copied and
 * patched sources plus the scenario's files) and a scratch folder, plays the whole script against the
 * local server, has the scenario's `x-bench-check` run in its workspace at the end, and is measured
 * from the server's log with the same meter as every other agent.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBenchScenario, prepareWorkspace, workspaceWritten, type BenchScenario } from '../economy/benchScenario';
import type { Scenario } from '../../src/node/scenario/types';
import type { BenchAgent } from './agent';
import { delegationSplit, type DelegationSplit } from './delegationSplit';
import { measurePeer, type PeerFigures } from './measurePeer';
import { needsOf } from './needs';

export type CheckOutcome = 'passed' | 'failed' | 'none';

/** One agent's row, in the JSON shape other tools read. */
/** One agent's row of the JSON report: the measured figures (without the conversation split), then who and how it ended. */
export interface AgentRow extends Omit<PeerFigures, 'conversation'> {
  readonly agent: string;
  readonly version: string;
  readonly outsideConnections: number;
  readonly check: CheckOutcome;
  /** Lossless compactions (Cairn's elisions); `compactions` counts the lossy ones (summaries). */
  readonly elisions: number;
}

/** What the Markdown report shows beside the row (kept out of the JSON shape). */
export interface AgentDetail {
  readonly conversation: PeerFigures['conversation'];
  readonly unmetNeeds: readonly string[];
  readonly notices: string[];
  readonly checkOutput?: string;
  /** When it delegated: its parent's figures and its sub-agents' apart. */
  readonly split?: DelegationSplit;
}

export interface ScenarioResult {
  readonly scenario: string;
  /** Seconds the user was away before each user turn (`"idle"`), in order: the same for every agent. */
  readonly idle: readonly number[];
  readonly agents: AgentRow[];
  readonly cairnToBest: number | null;
  readonly bestPeer: string | null;
}

export interface PeersReport {
  readonly date: string;
  readonly machine: string;
  readonly model: string;
  readonly scenarios: ScenarioResult[];
}

export interface PeersRun {
  readonly report: PeersReport;
  /** Per scenario, per agent name. */
  readonly details: ReadonlyMap<string, ReadonlyMap<string, AgentDetail>>;
  /** Agents that could not be installed or run, with why. */
  readonly skipped: ReadonlyMap<string, string>;
  /** Agents whose figures are not comparable, with why. */
  readonly caveats: ReadonlyMap<string, string>;
}

export interface PeersOptions {
  readonly files: readonly string[];
  readonly agents: readonly BenchAgent[];
  readonly model: string;
  readonly machine: string;
  readonly progress?: (line: string) => void;
}

const CHECK_TIMEOUT_MS = 300_000;
/** claude-sonnet-4-5's largest max_tokens. */
const PEER_MAX_OUTPUT = 64_000;

export async function runPeers(options: PeersOptions): Promise<PeersRun> {
  const skipped = new Map<string, string>();
  const ready: BenchAgent[] = [];
  for (const agent of options.agents) {
    const problem = await agent.prepare().catch((error: unknown) => `install failed: ${(error as Error).message}`);
    if (problem) {
      skipped.set(agent.name, problem);
      options.progress?.(`peers: ${agent.name} skipped: ${problem}`);
    } else ready.push(agent);
  }
  const scenarios: ScenarioResult[] = [];
  const details = new Map<string, Map<string, AgentDetail>>();
  for (const file of options.files) {
    const bench = await loadBenchScenario(file);
    const needs = needsOf(JSON.parse(await readFile(file, 'utf8')), file);
    const check = checkOf(JSON.parse(await readFile(file, 'utf8')), file);
    const rows: AgentRow[] = [];
    const perAgent = new Map<string, AgentDetail>();
    for (const agent of ready) {
      options.progress?.(`peers: ${bench.name} · ${agent.name} …`);
      const started = Date.now();
      try {
        // An agent whose own sub-agent tool cannot be scripted does the delegated search itself: the
        // scenario's inline twin, the same tool calls in its own conversation (bench/README.md).
        const inline = bench.inline && !agent.playsSubagents ? await loadBenchScenario(bench.inline) : undefined;
        const { row, detail } = await runOne(agent, inline ?? bench, needs, check, options.model);
        if (inline) detail.notices.unshift(`played ${inline.name}: no scriptable sub-agent tool, so the search is done inline`);
        rows.push(row);
        perAgent.set(agent.name, detail);
        options.progress?.(
          `peers: ${bench.name} · ${agent.name}: billed ${Math.round(row.billed)}, check ${row.check} (${Math.round((Date.now() - started) / 1000)} s)`,
        );
      } catch (error) {
        skipped.set(`${agent.name} (${bench.name})`, `run failed: ${(error as Error).message}`);
        options.progress?.(`peers: ${bench.name} · ${agent.name} failed: ${(error as Error).message}`);
      }
    }
    details.set(bench.name, perAgent);
    const notPeers = new Set(ready.filter((a) => a.caveat || a.isCairn).map((a) => a.name));
    scenarios.push({ scenario: bench.name, idle: idlePattern(bench.scenario), agents: rows, ...best(rows, notPeers) });
  }
  const caveats = new Map(ready.flatMap((a) => (a.caveat ? [[a.name, a.caveat] as const] : [])));
  return {
    report: { date: new Date().toISOString(), machine: options.machine, model: options.model, scenarios },
    details,
    skipped,
    caveats,
  };
}

/** Cairn's billed total over the cheapest peer whose edits landed (its check did not fail); `notPeers`: Cairn's other configurations and agents not comparable. */
function best(rows: readonly AgentRow[], notPeers: ReadonlySet<string>): { cairnToBest: number | null; bestPeer: string | null } {
  const cairn = rows.find((r) => r.agent === 'cairn');
  const peers = rows
    .filter((r) => r.agent !== 'cairn' && r.check !== 'failed' && !notPeers.has(r.agent))
    .sort((a, b) => a.billed - b.billed);
  const peer = peers[0];
  if (!cairn || !peer) return { cairnToBest: null, bestPeer: peer?.agent ?? null };
  return { cairnToBest: Math.round((cairn.billed / peer.billed) * 100) / 100, bestPeer: peer.agent };
}

async function runOne(
  agent: BenchAgent,
  bench: BenchScenario,
  needs: ReturnType<typeof needsOf>,
  check: string | undefined,
  model: string,
): Promise<{ row: AgentRow; detail: AgentDetail }> {
  // The same length of path for every agent (no agent's name in it): absolute paths in outputs must not
  // make one agent's results longer than another's.
  const scratchDir = await mkdtemp(join(tmpdir(), 'cairn-peers-'));
  const workspaceDir = join(scratchDir, 'workspace');
  const notices: string[] = [];
  try {
    await prepareWorkspace(bench, workspaceDir);
    // Every peer asks for 32,000 output tokens; a scenario's smaller max_output (long-session's 8,192, a
    // local model's) would refuse them outright. Output is not what is measured: raise it to what the
    // model id allows, and keep the scenario's context window.
    // Cairn keeps the scenario as written (it reads its output budget from the scenario's model).
    const maxOutput = agent.isCairn ? bench.scenario.model.maxOutput : Math.max(bench.scenario.model.maxOutput, PEER_MAX_OUTPUT);
    const scenario = { ...workspaceWritten(bench), model: { ...bench.scenario.model, maxOutput } };
    const run = await agent.run({
      bench: { ...bench, scenario },
      needs,
      workspaceDir,
      scratchDir,
      model,
      onNotice: (m) => notices.push(m),
    });
    const figures = measurePeer(run.requests, agent.categories);
    const split = delegationSplit(run.requests, agent.categories);
    const checked = check ? await runCheck(check, workspaceDir) : { outcome: 'none' as const };
    const { conversation, ...rest } = figures;
    return {
      row: {
        agent: agent.name,
        version: agent.version,
        ...rest,
        outsideConnections: run.outsideConnections,
        check: checked.outcome,
        elisions: run.elisions ?? 0,
      },
      detail: {
        conversation,
        unmetNeeds: run.unmetNeeds,
        notices,
        ...(checked.output !== undefined ? { checkOutput: checked.output } : {}),
        ...(split ? { split } : {}),
      },
    };
  } finally {
    // CAIRN_PEERS_KEEP=1 keeps the workspace, scratch HOME and request log (requests.jsonl) to look at.
    if (process.env.CAIRN_PEERS_KEEP === '1') process.stderr.write(`peers: kept ${scratchDir}\n`);
    else await rm(scratchDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The idle before each user turn of the script. */
function idlePattern(scenario: Scenario): number[] {
  return scenario.turns.flatMap((turn) => (turn.kind === 'user' ? [turn.idleSeconds ?? 0] : []));
}

function checkOf(json: unknown, file: string): string | undefined {
  const value = (json as Record<string, unknown> | null)?.['x-bench-check'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw new Error(`${file}: x-bench-check must be a command line.`);
  return value;
}

/** Runs the end-state check in the agent's workspace; its last lines are kept for a failure. */
export function runCheck(command: string, cwd: string): Promise<{ outcome: CheckOutcome; output?: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', command], { cwd, timeout: CHECK_TIMEOUT_MS, maxBuffer: 64 * 2 ** 20 }, (error, stdout, stderr) => {
      if (!error) return resolve({ outcome: 'passed' });
      const tail = `${stdout}${stderr}`.trimEnd().split('\n').slice(-15).join('\n');
      resolve({ outcome: 'failed', output: tail });
    });
  });
}
