/**
 * The strategies the economy benchmark runs side by side. Cairn is the session as built; the peers'
 * strategies are expressed through the two benchmark hooks of `SessionPorts` (`wrapTools`, `project`),
 * so everything else — loop, composer, breakpoints, journal, local server — is the same code in every run.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { SessionPorts } from '../../src/core/session/node/sessionAssembly';
import type { ConversationEntry } from '../../src/core/conversation/conversation';
import { projectForProvider } from '../../src/core/conversation/projection';
import type { LedgerResult, ResultStore, ToolCall } from '../../src/core/ledger/types';
import type { Message, ToolResultBlock, UserBlock } from '../../src/core/model/types';

export type StrategyName = 'naive' | 'rewrite' | 'cairn';
export const STRATEGIES: readonly StrategyName[] = ['naive', 'rewrite', 'cairn'];

export type StrategyHooks = Pick<SessionPorts, 'project' | 'wrapTools'>;

/** Long output as peers cut it: head and tail kept, the middle gone for good (no id, no recall). */
export interface TruncateLimits {
  readonly maxLines: number;
  readonly maxChars: number;
  readonly headLines: number;
  readonly tailLines: number;
  readonly headChars: number;
  readonly tailChars: number;
}

/** The same numbers as Cairn's cap, so the comparison measures what is done with output, not how much is kept. */
export const PEER_TRUNCATE: TruncateLimits = {
  maxLines: 400,
  maxChars: 40_000,
  headLines: 200,
  tailLines: 100,
  headChars: 20_000,
  tailChars: 10_000,
};

export function hooksFor(strategy: StrategyName, workspaceDir: string): StrategyHooks {
  switch (strategy) {
    case 'cairn':
      return {};
    case 'naive':
      return { wrapTools: (ledger, journal) => naiveExecutor(ledger, journal, workspaceDir) };
    case 'rewrite':
      return {
        wrapTools: (ledger, journal) => naiveExecutor(ledger, journal, workspaceDir),
        project: (entries) => rewriteHistory(entries, PEER_TRUNCATE),
      };
  }
}

type LedgerLike = {
  execute(call: ToolCall, context?: { signal?: AbortSignal; onOutput?: (chunk: string) => void }): Promise<LedgerResult>;
  answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult>;
  state(): unknown;
};

/**
 * Every result in full: a stub, a same-result answer or a capped text becomes its full stored body (what
 * the ledger stored is exactly what a tool without hygiene would have returned), and an edit is answered
 * with the whole new file. Reads keep their window (2000 lines), as every agent's read tool has one.
 */
export function naiveExecutor(ledger: LedgerLike, store: Pick<ResultStore, 'readLines'>, workspaceDir: string): LedgerLike {
  return {
    state: () => ledger.state(),
    answerWithoutRunning: (call, message, answer) => ledger.answerWithoutRunning(call, message, answer),
    async execute(call, context) {
      const result = await ledger.execute(call, context);
      if (result.kind === 'read-stub' || result.kind === 'same-result' || result.kind === 'capped') {
        const slice = await store.readLines(result.id, 1, Number.MAX_SAFE_INTEGER);
        if (!slice) return result;
        return { ...result, kind: 'full', text: withBody(result.bracket, slice.lines) };
      }
      if (result.kind === 'diff') {
        const parts: string[] = [];
        for (const path of editedPaths(call, result.text)) {
          const content = await readFile(resolve(workspaceDir, path), 'utf8').catch(() => undefined);
          if (content !== undefined) parts.push(path, content.replace(/\n$/, ''));
        }
        return { ...result, kind: 'full', text: withBody(result.bracket, parts) };
      }
      return result;
    },
  };
}

function withBody(bracket: string, lines: readonly string[]): string {
  return lines.length > 0 ? `${bracket}\n${lines.join('\n')}` : bracket;
}

/** The files an edit changed: the call's `path`, or for a patch each `[path sha …]` bracket of the answer. */
export function editedPaths(call: ToolCall, text: string): string[] {
  const input = call.input as { path?: unknown } | null;
  if (input && typeof input.path === 'string') return [input.path];
  const paths: string[] = [];
  for (const line of text.split('\n')) {
    const match = /^\[(\S+) sha [0-9a-f]+\]/.exec(line);
    if (match) paths.push(match[1]!);
  }
  return paths;
}

/** Tools whose results hold a file's content (a read, or a naive edit's whole new file), keyed by path. */
const FILE_CONTENT_TOOLS = new Set(['read', 'write', 'edit', 'multiedit']);

/**
 * What several peers do to history before each request: when a file's content appears again, the earlier
 * results holding it are replaced by a short note; and long tool output is cut head and tail with no way
 * back. The first rewrites messages already sent, which is exactly what the benchmark measures.
 */
export function rewriteHistory(entries: readonly ConversationEntry[], limits: TruncateLimits): Message[] {
  const messages = projectForProvider(entries);
  const calls = new Map<string, { name: string; path?: string }>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_use') continue;
      const path = (block.input as { path?: unknown } | null)?.path;
      calls.set(block.id, { name: block.name, ...(typeof path === 'string' ? { path: normalisePath(path) } : {}) });
    }
  }
  // The newest result holding each path's content; older ones are superseded.
  const newest = new Map<string, string>();
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of message.content) {
      if (block.type !== 'tool_result' || block.is_error) continue;
      const call = calls.get(block.tool_use_id);
      if (call?.path !== undefined && FILE_CONTENT_TOOLS.has(call.name)) newest.set(call.path, block.tool_use_id);
    }
  }
  return messages.map((message) => {
    if (message.role !== 'user') return message;
    const content = message.content.map((block): UserBlock => {
      if (block.type !== 'tool_result') return block;
      const call = calls.get(block.tool_use_id);
      if (!call) return block;
      if (call.path !== undefined && FILE_CONTENT_TOOLS.has(call.name) && !block.is_error && newest.get(call.path) !== block.tool_use_id) {
        return { ...block, content: `${firstLine(block.content)}\n[Superseded: ${call.path} was read again later; see the newer result.]` };
      }
      if (call.name === 'read') return block;
      const cut = truncateHeadTail(block.content, limits);
      return cut === block.content ? block : ({ ...block, content: cut } satisfies ToolResultBlock);
    });
    return { role: 'user', content };
  });
}

function normalisePath(path: string): string {
  return path.replace(/^\.\//, '').replace(/\/+/g, '/');
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end < 0 ? text : text.slice(0, end);
}

/** Head and tail by whole lines within both line and character limits; the middle is dropped with a count. */
export function truncateHeadTail(text: string, limits: TruncateLimits): string {
  const lines = text.split('\n');
  if (lines.length <= limits.maxLines && text.length <= limits.maxChars) return text;
  const head = takeWithin(lines, limits.headLines, limits.headChars);
  const rest = lines.slice(head.length);
  const tail = takeWithin([...rest].reverse(), limits.tailLines, limits.tailChars).reverse();
  const dropped = lines.length - head.length - tail.length;
  return [...head, `[… ${dropped} lines truncated …]`, ...tail].join('\n');
}

function takeWithin(lines: readonly string[], maxLines: number, maxChars: number): string[] {
  const taken: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (taken.length >= maxLines || chars + line.length + 1 > maxChars) break;
    taken.push(line);
    chars += line.length + 1;
  }
  return taken;
}
