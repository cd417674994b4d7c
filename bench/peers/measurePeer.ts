/**
 * One agent's run, read from the local server's request log with the same meter for every agent:
 * the server's prompt-cache simulation decided what each request read, wrote or left uncached, and
 * its token counter counts the prompt. Side requests (title generation, token counting) are counted
 * apart and are in the billed total.
 */
import { ApiError } from '../../src/node/localServer/apiError';
import { promptBlocks, totalTokens, type PromptBlock } from '../../src/node/localServer/promptBlocks';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { TokenCounter } from '../../src/node/localServer/tokenCounter';
import { validateRequest } from '../../src/node/localServer/validateRequest';
import type { WireRequest } from '../../src/node/localServer/wire';
import { billedOf, cacheWrite1hOf, WRITE_1H_FACTOR, WRITE_FACTOR } from '../economy/measure';
import { CATEGORIES, type TokenCategory, type ToolCategories } from './categories';

export interface PeerFigures {
  /** Scripted steps answered (main requests, retrievals and side requests apart). */
  readonly requests: number;
  readonly retrievals: number;
  readonly sideRequests: number;
  readonly billed: number;
  readonly uncached: number;
  readonly cacheWrite: number;
  /** The part of `cacheWrite` written to one-hour entries (billed at 2× input, not 1.25×). */
  readonly cacheWrite1h: number;
  readonly cacheRead: number;
  /**
   * What expiry cost: tokens written again because the entry that held them had expired (a gap longer than its
   * lifetime, the user's idle or a long wait), which a live entry would have let the request read.
   */
  readonly expiryRewrite: number;
  /** Those writes' billed-input equivalent over `billed`: the share of the bill that time alone cost. */
  readonly expiryShare: number;
  /**
   * The whole cache write of the requests that found part of their prefix expired (the first request after a
   * gap that outlived an entry), whatever they sent: beside the rewrite of an unchanged prefix, what an agent
   * chose to send differently once its cache was cold (Cairn elides then) and what was new.
   */
  readonly coldStartWrite: number;
  /** Those writes' billed-input equivalent over `billed`. */
  readonly coldStartShare: number;
  /** Main requests that did not extend the previous one of their generation. */
  readonly cacheBreaks: number;
  readonly firstBreak: string | null;
  /** Tools and system of the first main request: what the agent sends before any conversation. */
  readonly fixedTokens: number;
  readonly peakContext: number;
  readonly compactions: number;
  /** The peak request's conversation tokens by what produced them. */
  readonly conversation: Readonly<Record<TokenCategory, number>>;
  /**
   * What the run carried: over every main request (retrievals included), the tokens of each source summed, the
   * fixed part (tools and system) apart. Cached, a token carried costs 0.1 of an input token each time, so this
   * is where the reads side of the bill goes (issue 30 §4); the writes side is `cacheWrite`.
   */
  readonly carried: Readonly<Record<TokenCategory | 'fixed', number>>;
}

const counter = new TokenCounter();

function wireOf(request: LoggedRequest, countTokens = false): WireRequest | undefined {
  const wire = validateRequest(request.body, { countTokens });
  return wire instanceof ApiError ? undefined : wire;
}

export function measurePeer(requests: readonly LoggedRequest[], categories: ToolCategories): PeerFigures {
  let uncached = 0,
    cacheWrite = 0,
    cacheWrite1h = 0,
    cacheRead = 0,
    expiry5m = 0,
    expiry1h = 0,
    coldStart = 0,
    coldStartBilled = 0,
    main = 0,
    retrievals = 0,
    side = 0,
    compactions = 0,
    peak = 0,
    fixed = -1,
    breaks = 0;
  let firstBreak: string | null = null;
  // Each agent's conversation (the session's own, each sub-agent's) is followed apart: a sub-agent's
  // request between two of its parent's breaks neither.
  const previousOf = new Map<string, PromptBlock[]>();
  let peakWire: WireRequest | undefined;
  const carried: Record<TokenCategory | 'fixed', number> = { ...zeroCategories(), fixed: 0 };
  for (const request of requests) {
    if (request.kind === 'count_tokens' && request.status === 200) {
      // Token counting is a side request; its prompt is counted as plain input.
      const wire = wireOf(request, true);
      if (wire) uncached += totalTokens(promptBlocks(wire, counter));
      side++;
      continue;
    }
    if ((request.kind !== 'main' && request.kind !== 'compaction') || request.status !== 200 || !request.usage) continue;
    const usage = request.usage;
    uncached += usage.input_tokens;
    cacheWrite += usage.cache_creation_input_tokens;
    cacheWrite1h += cacheWrite1hOf(request);
    cacheRead += usage.cache_read_input_tokens;
    const rewritten5m = request.cache?.rewrittenAfterExpiry5m ?? 0;
    const rewritten1h = request.cache?.rewrittenAfterExpiry1h ?? 0;
    expiry5m += rewritten5m;
    expiry1h += rewritten1h;
    // A request that wrote anything again because of expiry found its prefix cold (the cache's account says so
    // exactly when some expired entry would have been read).
    if (rewritten5m + rewritten1h > 0) {
      const hour = cacheWrite1hOf(request);
      coldStart += usage.cache_creation_input_tokens;
      coldStartBilled += WRITE_FACTOR * (usage.cache_creation_input_tokens - hour) + WRITE_1H_FACTOR * hour;
    }
    const agent = request.agent ?? '';
    if (request.kind === 'compaction' || request.role === 'compaction') {
      compactions++;
      previousOf.delete(agent);
      continue;
    }
    if (request.role === 'side') {
      side++;
      continue;
    }
    if (request.role === 'retrieval') retrievals++;
    else main++;
    const wire = wireOf(request);
    if (!wire) continue;
    const blocks = promptBlocks(wire, counter);
    const fixedHere = totalTokens(blocks.filter((b) => b.section !== 'messages'));
    if (fixed < 0) fixed = fixedHere;
    carried.fixed += fixedHere;
    const bySource = categorized(wire, blocks, categories);
    for (const category of CATEGORIES) carried[category] += bySource[category];
    const total = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
    if (total > peak) {
      peak = total;
      peakWire = wire;
    }
    const previous = previousOf.get(agent);
    if (previous) {
      const at = divergence(previous, blocks);
      if (at !== undefined) {
        breaks++;
        firstBreak ??= `request ${request.index}: ${at}`;
      }
    }
    previousOf.set(agent, blocks);
  }
  const billed = billedOf({ uncached, cacheWrite, cacheRead, cacheWrite1h });
  const expiryBilled = WRITE_FACTOR * expiry5m + WRITE_1H_FACTOR * expiry1h;
  return {
    requests: main,
    retrievals,
    sideRequests: side,
    billed,
    uncached,
    cacheWrite,
    cacheWrite1h,
    cacheRead,
    expiryRewrite: expiry5m + expiry1h,
    expiryShare: billed > 0 ? expiryBilled / billed : 0,
    coldStartWrite: coldStart,
    coldStartShare: billed > 0 ? coldStartBilled / billed : 0,
    cacheBreaks: breaks,
    firstBreak,
    fixedTokens: Math.max(0, fixed),
    peakContext: peak,
    compactions,
    conversation: peakWire ? conversationTokens(peakWire, categories) : zeroCategories(),
    carried,
  };
}

/** Where `next` stops extending `previous` (a section and its block number), or undefined when it extends it. */
function divergence(previous: readonly PromptBlock[], next: readonly PromptBlock[]): string | undefined {
  for (let i = 0; i < previous.length; i++) {
    if (next[i]?.prefixHash === previous[i]!.prefixHash) continue;
    const section = previous[i]!.section;
    const inSection = previous.slice(0, i).filter((b) => b.section === section).length;
    return `${section}[${inSection}] changed`;
  }
  return undefined;
}

function zeroCategories(): Record<TokenCategory, number> {
  return Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<TokenCategory, number>;
}

/** Tokens of every message block, each tool result under its tool's category; everything else is text. */
export function conversationTokens(wire: WireRequest, categories: ToolCategories): Record<TokenCategory, number> {
  return categorized(wire, promptBlocks({ ...wire, tools: [], system: [] }, counter), categories);
}

/** `conversationTokens` from the request's blocks already counted (its message blocks, in order). */
function categorized(wire: WireRequest, counted: readonly PromptBlock[], categories: ToolCategories): Record<TokenCategory, number> {
  const out = zeroCategories();
  const toolOf = new Map<string, string>();
  for (const message of wire.messages) {
    for (const block of message.content) if (block.type === 'tool_use') toolOf.set(String(block.id), String(block.name));
  }
  const blocks = counted.filter((b) => b.section === 'messages');
  let i = 0;
  for (const message of wire.messages) {
    for (const block of message.content) {
      const tokens = blocks[i++]!.tokens;
      const category = block.type === 'tool_result' ? (categories[toolOf.get(String(block.tool_use_id)) ?? ''] ?? 'text') : 'text';
      out[category] += tokens;
    }
  }
  return out;
}
