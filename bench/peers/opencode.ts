/**
 * opencode and kilo (a fork of it) as peers: `opencode run --format json --auto --title T [-c] TEXT`,
 * the provider's baseURL in the config file of a scratch HOME, model requests played in their own
 * tools (read, edit, write, grep, glob, bash: filePath and camelCase fields), an output they cut read
 * back from the file they saved it to, or the command again, filtered.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { AgentHooks } from '../../src/node/localServer/agentHooks';
import { toolResultText } from '../../src/node/localServer/promptBlocks';
import type { LoggedRequest } from '../../src/node/localServer/server';
import type { WireRequest } from '../../src/node/localServer/wire';
import type { AssistantTurn, ScriptedToolCall } from '../../src/node/scenario/types';
import type { AgentRun, AgentRunContext, BenchAgent } from './agent';
import type { ToolCategories } from './categories';
import { isCompactionRequest } from './compactionRequest';
import { installPeer, type PeerPackage } from './install';
import { childAgentOf, scriptedTasks } from './childRequests';
import { commandAgain, needsGate, retrievalTurn, windowAround } from './needs';
import { playToPeer, type PeerDriver } from './peerSession';
import { shellQuote } from './shellQuote';
import { recallTarget, shownResults, type ShownResult } from './shownResults';

export const OPENCODE: PeerPackage = { name: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' };
/** 7.8.x has no Linux binary on the registry here; 7.7.7 is the newest that installs. */
export const KILO: PeerPackage = { name: 'kilo', pkg: '@kilocode/cli', version: '7.7.7', bin: 'kilo' };

export const OPENCODE_CATEGORIES: ToolCategories = {
  read: 'reads',
  bash: 'commandOutput',
  edit: 'editAnswers',
  write: 'editAnswers',
  multiedit: 'editAnswers',
  grep: 'searches',
  glob: 'searches',
  list: 'searches',
};

type Input = Record<string, unknown>;

/** `describeBash`: kilo's bash takes a description (opencode 1.18's has none). */
export function translateForOpencode(turn: AssistantTurn, request: WireRequest, workspaceDir: string, describeBash = false): AssistantTurn {
  const bash = (command: string): ScriptedToolCall => ({
    name: 'bash',
    input: { command, ...(describeBash ? { description: describe(command) } : {}) },
  });
  const abs = (path: unknown): string => (isAbsolute(String(path)) ? String(path) : join(workspaceDir, String(path)));
  const calls: ScriptedToolCall[] = [];
  for (const call of turn.toolCalls) {
    const input = call.input as Input;
    switch (call.name) {
      case 'read':
        calls.push({
          name: 'read',
          input: {
            filePath: abs(input.path),
            ...(input.offset !== undefined ? { offset: input.offset } : {}),
            ...(input.limit !== undefined ? { limit: input.limit } : {}),
          },
        });
        break;
      case 'bash':
        calls.push(bash(String(input.command)));
        break;
      case 'grep':
        calls.push({
          name: 'grep',
          input: {
            pattern: input.pattern,
            path: abs(input.path ?? '.'),
            ...(typeof input.glob === 'string' ? { include: input.glob } : {}),
          },
        });
        break;
      case 'glob':
        calls.push({ name: 'glob', input: { pattern: input.pattern, ...(input.path !== undefined ? { path: abs(input.path) } : {}) } });
        break;
      case 'list':
        calls.push(bash(`ls -p ${shellQuote(String(input.path ?? '.'))}`));
        break;
      case 'edit':
        calls.push({ name: 'edit', input: editInput(abs(input.path), input) });
        break;
      case 'multiedit':
        for (const edit of input.edits as Input[]) calls.push({ name: 'edit', input: editInput(abs(input.path), edit) });
        break;
      case 'write':
        calls.push({ name: 'write', input: { filePath: abs(input.path), content: input.content } });
        break;
      case 'recall':
        calls.push(recallFor(input, request));
        break;
      case 'task':
        // Its own sub-agent tool, with its built-in explore and general agents.
        calls.push({ name: 'task', input: { description: input.description, prompt: input.prompt, subagent_type: input.kind } });
        break;
      default:
        calls.push(call);
    }
  }
  return { ...turn, toolCalls: calls };
}

function describe(command: string): string {
  return command.length > 60 ? `Run ${command.slice(0, 57)}…` : `Run ${command}`;
}

function editInput(path: string, edit: Input): Input {
  return {
    filePath: path,
    oldString: edit.old_string,
    newString: edit.new_string,
    ...(edit.replace_all === true ? { replaceAll: true } : {}),
  };
}

/** An absolute path a cut output names for the rest of it (opencode saves long outputs under its data folder). */
export function savedOutputPath(text: string): string | undefined {
  for (const match of text.matchAll(/(\/[^\s<>"'`]+)/g)) {
    const path = match[1]!.replace(/[.,;:)\]]+$/, '');
    if (/tool-output|truncat|output/i.test(path) && existsSync(path)) return path;
  }
  return undefined;
}

function recallFor(input: Input, request: WireRequest): ScriptedToolCall {
  const { target, offset, limit } = recallTarget(input, request);
  const saved = target ? savedOutputPath(target.text) : undefined;
  if (saved) return { name: 'read', input: { filePath: saved, offset, limit } };
  const command = target?.toolName === 'bash' ? String(target.input.command) : 'true';
  return { name: 'bash', input: { command: `(${command}) 2>&1 | sed -n '${offset},${offset + limit - 1}p'` } };
}

/** A need missing from the request: read around it in a saved output, or run the latest cut command again, filtered. */
export async function opencodeRetrieval(
  need: string,
  request: WireRequest,
  upcoming: AssistantTurn,
  earlier: readonly ShownResult[] = [],
): Promise<AssistantTurn | undefined> {
  const results = shownResults(request).reverse();
  for (const result of results) {
    const saved = savedOutputPath(result.text);
    if (!saved) continue;
    const window = windowAround(await readFile(saved, 'utf8').catch(() => ''), need);
    if (window) return retrievalTurn(upcoming, 'read', { filePath: saved, ...window });
  }
  for (const result of results) {
    if (result.toolName !== 'bash' || !/truncat|\.\.\.|omitted/i.test(result.text)) continue;
    const command = `(${String(result.input.command)}) 2>&1 | grep -F -e ${shellQuote(need)} -B 5 -A 14 | head -n 20`;
    const already = request.messages.some((m) =>
      m.content.some((b) => b.type === 'tool_use' && (b.input as Input | undefined)?.command === command),
    );
    if (!already) return retrievalTurn(upcoming, 'bash', { command });
  }
  const again = commandAgain(need, request, earlier, 'bash');
  return again ? retrievalTurn(upcoming, 'bash', { command: again }) : undefined;
}

/** opencode refuses to edit a file it has not read in the session: its model reads it first. */
export function readBeforeEdit(request: WireRequest, upcoming: AssistantTurn, workspaceDir: string): AssistantTurn | undefined {
  const known = new Set<string>();
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type !== 'tool_use' || !['read', 'write', 'edit'].includes(String(block.name))) continue;
      const path = (block.input as Input | undefined)?.filePath;
      if (typeof path === 'string') known.add(path);
    }
  }
  const unread: string[] = [];
  for (const call of upcoming.toolCalls) {
    const input = call.input as Input;
    const path = isAbsolute(String(input.path)) ? String(input.path) : join(workspaceDir, String(input.path));
    const edits = call.name === 'edit' || call.name === 'multiedit' || (call.name === 'write' && existsSync(path));
    if (edits && !known.has(path) && !unread.includes(path)) unread.push(path);
  }
  if (unread.length === 0) return undefined;
  return { kind: 'assistant', index: upcoming.index, toolCalls: unread.map((filePath) => ({ name: 'read', input: { filePath } })) };
}

/** Title and summary requests on a small model, and anything without tools, are not steps of the session. */
export function isOpencodeSide(request: WireRequest, model: string): boolean {
  return request.tools.length === 0 || request.model !== model;
}

export function toolErrors(requests: readonly LoggedRequest[]): string[] {
  const last = [...requests].reverse().find((r) => r.kind === 'main' && r.status === 200 && r.role !== 'side');
  const messages = (last?.body as { messages?: { content?: unknown }[] } | undefined)?.messages ?? [];
  const out: string[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; content?: unknown; is_error?: boolean }[]) {
      if (block.type === 'tool_result' && block.is_error === true) out.push(toolResultText(block.content).slice(0, 200));
    }
  }
  return out;
}

interface Flavour {
  readonly peer: PeerPackage;
  readonly configFile: string;
  readonly configDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly describeBash: boolean;
}

const FLAVOURS: Record<'opencode' | 'kilo', Flavour> = {
  opencode: {
    peer: OPENCODE,
    configFile: 'opencode.json',
    configDir: 'opencode',
    env: {
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
      OPENCODE_DISABLE_SHARE: '1',
    },
    describeBash: false,
  },
  kilo: {
    peer: KILO,
    configFile: 'kilo.json',
    configDir: 'kilo',
    env: {
      KILO_DISABLE_MODELS_FETCH: '1',
      KILO_DISABLE_AUTOUPDATE: '1',
      KILO_DISABLE_LSP_DOWNLOAD: '1',
      KILO_TELEMETRY_DISABLED: '1',
      OPENCODE_DISABLE_MODELS_FETCH: '1',
      OPENCODE_DISABLE_AUTOUPDATE: '1',
    },
    describeBash: true,
  },
};

function driver(flavour: Flavour, context: AgentRunContext, bin: string, gate: ReturnType<typeof needsGate>): PeerDriver {
  const tasks = scriptedTasks(context.bench.scenario);
  return {
    setup: async (home, url) => {
      const config = {
        $schema: 'https://opencode.ai/config.json',
        model: `anthropic/${context.model}`,
        small_model: `anthropic/${context.model}`,
        autoupdate: false,
        share: 'disabled',
        provider: { anthropic: { options: { baseURL: `${url}/v1`, apiKey: 'local-scenario-key' } } },
        permission: { edit: 'allow', bash: 'allow', webfetch: 'deny', external_directory: 'allow' },
      };
      const dir = join(home, '.config', flavour.configDir);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, flavour.configFile), `${JSON.stringify(config, null, 2)}\n`);
    },
    invocation: (text, first) => ({
      command: bin,
      args: [
        'run',
        '--format',
        'json',
        '--auto',
        '--title',
        'bench',
        '--model',
        `anthropic/${context.model}`,
        ...(first ? [] : ['--continue']),
        text,
      ],
      env: { ...flavour.env, ANTHROPIC_API_KEY: 'local-scenario-key' },
    }),
    hooks: (): AgentHooks => ({
      isCompaction: isCompactionRequest,
      agentOf: (request) => childAgentOf(request, tasks),
      isSide: (request) => isOpencodeSide(request, context.model),
      sideAnswer: () => 'bench',
      before: async (request, upcoming) =>
        (await gate.hook?.(request, upcoming)) ?? readBeforeEdit(request, upcoming, context.workspaceDir),
      translate: (turn, request) => translateForOpencode(turn, request, context.workspaceDir, flavour.describeBash),
    }),
  };
}

function opencodeLike(kind: 'opencode' | 'kilo'): BenchAgent {
  const flavour = FLAVOURS[kind];
  let installed: string | undefined;
  return {
    name: flavour.peer.name,
    version: flavour.peer.version,
    categories: OPENCODE_CATEGORIES,
    playsSubagents: true,
    prepare: async () => {
      const result = await installPeer(flavour.peer);
      if ('problem' in result) return result.problem;
      installed = result.bin;
      return undefined;
    },
    run: async (context: AgentRunContext): Promise<AgentRun> => {
      const gate = needsGate(context.needs, opencodeRetrieval, context.onNotice);
      const session = await playToPeer(context, driver(flavour, context, installed!, gate));
      if (session.outsideHosts.length > 0) context.onNotice(`outside connections refused: ${session.outsideHosts.join(', ')}`);
      for (const error of toolErrors(session.requests)) context.onNotice(`tool error: ${error}`);
      return { requests: session.requests, outsideConnections: session.outsideConnections, unmetNeeds: gate.report.unmet };
    },
  };
}

export const opencodeAgent = opencodeLike('opencode');
export const kiloAgent = opencodeLike('kilo');
