/**
 * The real side of the model-based history suite (README.md beside this file): a real session (ledger, composer,
 * journal, checkpoints, compaction and elision, the loop, the real SDK) in a temporary workspace, talking to the
 * local Anthropic-compatible server, which validates every request and answers from turns each step appends to
 * its script (`ScenarioPlayer.appendTurns`). It reopens the session as the editor does, and "crashes" it: the
 * journal and the workspace copied at one moment of a run, the session reopened from the copy.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_LOOP_SETTINGS, type AgentLoopSettings } from '../../../src/core/agent/agentLoop';
import { autoApprover } from '../../../src/core/agent/approval';
import type { AgentEvent } from '../../../src/core/agent/events';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from '../../../src/core/compaction/settings';
import { noRules } from '../../../src/core/compose/rules';
import { emptyProjectContext } from '../../../src/core/compose/projectContextSource';
import { AnthropicModelClient } from '../../../src/core/model/anthropicClient';
import type { AgentSession } from '../../../src/core/session/agentSession';
import { resumeSession, startSession, type AssembledSession, type SessionPorts } from '../../../src/core/session/node/sessionAssembly';
import { DEFAULT_SUBAGENT_SETTINGS } from '../../../src/core/subagentTypes';
import { REPO_PROMPTS_DIR } from '../../../src/node/headless/runner';
import { startLocalServer, type LocalServer, type LoggedRequest } from '../../../src/node/localServer/server';
import { parseScenario } from '../../../src/node/scenario/scenario';
import { NodeWorkspace } from '../../../src/node/workspace/nodeWorkspace';
import { FILES, INITIAL_FILES, type FileContents } from './model';

/**
 * A window small enough that a sequence of 40 steps reaches the compaction threshold now and then (the static
 * part alone is about 4,000 tokens), with output limits that fit it.
 */
export const HISTORY_MODEL = { id: 'claude-test-model', context_window: 24_000, max_output: 4_000 };

const LOOP: AgentLoopSettings = { ...DEFAULT_LOOP_SETTINGS, model: HISTORY_MODEL.id, maxTokens: 2_000, maxTurns: 20 };

/**
 * Compaction at a third of the window, and elision batches scaled down with it (the defaults are for a 200,000-token
 * window): two superseded outputs of a few hundred tokens are worth eliding once the cache has gone cold.
 */
const COMPACTION: CompactionSettings = {
  ...DEFAULT_COMPACTION_SETTINGS,
  threshold: { kind: 'share', value: 0.33 },
  completionReserveTokens: 2_000,
  safetyMarginTokens: 500,
  summaryMaxTokens: 1_000,
  elision: { ...DEFAULT_COMPACTION_SETTINGS.elision, minTokens: 300 },
};

/** The session's clock: still, until the user walks away (`advance`). */
export class SteppedClock {
  private time = Date.UTC(2026, 0, 5, 9, 0, 0);
  now(): number {
    return this.time;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}

/**
 * A RAM disk when there is room: a crash here is a copy taken at one moment, not a lost page cache, so the
 * journal's fsync per record only costs time (as in the crash suite, `sessionCrash.test.ts`).
 */
function scratchRoot(): string {
  try {
    const stats = statfsSync('/dev/shm');
    if (stats.bavail * stats.bsize > 512 * 1024 * 1024) return '/dev/shm';
  } catch {
    // No /dev/shm.
  }
  return tmpdir();
}

export class HistoryRig {
  /** Requests the checks have not looked at yet. */
  private checked = 0;
  private logged = 0;
  private crashes = 0;
  /** This step's events (the commands read them to follow automatic compactions and elisions). */
  events: AgentEvent[] = [];
  private subscription: { dispose(): void };

  private constructor(
    private readonly dir: string,
    /** The session's diagnostics: a `[History]` line is a broken invariant the session found itself. */
    readonly logLines: string[],
    /** Retry waits the model client asked for (recorded, not slept). */
    readonly sleeps: number[],
    readonly workspaceDir: string,
    readonly server: LocalServer,
    readonly clock: SteppedClock,
    readonly ports: SessionPorts,
    private assembledSession: AssembledSession,
  ) {
    this.subscription = this.listen();
  }

  static async start(): Promise<HistoryRig> {
    const dir = mkdtempSync(join(scratchRoot(), 'cairn-history-'));
    const workspaceDir = join(dir, 'workspace');
    mkdirSync(join(workspaceDir, 'src'), { recursive: true });
    mkdirSync(join(workspaceDir, 'out'), { recursive: true });
    for (const [path, content] of Object.entries(INITIAL_FILES)) writeFileSync(join(workspaceDir, path), content);
    const scenario = parseScenario({ model: HISTORY_MODEL, workspace: {}, turns: [] }, 'history-model');
    const server = await startLocalServer({ scenario });
    const clock = new SteppedClock();
    const sleeps: number[] = [];
    const logLines: string[] = [];
    const model = new AnthropicModelClient({
      apiKey: async () => 'test-key',
      baseUrl: server.url,
      // Retries after a 529 are recorded, not slept.
      sleep: async (ms: number) => void sleeps.push(ms),
    });
    const ports: SessionPorts = {
      workspace: new NodeWorkspace(workspaceDir),
      projectContext: emptyProjectContext,
      rules: noRules,
      model,
      approver: autoApprover,
      approvals: () => ({ alwaysAllow: new Set(), workspaceTrusted: true }),
      settings: () => LOOP,
      sessionsDir: join(dir, 'sessions'),
      promptsDir: REPO_PROMPTS_DIR,
      idSeed: 7,
      compaction: () => COMPACTION,
      clock,
      log: (line) => logLines.push(line),
      subagents: () => DEFAULT_SUBAGENT_SETTINGS,
    };
    return new HistoryRig(dir, logLines, sleeps, workspaceDir, server, clock, ports, await startSession(ports));
  }

  get assembled(): AssembledSession {
    return this.assembledSession;
  }

  get session(): AgentSession {
    return this.assembledSession.session;
  }

  /** Turns the next requests are to get, in the scenario format. */
  append(turns: readonly unknown[]): void {
    if (turns.length > 0) this.server.player.appendTurns(turns);
  }

  /** Requests the server received since the last call. */
  newRequests(): LoggedRequest[] {
    const fresh = this.server.requests.slice(this.checked);
    this.checked = this.server.requests.length;
    return fresh;
  }

  /** Log lines since the last call. */
  newLogLines(): string[] {
    const fresh = this.logLines.slice(this.logged);
    this.logged = this.logLines.length;
    return fresh;
  }

  /** The domain files on disk now (absent ones left out). */
  files(): FileContents {
    const files: FileContents = new Map();
    for (const path of FILES) {
      const full = join(this.workspaceDir, path);
      if (existsSync(full)) files.set(path, readFileSync(full, 'utf8'));
    }
    return files;
  }

  /** The user changes a file outside Cairn. */
  writeFile(path: string, content: string): void {
    mkdirSync(dirname(join(this.workspaceDir, path)), { recursive: true });
    writeFileSync(join(this.workspaceDir, path), content);
  }

  /** Closes the session as closing the editor does, and opens it again from its journal. */
  async reopen(): Promise<void> {
    const id = this.assembledSession.journal.sessionId;
    this.subscription.dispose();
    await this.assembledSession.dispose();
    this.assembledSession = await resumeSession(this.ports, id);
    this.subscription = this.listen();
  }

  /**
   * Runs `run` and "crashes" at its `at`-th event (or after its last, if it has fewer): the journal and the
   * workspace are copied at that moment, synchronously, so the copy is what a kill then would leave (a record
   * being written may be torn). When the run is over the session is closed, the copies replace the originals,
   * and the session is reopened from them. Returns whether the crash fell inside the run.
   */
  async crashDuring<T>(at: number, run: () => Promise<T>): Promise<{ result: T; inside: boolean }> {
    const copy = join(this.dir, `crash-${++this.crashes}`);
    let seen = 0;
    let inside = false;
    const take = (): void => {
      cpSync(this.ports.sessionsDir, join(copy, 'sessions'), { recursive: true });
      cpSync(this.workspaceDir, join(copy, 'workspace'), { recursive: true });
    };
    const watch = this.session.onEvent(() => {
      if (!inside && seen++ === at) {
        inside = true;
        take();
      }
    });
    let result: T;
    try {
      result = await run();
    } finally {
      watch.dispose();
    }
    if (!inside) take();
    const id = this.assembledSession.journal.sessionId;
    this.subscription.dispose();
    await this.assembledSession.dispose();
    for (const [from, to] of [
      [join(copy, 'sessions'), this.ports.sessionsDir],
      [join(copy, 'workspace'), this.workspaceDir],
    ] as const) {
      rmSync(to, { recursive: true, force: true });
      cpSync(from, to, { recursive: true });
    }
    rmSync(copy, { recursive: true, force: true });
    // A killed process leaves its lock behind for a pid that is gone; this process lives on, so drop it.
    rmSync(join(this.ports.sessionsDir, id, 'lock'), { force: true });
    this.assembledSession = await resumeSession(this.ports, id);
    this.subscription = this.listen();
    return { result, inside };
  }

  async close(): Promise<void> {
    this.subscription.dispose();
    await this.assembledSession.dispose().catch(() => undefined);
    await this.server.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private listen(): { dispose(): void } {
    return this.assembledSession.session.onEvent((event) => this.events.push(event));
  }
}
