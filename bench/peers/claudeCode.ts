/**
 * Claude Code as a peer: `claude -p TEXT --output-format json [--continue]`, its model requests played
 * from the scenario in its own tools (Read, Edit, Write, Bash: this version has no Grep tool, so a
 * search runs grep through Bash), a long command output read back from the file it saves it to.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { AgentHooks } from '../../src/node/localServer/agentHooks';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { toolResultText } from '../../src/node/localServer/promptBlocks';
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

export const CLAUDE_CODE: PeerPackage = { name: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.328', bin: 'claude' };

export const CLAUDE_CODE_CATEGORIES: ToolCategories = {
  Read: 'reads',
  Bash: 'commandOutput',
  Edit: 'editAnswers',
  Write: 'editAnswers',
  Grep: 'searches',
  Glob: 'searches',
};

type Input = Record<string, unknown>;

/** The scripted (Cairn-vocabulary) calls of one turn as Claude Code's own tool calls. */
export function translateForClaudeCode(turn: AssistantTurn, request: WireRequest, workspaceDir: string): AssistantTurn {
  const abs = (path: unknown): string => (isAbsolute(String(path)) ? String(path) : join(workspaceDir, String(path)));
  const calls: ScriptedToolCall[] = [];
  for (const call of turn.toolCalls) {
    const input = call.input as Input;
    switch (call.name) {
      case 'read':
        calls.push({
          name: 'Read',
          input: {
            file_path: abs(input.path),
            ...(input.offset !== undefined ? { offset: input.offset } : {}),
            ...(input.limit !== undefined ? { limit: input.limit } : {}),
          },
        });
        break;
      case 'bash':
        calls.push({ name: 'Bash', input: { command: input.command, description: describe(String(input.command)) } });
        break;
      case 'grep':
        calls.push({ name: 'Bash', input: { command: grepCommand(input), description: `Search for ${String(input.pattern)}` } });
        break;
      case 'glob':
        calls.push({
          name: 'Bash',
          input: {
            command: `find ${shellQuote(String(input.path ?? '.'))} -path ${shellQuote(String(input.pattern))} | sort`,
            description: 'Find files',
          },
        });
        break;
      case 'list':
        calls.push({ name: 'Bash', input: { command: `ls -p ${shellQuote(String(input.path ?? '.'))}`, description: 'List the folder' } });
        break;
      case 'edit':
        calls.push({ name: 'Edit', input: editInput(abs(input.path), input) });
        break;
      case 'multiedit':
        // One Edit per change, in order, as the model would call them (this version has no MultiEdit).
        for (const edit of input.edits as Input[]) calls.push({ name: 'Edit', input: editInput(abs(input.path), edit) });
        break;
      case 'write':
        calls.push({ name: 'Write', input: { file_path: abs(input.path), content: input.content } });
        break;
      case 'recall':
        calls.push(recallForClaudeCode(input, request));
        break;
      case 'task':
        // Its own sub-agent: Explore for a read-only search, general-purpose otherwise; waited for (the
        // default is background) and on the session's model (Explore defaults to a smaller one).
        calls.push({
          name: 'Agent',
          input: {
            description: input.description,
            prompt: input.prompt,
            subagent_type: input.kind === 'explore' ? 'Explore' : 'general-purpose',
            model: 'sonnet',
            run_in_background: false,
          },
        });
        break;
      default:
        calls.push(call);
    }
  }
  return { ...turn, toolCalls: calls };
}

function editInput(path: string, edit: Input): Input {
  return {
    file_path: path,
    old_string: edit.old_string,
    new_string: edit.new_string,
    ...(edit.replace_all === true ? { replace_all: true } : {}),
  };
}

function describe(command: string): string {
  return command.length > 60 ? `Run ${command.slice(0, 57)}…` : `Run ${command}`;
}

/** Cairn's grep (a regular expression, a path, an optional glob) as grep through the shell. */
export function grepCommand(input: Input): string {
  const glob = typeof input.glob === 'string' ? ` --include=${shellQuote(input.glob)}` : '';
  const ignoreCase = input.ignore_case === true ? 'i' : '';
  return `grep -rnE${ignoreCase}${glob} -- ${shellQuote(String(input.pattern))} ${shellQuote(String(input.path ?? '.'))}`;
}

/** Where Claude Code says it saved an output too long to show: the absolute path in its preview. */
export function savedOutputPath(resultText: string): string | undefined {
  return /(?:saved to|Full output(?: saved)?(?: to)?:?)\s*(\/[^\s<>"']+)/i.exec(resultText)?.[1];
}

/**
 * A recall of the K-th result (`{result:K}`) as what Claude Code offers to see it again: a Read of the
 * file it saved the output to, or the command again, cut to the same lines.
 */
function recallForClaudeCode(input: Input, request: WireRequest): ScriptedToolCall {
  const { target, offset, limit } = recallTarget(input, request);
  const saved = target ? savedOutputPath(target.text) : undefined;
  if (saved) return { name: 'Read', input: { file_path: saved, offset, limit } };
  const command = target?.toolName === 'Bash' ? String(target.input.command) : 'true';
  return {
    name: 'Bash',
    input: {
      command: `(${command}) 2>&1 | sed -n '${offset},${offset + limit - 1}p'`,
      description: 'Show those lines of the output again',
    },
  };
}

/** A need missing from the request: a Read, around it, of the saved-output file that holds it. */
export async function claudeCodeRetrieval(
  need: string,
  request: WireRequest,
  upcoming: AssistantTurn,
  earlier: readonly ShownResult[] = [],
): Promise<AssistantTurn | undefined> {
  for (const result of shownResults(request).reverse()) {
    const saved = savedOutputPath(result.text);
    if (!saved) continue;
    const text = await readFile(saved, 'utf8').catch(() => '');
    const window = windowAround(text, need);
    if (window) return retrievalTurn(upcoming, 'Read', { file_path: saved, ...window });
  }
  // An output cut in the middle ("… [N characters truncated] …") has no way back but the command again,
  // filtered to the same window of lines around what is missing.
  for (const result of shownResults(request).reverse()) {
    if (result.toolName !== 'Bash' || !TRUNCATED.test(result.text)) continue;
    const command = `(${String(result.input.command)}) 2>&1 | grep -F -e ${shellQuote(need)} -B 5 -A 14 | head -n 20`;
    const already = request.messages.some((m) =>
      m.content.some((b) => b.type === 'tool_use' && (b.input as Input | undefined)?.command === command),
    );
    if (!already) return retrievalTurn(upcoming, 'Bash', { command, description: 'Show that part of the output again' });
  }
  const again = commandAgain(need, request, earlier, 'Bash');
  return again
    ? retrievalTurn(upcoming, 'Bash', { command: again, description: 'Run it again: the compaction summarised it away' })
    : undefined;
}

/** How Claude Code marks an output it cut in the middle. */
const TRUNCATED = /\.\.\. \[\d+ characters truncated\] \.\.\./;

/** Files Claude Code has in its read state, from the calls in the conversation: read, written or edited. */
function filesKnown(request: WireRequest): Set<string> {
  const known = new Set<string>();
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type !== 'tool_use' || !['Read', 'Write', 'Edit'].includes(String(block.name))) continue;
      const path = (block.input as Input | undefined)?.file_path;
      if (typeof path === 'string') known.add(path);
    }
  }
  return known;
}

/**
 * Claude Code refuses to edit (or overwrite) a file it has not read in the session ("File has not been
 * read yet"), so its model reads it first: that Read is served before the step, as an extra request.
 */
export function readBeforeEdit(request: WireRequest, upcoming: AssistantTurn, workspaceDir: string): AssistantTurn | undefined {
  const known = filesKnown(request);
  const unread: string[] = [];
  for (const call of upcoming.toolCalls) {
    const input = call.input as Input;
    const path = isAbsolute(String(input.path)) ? String(input.path) : join(workspaceDir, String(input.path));
    const edits = call.name === 'edit' || call.name === 'multiedit' || (call.name === 'write' && existsSync(path));
    if (edits && !known.has(path) && !unread.includes(path)) unread.push(path);
  }
  if (unread.length === 0) return undefined;
  return { kind: 'assistant', index: upcoming.index, toolCalls: unread.map((file_path) => ({ name: 'Read', input: { file_path } })) };
}

/** Requests that are not a step of the session: no tools (a title or topic request), or a small model. */
export function isClaudeCodeSide(request: WireRequest, model: string): boolean {
  return request.tools.length === 0 || request.model !== model;
}

/**
 * What turns on Claude Code's one-hour prompt cache with an API key (its default there is five minutes): the
 * variable its cache-lifetime choice reads after `FORCE_PROMPT_CACHING_5M`, `CLAUDE_CODE_PROMPT_CACHE_TTL` and
 * the `promptCacheTtl` setting, for the main conversation and its sub-agents alike (checked in the 2.1.328
 * binary). Its requests then mark every breakpoint `cache_control: {type: "ephemeral", ttl: "1h"}`.
 */
export const CLAUDE_CODE_1H_ENV: Readonly<Record<string, string>> = { ENABLE_PROMPT_CACHING_1H: '1' };

/** The environment every Claude Code invocation gets, `extra` (its cache setting) last. */
export function claudeCodeEnv(url: string, home: string, extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: 'local-scenario-key',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    IS_SANDBOX: '1',
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ...extra,
  };
}

function driver(
  context: AgentRunContext,
  bin: string,
  gate: ReturnType<typeof needsGate>,
  extraEnv: Readonly<Record<string, string>>,
): PeerDriver {
  const tasks = scriptedTasks(context.bench.scenario);
  return {
    invocation: (text, first, home, url) => ({
      command: bin,
      args: [
        '-p',
        text,
        '--output-format',
        'json',
        '--dangerously-skip-permissions',
        '--model',
        context.model,
        ...(first ? [] : ['--continue']),
      ],
      env: claudeCodeEnv(url, home, extraEnv),
    }),
    hooks: (): AgentHooks => ({
      isCompaction: isCompactionRequest,
      agentOf: (request) => childAgentOf(request, tasks),
      isSide: (request) => isClaudeCodeSide(request, context.model),
      sideAnswer: () => 'Session',
      before: async (request, upcoming) =>
        (await gate.hook?.(request, upcoming)) ?? readBeforeEdit(request, upcoming, context.workspaceDir),
      translate: (turn, request) => translateForClaudeCode(turn, request, context.workspaceDir),
    }),
  };
}

let installed: string | undefined;

/** Claude Code as a peer, `env` added to every invocation's environment (a cache setting). */
function claudeCodeConfigured(name: string, env: Readonly<Record<string, string>>): BenchAgent {
  return {
    name,
    version: CLAUDE_CODE.version,
    categories: CLAUDE_CODE_CATEGORIES,
    playsSubagents: true,
    prepare: async () => {
      const result = await installPeer(CLAUDE_CODE);
      if ('problem' in result) return result.problem;
      installed = result.bin;
      return undefined;
    },
    run: async (context: AgentRunContext): Promise<AgentRun> => {
      const gate = needsGate(context.needs, claudeCodeRetrieval, context.onNotice);
      const session = await playToPeer(context, driver(context, installed!, gate, env));
      if (session.outsideHosts.length > 0) context.onNotice(`outside connections refused: ${session.outsideHosts.join(', ')}`);
      for (const error of toolErrors(session.requests)) context.onNotice(`tool error: ${error}`);
      return { requests: session.requests, outsideConnections: session.outsideConnections, unmetNeeds: gate.report.unmet };
    },
  };
}

/** Claude Code as installed, with an API key: five-minute cache entries. */
export const claudeCodeAgent: BenchAgent = claudeCodeConfigured(CLAUDE_CODE.name, {});

/**
 * Claude Code with its one-hour cache setting (`ENABLE_PROMPT_CACHING_1H=1`): what a user who knows the
 * setting runs. A peer in its own right: its writes cost 2× input instead of 1.25×, and an idle under an hour
 * leaves its cache warm.
 */
export const claudeCode1hAgent: BenchAgent = claudeCodeConfigured(`${CLAUDE_CODE.name}-1h`, CLAUDE_CODE_1H_ENV);

/** Tool errors Claude Code answered in the session (a translation it refused), from its last request. */
export function toolErrors(requests: readonly LoggedRequest[]): string[] {
  const last = [...requests].reverse().find((r) => r.kind === 'main' && r.status === 200 && r.role !== 'side');
  const messages = (last?.body as { messages?: { content?: unknown }[] } | undefined)?.messages ?? [];
  const out: string[] = [];
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; content?: unknown }[]) {
      if (block.type !== 'tool_result') continue;
      const text = toolResultText(block.content);
      const error = /<tool_use_error>([\s\S]*?)<\/tool_use_error>/.exec(text)?.[1];
      if (error) out.push(error.slice(0, 200));
    }
  }
  return out;
}
