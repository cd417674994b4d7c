/**
 * The child process of the session crash suite: a real session (ledger, journal, composer, compactor, the
 * real SDK) against a local Anthropic-compatible server it runs itself, on a real workspace. It says
 * `ready` once loaded, reads its orders (one JSON line), starts or resumes the session, and works until
 * it is killed, printing what it is doing (`phase tool|stream|compaction|child`) and acknowledging what is
 * durable: `ack result <id>` when the loop was handed a stored result (the store resolves `put` only once
 * the record is written), `ack compacted <generation>` once a compaction returned applied, `ack elided
 * <generation>` once an elision's notice came (after its one record), `phase elision` as one starts.
 */
import { mkdir } from 'node:fs/promises';
import { DEFAULT_LOOP_SETTINGS } from '../../../src/core/agent/agentLoop';
import { autoApprover } from '../../../src/core/agent/approval';
import { resumeSession, startSession, type SessionPorts } from '../../../src/core/session/node/sessionAssembly';
import { DEFAULT_COMPACTION_SETTINGS } from '../../../src/core/compaction/settings';
import { emptyProjectContext } from '../../../src/core/compose/projectContextSource';
import { noRules } from '../../../src/core/compose/rules';
import { AnthropicModelClient } from '../../../src/core/model/anthropicClient';
import { TiktokenCounter } from '../../../src/core/tokens/textTokenCounter';
import { startupSnapshot } from 'node:v8';
import { NodeWorkspace } from '../../../src/node/workspace/nodeWorkspace';

export interface SessionCrashOrders {
  readonly sessionsDir: string;
  readonly workspaceDir: string;
  readonly promptsDir: string;
  /** The local server playing this run's scenario (the parent runs it: see crashScenario.ts). */
  readonly baseUrl: string;
  /** Resume this session; absent: start a new one. */
  readonly sessionId?: string;
  /** Varies the work between runs. */
  readonly seed: number;
}

function say(line: string): void {
  process.stdout.write(`${line}\n`);
}

async function readOrders(): Promise<SessionCrashOrders> {
  let text = '';
  for await (const chunk of process.stdin) {
    text += String(chunk);
    const newline = text.indexOf('\n');
    if (newline >= 0) return JSON.parse(text.slice(0, newline)) as SessionCrashOrders;
  }
  throw new Error('stdin closed before orders arrived');
}

async function run(orders: SessionCrashOrders): Promise<void> {
  await mkdir(orders.workspaceDir, { recursive: true });
  const model = new AnthropicModelClient({ apiKey: async () => 'test-key', baseUrl: orders.baseUrl, sleep: async () => undefined });
  const settings = { ...DEFAULT_LOOP_SETTINGS, model: 'claude-test-model', maxTokens: 2000 };
  const ports: SessionPorts = {
    workspace: new NodeWorkspace(orders.workspaceDir, { ripgrepPath: null }),
    projectContext: emptyProjectContext,
    rules: noRules,
    model,
    approver: autoApprover,
    approvals: () => ({ alwaysAllow: new Set(), workspaceTrusted: true }),
    settings: () => settings,
    sessionsDir: orders.sessionsDir,
    promptsDir: orders.promptsDir,
    // Elision whenever anything is superseded (the command repeats every four rounds), so kills land inside it.
    compaction: () => ({
      ...DEFAULT_COMPACTION_SETTINGS,
      elision: { mode: 'auto', margin: 0, minTokens: 0, minResults: 1, thresholdRoom: 0 },
    }),
    log: (line) => {
      if (line.startsWith('[Context] eliding')) say('phase elision');
    },
  };
  const assembled = orders.sessionId ? await resumeSession(ports, orders.sessionId) : await startSession(ports);
  const { session } = assembled;
  session.onEvent((event) => {
    if (event.type === 'tool_started') say('phase tool');
    else if (event.type === 'request_started') say('phase stream');
    else if (event.type === 'tool_finished') say(`ack result ${event.result.id}`);
    else if (event.type === 'notice' && event.kind === 'elision') say(`ack elided ${session.generation.number}`);
    else if (event.type === 'subagent_event') {
      // A child's work: the kill may land inside it; its results are acknowledged like the parent's.
      if (event.event.type === 'tool_started' || event.event.type === 'request_started') say('phase child');
      else if (event.event.type === 'tool_finished') say(`ack result ${event.event.result.id}`);
    }
  });
  say(`opened ${assembled.journal.sessionId} ${session.generation.number}`);
  for (let round = 0; ; round++) {
    const reason = await session.send(`round ${round}`);
    if (reason !== 'end_turn') say(`note send ended ${reason}`);
    say('phase compaction');
    const outcome = await session.compact({ reason: 'manual' }, new AbortController().signal);
    if (outcome.applied) say(`ack compacted ${session.generation.number}`);
  }
}

function main(): void {
  say('ready');
  readOrders()
    .then(run)
    .catch((error: unknown) => {
      say(`error ${error instanceof Error ? error.message.replace(/\n/g, ' ') : String(error)}`);
      process.exit(1);
    });
}

// Built into a V8 startup snapshot (see test/support/lineChild.ts) with the tokenizer's ranks already loaded: loading
// them costs about a second of CPU per process, which a thousand kills cannot pay on two cores.
if (startupSnapshot.isBuildingSnapshot()) {
  new TiktokenCounter().count('warm up the ranks');
  startupSnapshot.setDeserializeMainFunction(main);
} else {
  main();
}
