/**
 * Cairn as a peers-benchmark agent: this checkout through the headless runner (the real loop, tools,
 * ledger, composer and journal), with the same local server as every peer. A step whose needs were
 * cut from a capped output gets `recall` with offset and limit on the stored result first.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_HYGIENE, type HygieneConfig } from '../../src/core/config/hygiene';
import { runHeadless } from '../../src/node/headless/runner';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn } from '../../src/node/scenario/types';
import { CAIRN_CATEGORIES } from './categories';
import { elisionsOf } from '../economy/elisions';
import type { AgentRun, AgentRunContext, BenchAgent } from './agent';
import { withAgentEnvironment } from './agentEnvironment';
import { needsGate, retrievalTurn, visibleText, windowAround, type NeedsByTurn } from './needs';

export const cairnAgent: BenchAgent = cairnConfigured('cairn');

/**
 * Cairn with `cairn.commandOutput: "failures"` (a command's long output cut around its failures rather
 * than head and tail): a setting off by default because it changes what a result shows (issue 16 §3),
 * measured beside Cairn as built and never counted as a peer.
 */
export const FAILURES_HYGIENE: HygieneConfig = { ...DEFAULT_HYGIENE, 'cap.command_output': 'failures' };
export const cairnFailuresAgent: BenchAgent = cairnConfigured('cairn-failures', FAILURES_HYGIENE);

function cairnConfigured(name: string, hygiene?: HygieneConfig): BenchAgent {
  return {
    name,
    version: checkoutVersion(),
    categories: CAIRN_CATEGORIES,
    playsSubagents: true,
    isCairn: true,
    prepare: async () => undefined,
    run: (context) => runCairn(context, hygiene),
  };
}

/** The commit this checkout is at (with `+` when it has changes), for the report. */
function checkoutVersion(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: __dirname, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: __dirname, encoding: 'utf8' }).trim() !== '';
    return `${sha}${dirty ? '+' : ''}`;
  } catch {
    return 'this checkout';
  }
}

/** The needs gate for a Cairn run whose journal goes to `outDir`: a missing need is recalled from it. */
export function cairnNeedsGate(needs: NeedsByTurn, outDir: string, notice: (message: string) => void): ReturnType<typeof needsGate> {
  return needsGate(needs, (need, request, upcoming) => cairnRetrieval(join(outDir, 'sessions'), need, request, upcoming), notice);
}

async function runCairn(context: AgentRunContext, hygiene: HygieneConfig | undefined): Promise<AgentRun> {
  const outDir = join(context.scratchDir, 'out');
  const gate = cairnNeedsGate(context.needs, outDir, context.onNotice);
  const homeDir = join(context.scratchDir, 'home');
  await mkdir(homeDir, { recursive: true });
  // Cairn's commands get what every peer's get (agentEnvironment.ts), not this process's own environment.
  const result = await withAgentEnvironment(homeDir, () =>
    runHeadless({
      workspaceDir: context.workspaceDir,
      scenario: context.bench.scenario,
      outDir,
      homeDir,
      idSeed: 0xca1,
      model: context.model,
      onNotice: context.onNotice,
      ...(hygiene ? { hygiene } : {}),
      ...(gate.hook ? { serverHooks: { before: gate.hook } } : {}),
    }),
  );
  const elisions = await elisionsOf(join(outDir, 'sessions'));
  return { requests: result.server?.requests ?? [], outsideConnections: 0, unmetNeeds: gate.report.unmet, elisions: elisions.count };
}

interface StoredRecord {
  readonly type?: string;
  readonly result?: { readonly id?: string; readonly body?: string };
}

/**
 * `recall` of the latest stored result that holds the need and whose id the model was shown (a capped
 * output names its id), on a window of lines around it.
 */
export async function cairnRetrieval(
  sessionsDir: string,
  need: string,
  request: WireRequest,
  upcoming: AssistantTurn,
): Promise<AssistantTurn | undefined> {
  const visible = visibleText(request);
  let found: { id: string; body: string } | undefined;
  for (const journal of await journals(sessionsDir)) {
    for (const line of (await readFile(journal, 'utf8')).split('\n')) {
      if (!line.includes('"tool_result"') || !line.includes(JSON.stringify(need).slice(1, -1))) continue;
      const record = JSON.parse(line) as StoredRecord;
      const { id, body } = record.result ?? {};
      if (record.type === 'tool_result' && id && body?.includes(need) && visible.includes(id)) found = { id, body };
    }
  }
  if (!found) return undefined;
  const window = windowAround(found.body, need)!;
  return retrievalTurn(upcoming, 'recall', { id: found.id, ...window });
}

async function journals(sessionsDir: string): Promise<string[]> {
  const entries = await readdir(sessionsDir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => join(sessionsDir, e.name, 'journal.jsonl'));
}
