/**
 * The floor: a lower bound on what a session must cost. Every distinct content the model needed is sent
 * once (written to the cache at 1.25×, or plain at 1× on the last request, which nothing reads after), and
 * everything sent before is read from the cache at 0.1×, with a perfect cache: any prefix of any earlier
 * request is a hit (no breakpoint limits, no minimum length, no expiry).
 *
 * "What the model needed" is taken from the Cairn run's requests (the same scripted session): its reads,
 * diffs, capped outputs and messages. A tool result whose content repeats an earlier result's content
 * counts only its first line (the model needs to know which result it is, not the content again).
 */
import { promptBlocks, toolResultText } from '../../src/node/localServer/promptBlocks';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { TokenCounter } from '../../src/node/localServer/tokenCounter';
import { validateRequest } from '../../src/node/localServer/validateRequest';
import { answeredPromptRequests, READ_FACTOR, WRITE_FACTOR } from './measure';

export interface FloorBlock {
  /** Identity of the prefix ending with this block (a hash chain: equal means every block before is equal too). */
  readonly prefixHash: string;
  readonly tokens: number;
  /** For a tool result: its content after the first line (the bracket), and the tokens of that first line. */
  readonly result?: { readonly body: string; readonly headTokens: number };
}

export interface FloorFigures {
  readonly inputTokens: number;
  readonly written: number;
  readonly read: number;
  readonly uncached: number;
  readonly billed: number;
  /** Cache read / prompt tokens over the same requests `measureRun` counts: what a perfect cache reaches on this session. */
  readonly cacheHitShare: number;
}

export interface FloorRequest {
  /** A compaction starts a new generation: content the summary dropped is needed again after it. */
  readonly generation: number;
  readonly blocks: readonly FloorBlock[];
  /** A main request that is not the first of its generation (counted in the cache-hit share). */
  readonly countsForShare?: boolean;
}

export function floorOf(requests: readonly FloorRequest[]): FloorFigures {
  const seenPrefixes = new Set<string>();
  // Content → the prefix where it first appeared in this generation; the same block carried again by
  // later requests is not a repeat, the same content in another place is.
  let firstSeen = new Map<string, string>();
  let generation = requests[0]?.generation ?? 0;
  let written = 0,
    read = 0,
    uncached = 0,
    inputTokens = 0,
    shareRead = 0,
    shareTotal = 0;
  requests.forEach(({ generation: g, blocks, countsForShare }, r) => {
    if (g !== generation) {
      generation = g;
      firstSeen = new Map();
    }
    const last = r === requests.length - 1;
    let cached = true;
    for (const block of blocks) {
      let tokens = block.tokens;
      const body = block.result?.body;
      if (body) {
        const first = firstSeen.get(body);
        if (first === undefined) firstSeen.set(body, block.prefixHash);
        else if (first !== block.prefixHash) tokens = Math.min(tokens, block.result!.headTokens);
      }
      if (countsForShare) shareTotal += tokens;
      if (cached && seenPrefixes.has(block.prefixHash)) {
        read += tokens;
        if (countsForShare) shareRead += tokens;
      } else {
        cached = false;
        if (last) uncached += tokens;
        else written += tokens;
      }
      inputTokens += tokens;
    }
    for (const block of blocks) seenPrefixes.add(block.prefixHash);
  });
  return {
    inputTokens,
    written,
    read,
    uncached,
    billed: uncached + WRITE_FACTOR * written + READ_FACTOR * read,
    cacheHitShare: shareTotal > 0 ? shareRead / shareTotal : 0,
  };
}

/** The floor's blocks from a run's request log, counted with the local server's tokenizer. */
export function floorRequestsFromLog(requests: readonly LoggedRequest[], counter = new TokenCounter()): FloorRequest[] {
  const out: FloorRequest[] = [];
  let generation = 0;
  let firstOfGeneration = true;
  for (const logged of answeredPromptRequests(requests)) {
    const thisGeneration = generation;
    const countsForShare = logged.kind === 'main' && !firstOfGeneration;
    // The request after a compaction request belongs to the new generation (as `measureRun` counts).
    if (logged.kind === 'compaction') {
      generation++;
      firstOfGeneration = true;
    } else {
      firstOfGeneration = false;
    }
    const wire = validateRequest(logged.body, { countTokens: false });
    if (!('messages' in wire)) continue;
    const blocks = promptBlocks(wire, counter);
    const leading = wire.tools.length + wire.system.length;
    const messageBlocks = wire.messages.flatMap((m) => m.content);
    out.push({
      generation: thisGeneration,
      countsForShare,
      blocks: blocks.map((block, i) => {
        const source = i >= leading ? messageBlocks[i - leading] : undefined;
        if (source?.type !== 'tool_result') return { prefixHash: block.prefixHash, tokens: block.tokens };
        const text = toolResultText(source.content);
        const newline = text.indexOf('\n');
        const head = newline < 0 ? text : text.slice(0, newline);
        const body = newline < 0 ? '' : text.slice(newline + 1);
        return { prefixHash: block.prefixHash, tokens: block.tokens, result: { body, headTokens: counter.count(head) } };
      }),
    });
  }
  return out;
}
