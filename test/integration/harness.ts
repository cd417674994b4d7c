import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LOOP_SETTINGS, type AgentLoopSettings } from '../../src/core/agent/agentLoop';
import { autoApprover, type ApprovalSettings, type Approver } from '../../src/core/agent/approval';
import type { AgentEvent } from '../../src/core/agent/events';
import { startSession, type AssembledSession, type SessionPorts } from '../../src/core/session/node/sessionAssembly';
import { noRules } from '../../src/core/compose/rules';
import { FileRulesSource } from '../../src/node/fileRulesSource';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../src/core/compaction/settings';
import type { Clock } from '../../src/core/ports';
import { emptyProjectContext } from '../../src/core/compose/projectContextSource';
import { AnthropicModelClient } from '../../src/core/model/anthropicClient';
import { startLocalServer, type LocalServer } from '../../src/node/localServer/server';
import { applyFsOperation } from '../../src/node/scenario/fsOperation';
import { ScenarioPlayer } from '../../src/node/scenario/player';
import { parseScenario, writeWorkspaceFiles } from '../../src/node/scenario/scenario';
import { REPO_PROMPTS_DIR } from '../../src/node/headless/runner';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';

export interface ScenarioSession {
  readonly assembled: AssembledSession;
  readonly server: LocalServer;
  readonly events: AgentEvent[];
  readonly workspaceDir: string;
  readonly sleeps: number[];
  readonly ports: SessionPorts;
  readonly logLines: string[];
  close(): Promise<void>;
}

export interface ScenarioSessionOptions {
  readonly approver?: Approver;
  readonly approvals?: ApprovalSettings;
  /** Approvals read at every call, as the host's are (its "always" answers join them); over `approvals`. */
  readonly approvalsOf?: () => ApprovalSettings;
  readonly loop?: Partial<AgentLoopSettings>;
  /** Real waits for retries (default: recorded and skipped, so tests do not sleep). */
  readonly realSleep?: boolean;
  readonly compaction?: Partial<CompactionSettings>;
  readonly clock?: Clock;
  /** The local server's real clock (its prompt cache expires by it, plus the script's idles); default: real time. */
  readonly serverClock?: () => number;
  /** Read AGENTS.md/CLAUDE.md from the workspace (home: an empty temp folder). Default: no rules. */
  readonly workspaceRules?: boolean;
  /** Benchmarks' hook: how stored entries become the provider's messages (`SessionPorts.project`). */
  readonly project?: SessionPorts['project'];
  /** MCP servers' connections (`SessionPorts.mcp`); the caller closes them. */
  readonly mcp?: SessionPorts['mcp'];
  /** Runs on the workspace folder after its files are written, before the session starts (e.g. `git init`). */
  readonly prepareWorkspace?: (workspaceDir: string) => Promise<void>;
  /** Checkpoints' git snapshots (`SessionPorts.checkpointGit`). */
  readonly checkpointGit?: SessionPorts['checkpointGit'];
  /** `cairn.subagents.*` (`SessionPorts.subagents`). */
  readonly subagents?: NonNullable<SessionPorts['subagents']> extends () => infer S ? S : never;
  /** The API key the model client sends (default `test-key`): the session redacts it everywhere. */
  readonly apiKey?: string;
  /** Secrets besides the key (`SessionPorts.secrets`: withheld variables, MCP input values). */
  readonly secrets?: SessionPorts['secrets'];
  /** Where `web_fetch` gets pages (`SessionPorts.web`); none: no web_fetch tool. */
  readonly web?: SessionPorts['web'];
}

/**
 * A real session (ledger, composer, journal, loop, the real SDK) against the local Anthropic-compatible
 * server playing `scenarioJson`. The server skips the script's user turns: the test sends its own text.
 */
export async function startScenarioSession(scenarioJson: unknown, options: ScenarioSessionOptions = {}): Promise<ScenarioSession> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-it-'));
  const workspaceDir = join(dir, 'workspace');
  const scenario = parseScenario(scenarioJson, 'test');
  await mkdir(workspaceDir, { recursive: true });
  await writeWorkspaceFiles(scenario.workspace, workspaceDir);
  await options.prepareWorkspace?.(workspaceDir);
  const player = new ScenarioPlayer(scenario, { driver: 'server', ...(options.serverClock ? { realNow: options.serverClock } : {}) });
  const server = await startLocalServer({ scenario, player, onFs: (turn) => applyFsOperation(turn.operation, workspaceDir) });
  const sleeps: number[] = [];
  const logLines: string[] = [];
  const model = new AnthropicModelClient({
    apiKey: async () => options.apiKey ?? 'test-key',
    baseUrl: server.url,
    ...(options.realSleep ? {} : { sleep: async (ms: number) => void sleeps.push(ms) }),
  });
  const settings: AgentLoopSettings = { ...DEFAULT_LOOP_SETTINGS, model: scenario.model.id ?? 'claude-test', ...options.loop };
  const ports: SessionPorts = {
    workspace: new NodeWorkspace(workspaceDir),
    projectContext: emptyProjectContext,
    rules: options.workspaceRules ? new FileRulesSource({ homeDir: join(dir, 'home'), roots: [workspaceDir] }) : noRules,
    model,
    approver: options.approver ?? autoApprover,
    approvals: options.approvalsOf ?? (() => options.approvals ?? { alwaysAllow: new Set(), workspaceTrusted: true }),
    settings: () => settings,
    sessionsDir: join(dir, 'sessions'),
    promptsDir: REPO_PROMPTS_DIR,
    idSeed: 7,
    compaction: () => ({ ...DEFAULT_COMPACTION_SETTINGS, ...options.compaction }),
    ...(options.clock ? { clock: options.clock } : {}),
    log: (line) => logLines.push(line),
    ...(options.project ? { project: options.project } : {}),
    ...(options.mcp ? { mcp: options.mcp } : {}),
    ...(options.checkpointGit ? { checkpointGit: options.checkpointGit } : {}),
    ...(options.subagents ? { subagents: () => options.subagents! } : {}),
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.web ? { web: options.web } : {}),
  };
  const assembled = await startSession(ports);
  const events: AgentEvent[] = [];
  assembled.session.onEvent((e) => events.push(e));
  return {
    assembled,
    server,
    events,
    workspaceDir,
    sleeps,
    ports,
    logLines,
    async close() {
      await assembled.dispose().catch(() => undefined);
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The tool_result texts of a logged request body, in order. */
export function toolResultTexts(body: unknown): string[] {
  const messages = (body as { messages: Array<{ role: string; content: Array<{ type: string; content?: unknown }> }> }).messages;
  const out: string[] = [];
  for (const m of messages) for (const b of m.content) if (b.type === 'tool_result') out.push(String(b.content));
  return out;
}

export function mainRequests(server: LocalServer): unknown[] {
  return server.requests.filter((r) => r.kind === 'main' && r.status === 200).map((r) => r.body);
}
