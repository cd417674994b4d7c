/**
 * Cline as a peer: `cline --json TEXT` (then `--id SESSION` to continue), its provider settings file in
 * a scratch HOME pointing at the local server, model requests played in its own tools (read_files,
 * editor, search_codebase, run_commands). Its model requests come from a background daemon that
 * outlives the CLI: the harness ends it by process id after the run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { AgentHooks } from '../../src/node/localServer/agentHooks';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn, ScriptedToolCall } from '../../src/node/scenario/types';
import type { AgentRun, AgentRunContext, BenchAgent } from './agent';
import type { ToolCategories } from './categories';
import { isCompactionRequest } from './compactionRequest';
import { installPeer, type PeerPackage } from './install';
import { childAgentOf, scriptedTasks } from './childRequests';
import { needsGate, retrievalTurn } from './needs';
import { playToPeer, type PeerDriver } from './peerSession';
import { shellQuote } from './shellQuote';
import { recallTarget, shownResults } from './shownResults';

export const CLINE: PeerPackage = { name: 'cline', pkg: 'cline', version: '3.0.65', bin: 'cline' };

export const CLINE_CATEGORIES: ToolCategories = {
  read_files: 'reads',
  run_commands: 'commandOutput',
  editor: 'editAnswers',
  search_codebase: 'searches',
};

type Input = Record<string, unknown>;

/** The system prompt of a spawned sub-agent, by the scripted task's kind. */
const CLINE_SUBAGENT_PROMPTS: Readonly<Record<string, string>> = {
  explore: 'You search and read this codebase to answer a question. Do not change any file. Answer with what you found, briefly.',
  general: 'You do the task you are given in this codebase, with any tool you need, then say briefly what you did.',
};

export function translateForCline(turn: AssistantTurn, request: WireRequest, workspaceDir: string): AssistantTurn {
  const abs = (path: unknown): string => (isAbsolute(String(path)) ? String(path) : join(workspaceDir, String(path)));
  const calls: ScriptedToolCall[] = [];
  for (const call of turn.toolCalls) {
    const input = call.input as Input;
    switch (call.name) {
      case 'read': {
        const offset = typeof input.offset === 'number' ? input.offset : undefined;
        const limit = typeof input.limit === 'number' ? input.limit : undefined;
        const range =
          offset !== undefined || limit !== undefined ? { start_line: offset ?? 1, end_line: (offset ?? 1) + (limit ?? 2000) - 1 } : {};
        calls.push({ name: 'read_files', input: { files: [{ path: abs(input.path), ...range }] } });
        break;
      }
      case 'bash':
        calls.push({ name: 'run_commands', input: { commands: [String(input.command)] } });
        break;
      case 'grep':
        // Cline's search takes patterns over the whole workspace; a path or glob narrows it only through the shell.
        calls.push({ name: 'run_commands', input: { commands: [grepCommand(input)] } });
        break;
      case 'glob':
        calls.push({
          name: 'run_commands',
          input: { commands: [`find ${shellQuote(String(input.path ?? '.'))} -path ${shellQuote(String(input.pattern))} | sort`] },
        });
        break;
      case 'list':
        calls.push({ name: 'run_commands', input: { commands: [`ls -p ${shellQuote(String(input.path ?? '.'))}`] } });
        break;
      case 'edit':
        calls.push(...editCalls(abs(input.path), input));
        break;
      case 'multiedit':
        for (const edit of input.edits as Input[]) calls.push(...editCalls(abs(input.path), edit));
        break;
      case 'write': {
        // Cline's editor creates a file only when none is there; over an existing one it refuses unless
        // `old_text` names the text replaced (its own error says so), so a rewrite replaces the whole text.
        const path = abs(input.path);
        const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
        calls.push({ name: 'editor', input: { path, ...(current ? { old_text: current } : {}), new_text: input.content } });
        break;
      }
      case 'recall':
        calls.push(recallFor(input, request));
        break;
      case 'task':
        // Its own sub-agent tool (it waits for the sub-agent and returns its answer); the system prompt
        // states the bounds Cairn's explore and general children have.
        calls.push({
          name: 'spawn_agent',
          input: { systemPrompt: CLINE_SUBAGENT_PROMPTS[String(input.kind)] ?? CLINE_SUBAGENT_PROMPTS.general, task: input.prompt },
        });
        break;
      default:
        calls.push(call);
    }
  }
  return { ...turn, toolCalls: calls };
}

export function grepCommand(input: Input): string {
  const glob = typeof input.glob === 'string' ? ` --include=${shellQuote(input.glob)}` : '';
  return `grep -rnE${input.ignore_case === true ? 'i' : ''}${glob} -- ${shellQuote(String(input.pattern))} ${shellQuote(String(input.path ?? '.'))}`;
}

/**
 * Cline's editor replaces one exact occurrence; a replace-all becomes the same change through the shell
 * (perl, literal strings), as its model would do rather than one call per occurrence.
 */
function editCalls(path: string, edit: Input): ScriptedToolCall[] {
  if (edit.replace_all !== true) return [{ name: 'editor', input: { path, old_text: edit.old_string, new_text: edit.new_string } }];
  const perl = `perl -0pi -e 's/\\Q$ENV{OLD}\\E/$ENV{NEW}/g' ${shellQuote(path)}`;
  return [
    {
      name: 'run_commands',
      input: { commands: [`OLD=${shellQuote(String(edit.old_string))} NEW=${shellQuote(String(edit.new_string))} ${perl}`] },
    },
  ];
}

/** Cline keeps no output to go back to: a recall runs the command again, cut to the same lines. */
function recallFor(input: Input, request: WireRequest): ScriptedToolCall {
  const { target, offset, limit } = recallTarget(input, request);
  const commands = target?.toolName === 'run_commands' ? (target.input.commands as unknown[]).map(String) : ['true'];
  return { name: 'run_commands', input: { commands: [`(${commands.join(' && ')}) 2>&1 | sed -n '${offset},${offset + limit - 1}p'`] } };
}

/** A need cut from an output: the latest command again, filtered to the lines around it. */
export function clineRetrieval(need: string, request: WireRequest, upcoming: AssistantTurn): AssistantTurn | undefined {
  for (const result of shownResults(request).reverse()) {
    if (result.toolName !== 'run_commands' || !CUT.test(result.text)) continue;
    const commands = (result.input.commands as unknown[] | undefined)?.map(String) ?? [];
    if (commands.length === 0) continue;
    const command = `(${commands.join(' && ')}) 2>&1 | grep -F -e ${shellQuote(need)} -B 5 -A 14 | head -n 20`;
    const already = request.messages.some((m) =>
      m.content.some((b) => b.type === 'tool_use' && JSON.stringify(b.input ?? {}).includes(JSON.stringify(command).slice(1, -1))),
    );
    if (!already) return retrievalTurn(upcoming, 'run_commands', { commands: [command] });
  }
  return undefined;
}

/** How cline marks an output it cut in the middle (it keeps about 8,000 characters of head and tail). */
const CUT = /\.\.\.\[truncated \d+ chars\]\.\.\./;

export function isClineSide(request: WireRequest, model: string): boolean {
  return request.tools.length === 0 || request.model !== model;
}

/** Processes running with this HOME (the hub daemon the CLI leaves behind), ended by id. */
async function endProcessesOf(home: string): Promise<void> {
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'utf8').catch(() => '');
    if (!environ.split('\0').includes(`HOME=${home}`)) continue;
    try {
      process.kill(Number(entry), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
}

function driver(context: AgentRunContext, bin: string, gate: ReturnType<typeof needsGate>): PeerDriver {
  const tasks = scriptedTasks(context.bench.scenario);
  return {
    setup: async (home, url) => {
      const dir = join(home, '.cline', 'data', 'settings');
      await mkdir(dir, { recursive: true });
      const settings = {
        version: 1,
        lastUsedProvider: 'anthropic',
        modes: {},
        providers: {
          anthropic: {
            settings: { provider: 'anthropic', apiKey: 'local-scenario-key', model: context.model, baseUrl: `${url}/v1` },
            updatedAt: new Date().toISOString(),
            tokenSource: 'manual',
          },
        },
      };
      await writeFile(join(dir, 'providers.json'), `${JSON.stringify(settings, null, 2)}\n`);
    },
    // cline 3.0.65 cannot continue a session headless: `--id` needs a TTY, and JSON mode refuses a
    // resumed session. Each user turn is therefore a new task, without the earlier turns' context, which
    // makes its multi-turn figures a lower bound (the report says so and leaves it out of "best peer").
    invocation: (text) => ({
      command: bin,
      args: ['--json', '--compaction', 'off', '-P', 'anthropic', '-m', context.model, text],
      env: { CLINE_TELEMETRY_DISABLED: '1' },
    }),
    hooks: (): AgentHooks => ({
      isCompaction: isCompactionRequest,
      agentOf: (request) => childAgentOf(request, tasks),
      isSide: (request) => isClineSide(request, context.model),
      sideAnswer: () => 'bench',
      ...(gate.hook ? { before: gate.hook } : {}),
      translate: (turn, request) => translateForCline(turn, request, context.workspaceDir),
    }),
    cleanup: (home) => endProcessesOf(home),
  };
}

let installed: string | undefined;

export const clineAgent: BenchAgent = {
  name: CLINE.name,
  version: CLINE.version,
  categories: CLINE_CATEGORIES,
  playsSubagents: true,
  caveat:
    'cannot continue a session headless (cline 3.0.65: --id needs a TTY); every user turn after the first starts a new task without the earlier context, so its figures for multi-turn scenarios are a lower bound and it is left out of "best peer"',
  prepare: async () => {
    const result = await installPeer(CLINE);
    if ('problem' in result) return result.problem;
    installed = result.bin;
    return undefined;
  },
  run: async (context: AgentRunContext): Promise<AgentRun> => {
    const gate = needsGate(context.needs, clineRetrieval, context.onNotice);
    const session = await playToPeer(context, driver(context, installed!, gate));
    if (session.outsideHosts.length > 0) context.onNotice(`outside connections refused: ${session.outsideHosts.join(', ')}`);
    return { requests: session.requests, outsideConnections: session.outsideConnections, unmetNeeds: gate.report.unmet };
  },
};
