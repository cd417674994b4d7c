import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DEFAULT_LOOP_SETTINGS } from '../../src/core/agent/agentLoop';
import { autoApprover } from '../../src/core/agent/approval';
import type { AgentEvent } from '../../src/core/agent/events';
import { startSession, type SessionPorts } from '../../src/core/session/node/sessionAssembly';
import { DEFAULT_COMPACTION_SETTINGS } from '../../src/core/compaction/settings';
import { emptyProjectContext } from '../../src/core/compose/projectContextSource';
import { noRules } from '../../src/core/compose/rules';
import { AnthropicModelClient } from '../../src/core/model/anthropicClient';
import { exportSessionMarkdown } from '../../src/core/journal/node/exportMarkdown';
import { SessionJournal } from '../../src/core/journal/node/sessionJournal';
import { EventProjection } from '../../src/host/eventProjection';
import { digestJournal } from '../../src/host/journalDigest';
import { REPO_PROMPTS_DIR } from '../../src/node/headless/runner';
import { startLocalServer } from '../../src/node/localServer/server';
import { ScenarioPlayer } from '../../src/node/scenario/player';
import { parseScenario, writeWorkspaceFiles } from '../../src/node/scenario/scenario';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { commandIsolation } from '../../src/node/workspace/commandIsolation';
import { keyLeaks } from '../support/ledger/keyLeaks';

/**
 * Issue 9, secrets: a full session run with a canary key — tool calls, a provider failure that ends a run,
 * a recovery, a compaction (history archive), an export — then every file written (journal, snapshots,
 * history.md, the export), every log line, every event and everything the host would post to the webview
 * is searched for the key, as it is and in every common encoding (`keyLeaks`: base64, hex, reversed, a
 * character at a time). The key is also in this process's environment, as it is for a headless run.
 */

const CANARY = `sk-ant-canary-${'7'.repeat(8)}-DO-NOT-LEAK-${process.pid}`;
let dir: string | undefined;
const savedEnv = process.env.ANTHROPIC_API_KEY;
afterAll(async () => {
  if (savedEnv === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedEnv;
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Files under `root` that hold the key in any form, each with the forms found. */
async function filesContaining(root: string, key: string): Promise<{ files: number; hits: string[] }> {
  let files = 0;
  const hits: string[] = [];
  async function walk(d: string): Promise<void> {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        files++;
        const forms = keyLeaks((await fs.readFile(path)).toString('latin1'), key);
        if (forms.length > 0) hits.push(`${path}: ${forms.join(', ')}`);
      }
    }
  }
  await walk(root);
  return { files, hits };
}

it('the API key appears nowhere: not on disk, not in logs, not in events or webview messages', async () => {
  process.env.ANTHROPIC_API_KEY = CANARY;
  dir = await mkdtemp(join(tmpdir(), 'cairn-rel-secret-'));
  const workspaceDir = join(dir, 'workspace');
  const sessionsDir = join(dir, 'sessions');
  const exportDir = join(dir, 'export');
  const failures = Array.from({ length: 4 }, () => ({ fault: { status: 500, message: 'overloaded upstream' } }));
  const scenario = parseScenario(
    {
      model: { id: 'claude-test-model', context_window: 200000, max_output: 64000 },
      workspace: { 'src/app.ts': { lines: 20, text: 'export const x{n} = {n};' } },
      turns: [
        { user: 'one' },
        {
          assistant: {
            text: 'Looking.',
            tool_calls: [
              { name: 'read', input: { path: 'src/app.ts' } },
              { name: 'bash', input: { command: 'echo hello; ls' } },
            ],
          },
        },
        // The key the model client sends, printed by a command that assembles it, split over two chunks.
        {
          assistant: {
            tool_calls: [
              {
                name: 'bash',
                input: { command: `printf 'key: %s' '${CANARY.slice(0, 20)}'; sleep 0.4; printf '%s\\n' '${CANARY.slice(20)}'` },
              },
            ],
          },
        },
        { assistant: { tool_calls: [{ name: 'edit', input: { path: 'src/app.ts', old_string: 'x1 = 1', new_string: 'x1 = 100' } }] } },
        { assistant: { text: 'Edited.' } },
        { user: 'two' },
        ...failures,
        { user: 'three' },
        { assistant: { text: 'Back again.' } },
        { summary: 'Summary: src/app.ts was read and x1 set to 100. '.padEnd(300, '.') },
        { user: 'four' },
        { assistant: { text: 'After the compaction.' } },
      ],
    },
    'secrets',
  );
  await mkdir(workspaceDir, { recursive: true });
  await writeWorkspaceFiles(scenario.workspace, workspaceDir);
  const server = await startLocalServer({ scenario, player: new ScenarioPlayer(scenario, { driver: 'server' }) });
  const logLines: string[] = [];
  const settings = { ...DEFAULT_LOOP_SETTINGS, model: 'claude-test-model' };
  const ports: SessionPorts = {
    workspace: new NodeWorkspace(workspaceDir),
    projectContext: emptyProjectContext,
    rules: noRules,
    model: new AnthropicModelClient({ apiKey: async () => CANARY, baseUrl: server.url, sleep: async () => undefined }),
    approver: autoApprover,
    approvals: () => ({ alwaysAllow: new Set(), workspaceTrusted: true }),
    settings: () => settings,
    sessionsDir,
    promptsDir: REPO_PROMPTS_DIR,
    compaction: () => DEFAULT_COMPACTION_SETTINGS,
    log: (line) => logLines.push(line),
  };
  const events: AgentEvent[] = [];
  const posted: unknown[] = [];
  const projection = new EventProjection(0);
  let sessionId: string;
  try {
    const assembled = await startSession(ports);
    sessionId = assembled.journal.sessionId;
    assembled.session.onEvent((e) => {
      events.push(e);
      posted.push(...projection.project(e));
    });
    expect(await assembled.session.send('one'), JSON.stringify(events.filter((e) => e.type === 'error'))).toBe('end_turn');
    // The key really went out: the server saw it on every request (so the searches below mean something).
    expect(server.requests.length).toBeGreaterThan(0);
    expect(await assembled.session.send('two')).toBe('error');
    const failure = events.find((e) => e.type === 'error');
    expect(failure).toBeDefined();
    expect(await assembled.session.send('three'), JSON.stringify(server.requests.map((r) => r.status))).toBe('end_turn');
    const compacted = await assembled.session.compact({ reason: 'manual' }, new AbortController().signal);
    expect(compacted.applied).toBe(true);
    expect(await assembled.session.send('four')).toBe('end_turn');
    await exportSessionMarkdown(assembled.journal, exportDir);
    await assembled.dispose();
  } finally {
    await server.close();
  }

  const reopened = await SessionJournal.open(sessionsDir, sessionId, { readOnly: true });
  const digest = await digestJournal(reopened.journal.readAll());
  await reopened.journal.close();

  const onDisk = await filesContaining(dir, CANARY);
  expect(onDisk.hits, 'files holding the key').toEqual([]);
  expect(await fs.readdir(join(sessionsDir, sessionId))).toEqual(expect.arrayContaining(['history.md']));
  expect(logLines.filter((l) => keyLeaks(l, CANARY).length > 0)).toEqual([]);
  expect(keyLeaks(JSON.stringify(events), CANARY), 'events').toEqual([]);
  // The command's output streamed to the chat in more than one chunk, each redacted.
  const streamed = events.filter((e): e is Extract<AgentEvent, { type: 'tool_output' }> => e.type === 'tool_output');
  expect(streamed.length).toBeGreaterThan(1);
  expect(streamed.map((e) => e.text).join('')).toContain('key: [redacted: API key]');
  expect(keyLeaks(JSON.stringify(posted), CANARY), 'webview messages').toEqual([]);
  expect(keyLeaks(JSON.stringify(digest), CANARY), 'journal digest (webview pages)').toEqual([]);
  console.info(
    `secrets: canary key searched in ${onDisk.files} files (journal, snapshots, history.md, export, workspace), ${logLines.length} log lines, ${events.length} events, ${posted.length} webview messages: found nowhere`,
  );
}, 120_000);

/**
 * Commands the agent runs would inherit Cairn's environment, so with the key in ANTHROPIC_API_KEY (a
 * headless run, or an editor started from a shell that exports it) `env` would print it into a tool
 * result that the model, the journal and an export keep. The command runner withholds Cairn's own
 * credentials (found by this suite; fixed in src/node/workspace/commandRunner.ts).
 */
it('a command the agent runs does not see ANTHROPIC_API_KEY', async () => {
  process.env.ANTHROPIC_API_KEY = CANARY;
  const scratch = await mkdtemp(join(tmpdir(), 'cairn-rel-env-'));
  try {
    const result = await new NodeWorkspace(scratch).exec('env', { timeoutMs: 10_000 });
    expect(result.output).not.toContain(CANARY);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
});

/**
 * Security 6: the key in Cairn's own environment (a headless run, an editor started from a shell that
 * exports it). Filtering the commands' environment cannot hide what the parent holds, so each way a
 * command can still print the key is tried: the parent's environ, a key the command assembles itself, a
 * file in the workspace that holds it, and the key split over two chunks of streamed output. The headless
 * CLI runs as a child with the key in its environment; every tool result the model saw (the requests the
 * local server logged, the transcript the CLI printed, the journal) is searched.
 */
it('a command that prints the key by any route shows the model a redaction, never the key', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-rel-canary-'));
  const half = CANARY.length >> 1;
  const [head, tail] = [CANARY.slice(0, half), CANARY.slice(half)];
  const calls = [
    { name: 'bash', input: { command: "tr '\\0' '\\n' < /proc/$PPID/environ | grep -a '^ANTHROPIC_API_KEY='" } },
    { name: 'bash', input: { command: `A='${head}'; B='${tail}'; echo "built: $A$B"` } },
    { name: 'read', input: { path: 'config/.env' } },
    { name: 'grep', input: { pattern: 'DO-NOT-LEAK' } },
    { name: 'bash', input: { command: `printf 'split: %s' '${head}'; sleep 0.4; printf '%s\\n' '${tail}'` } },
    { name: 'bash', input: { command: 'echo "env: [$ANTHROPIC_API_KEY]"' } },
  ];
  const scenario = {
    model: { id: 'claude-test-model', context_window: 200000, max_output: 64000 },
    workspace: { 'config/.env': `ANTHROPIC_API_KEY=${head}${tail}\n` },
    turns: [{ user: 'print the key every way you can' }, { assistant: { tool_calls: calls } }, { assistant: { text: 'Done.' } }],
  };
  try {
    const scenarioFile = join(root, 'scenario.json');
    await fs.writeFile(scenarioFile, JSON.stringify(scenario));
    const out = join(root, 'out');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/node/headless/cli.ts', '--workspace', join(root, 'ws'), '--scenario', scenarioFile, '--out', out],
      {
        env: { ...process.env, ANTHROPIC_API_KEY: CANARY },
        encoding: 'utf8',
        timeout: 90_000,
      },
    );
    expect(child.status, child.stderr).toBe(0);
    // Each route reached the key and was redacted (so the searches below mean something); but the parent's
    // environment, where commands run in a PID namespace of their own: their parent holds no key there.
    if ((await commandIsolation()).kind === 'namespace') expect(child.stdout).not.toMatch(/^ANTHROPIC_API_KEY=/m);
    else expect(child.stdout).toMatch(/^ANTHROPIC_API_KEY=\[redacted: API key\]$/m);
    expect(child.stdout).toContain('built: [redacted: API key]');
    expect(child.stdout).toContain('1: ANTHROPIC_API_KEY=[redacted: API key]');
    expect(child.stdout).toContain('split: [redacted: API key]');
    expect(child.stdout).toContain('env: []');
    expect(keyLeaks(child.stdout, CANARY), 'the CLI transcript').toEqual([]);
    const requests = await fs.readFile(join(out, 'requests.jsonl'), 'utf8');
    expect(requests).toContain('[redacted: API key]');
    expect(keyLeaks(requests, CANARY), 'what the model was sent').toEqual([]);
    const onDisk = await filesContaining(out, CANARY);
    expect(onDisk.hits, 'journal, snapshots, transcript').toEqual([]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}, 120_000);

/**
 * Issue 28, case 14: the key printed encoded (base64 at each alignment, URL-safe, hex either case, reversed,
 * spaced), from a file in the workspace and from the parent's environment. Before, each form reached the
 * model, the journal and the transcript whole. Where commands run in their own PID namespace the parent's
 * environment holds no key at all; the file's key is redacted in every form.
 */
it('a command that prints the key encoded shows the model a redaction, never the key in any form', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-rel-encoded-'));
  const commands = [
    "echo \"environ: $(tr '\\0' '\\n' < /proc/$PPID/environ | grep -a '^ANTHROPIC_API_KEY=' | base64 -w0)\"",
    'base64 -w0 config/.env',
    'printf x | cat - config/.env | base64',
    'printf xy | cat - config/.env | base64 | tr -d =',
    "base64 config/.env | tr '+/' '-_'",
    'od -An -tx1 config/.env',
    'od -An -tx1 config/.env | tr a-f A-F',
    "cut -d= -f2 config/.env | tr -d '\\n' | fold -w1 | tac | tr -d '\\n'",
    "cut -d= -f2 config/.env | sed 's/./& /g'",
    'cut -d= -f2 config/.env | tr a-z A-Z',
  ];
  const half = CANARY.length >> 1;
  const scenario = {
    model: { id: 'claude-test-model', context_window: 200000, max_output: 64000 },
    workspace: { 'config/.env': `ANTHROPIC_API_KEY=${CANARY.slice(0, half)}${CANARY.slice(half)}\n` },
    turns: [
      { user: 'print the key encoded' },
      { assistant: { tool_calls: commands.map((command) => ({ name: 'bash', input: { command } })) } },
      { assistant: { text: 'Done.' } },
    ],
  };
  try {
    const scenarioFile = join(root, 'scenario.json');
    await fs.writeFile(scenarioFile, JSON.stringify(scenario));
    const out = join(root, 'out');
    const child = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/node/headless/cli.ts', '--workspace', join(root, 'ws'), '--scenario', scenarioFile, '--out', out],
      { env: { ...process.env, ANTHROPIC_API_KEY: CANARY }, encoding: 'utf8', timeout: 90_000 },
    );
    expect(child.status, child.stderr).toBe(0);
    expect(keyLeaks(child.stdout, CANARY), 'the CLI transcript').toEqual([]);
    // Every file route printed something that was the key (so the searches mean something).
    expect(child.stdout.split('[redacted: API key]').length - 1).toBeGreaterThanOrEqual(commands.length - 1);
    if ((await commandIsolation()).kind === 'namespace') expect(child.stdout).toMatch(/^environ: $/m);
    const requests = await fs.readFile(join(out, 'requests.jsonl'), 'utf8');
    expect(keyLeaks(requests, CANARY), 'what the model was sent').toEqual([]);
    const onDisk = await filesContaining(out, CANARY);
    expect(onDisk.hits, 'journal, snapshots, transcript').toEqual([]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}, 120_000);
