import type { ModelRequest } from '../model/types';
import type { Decision } from './decisions';
import type { EncodedMessage } from './encodingMemo';
import type { RequestSnapshot, SourceSnapshot } from './snapshot';
import type { StaticEncoding } from './staticEncoding';
import type { StaticPart } from './staticPart';
import type { TokenEstimator } from '../tokens/tokenEstimator';

/** What one composition knows when its snapshot is made: the request and the encodings it was built from. */
export interface SnapshotInputs {
  request: ModelRequest;
  fixed: StaticEncoding;
  /** The request's messages, encoded; the session date is the first block of the first. */
  encoded: readonly EncodedMessage[];
  part: StaticPart;
  generation: number;
  purpose: RequestSnapshot['purpose'];
  /** Messages of the conversation (the request may have one more: a message opened for the date). */
  conversationLength: number;
  decisions: Decision[];
  /** UTF-8 bytes of the session date's text. */
  dateTextBytes: number;
  /** 0-based position of the request in the composer's session. */
  index: number;
  /** ISO 8601 time of the composition. */
  time: string;
}

/**
 * The snapshot of a composed request, from the remembered encodings (nothing is encoded again):
 * sources in the request's order (preamble, tools, the other system blocks, session date,
 * conversation), bytes and raw tokens that add up, tokens calibrated for the request's model.
 * Breakpoints and the cache break are the composer's to fill in.
 */
export function buildSnapshot(inputs: SnapshotInputs, estimator: TokenEstimator): RequestSnapshot {
  const { request, fixed, encoded, part } = inputs;
  const model = request.model;
  const source = (fields: Omit<SourceSnapshot, 'tokens'>): SourceSnapshot =>
    sourceWithTokens(fields, estimator.calibrate(model, fields.rawTokens, fields.runTokens));

  const { toolBytes, toolRaw, systemBytes } = fixed;
  // Tool definitions count as ordinary text (see EncodingMemo): no runs.
  const systemSources: SourceSnapshot[] = part.sources.map((info) => {
    const block = info.blockIndex === null ? undefined : fixed.systemBlocks[info.blockIndex];
    return source({
      source: info.source,
      label: info.label,
      zone: 'system',
      bytes: block?.bytes ?? 0,
      rawTokens: block?.rawTokens ?? 0,
      runTokens: block?.runTokens ?? 0,
      budgetBytes: info.budgetBytes,
      fullBytes: info.fullBytes,
      truncated: info.truncated,
      variant: info.variant,
    });
  });
  const preamble = systemSources[0];
  const restOfSystem = systemSources.slice(1);

  let messageBytes = 0;
  let messageRaw = 0;
  let messageRuns = 0;
  for (const message of encoded) {
    messageBytes += message.bytes;
    messageRaw += message.rawTokens;
    messageRuns += message.runTokens;
  }
  // The composer always puts the date first in the first message.
  const dateBlock = encoded[0]?.blocks[0];
  const dateBytes = dateBlock?.bytes ?? 0;
  const dateRaw = dateBlock?.rawTokens ?? 0;
  const dateRuns = dateBlock?.runTokens ?? 0;
  const thinking = thinkingShare(encoded);
  let systemRaw = 0;
  let systemRuns = 0;
  for (const s of systemSources) {
    systemRaw += s.rawTokens;
    systemRuns += s.runTokens;
  }
  // What `estimator.rawRequest(request)` counts: every tool, every system block, every message with its framing.
  const totalRaw = toolRaw + fixed.systemBlocksRaw + messageRaw;
  const web = webPageBlocks(request, encoded);
  const images = imageShare(encoded);

  const sources: SourceSnapshot[] = [
    ...(preamble ? [preamble] : []),
    ...toolGroups(fixed).map((group) =>
      source({
        source: group.server === null ? 'tools' : 'mcp_tools',
        label: group.server === null ? `${group.count} tools` : `${group.server}: ${group.count} tools`,
        zone: 'tools',
        bytes: group.bytes,
        rawTokens: group.rawTokens,
        runTokens: 0,
        budgetBytes: null,
        fullBytes: group.bytes,
        truncated: false,
        variant: 'full',
      }),
    ),
    ...restOfSystem,
    source({
      source: 'session_date',
      label: 'session date',
      zone: 'messages',
      bytes: dateBytes,
      rawTokens: dateRaw,
      runTokens: dateRuns,
      budgetBytes: null,
      fullBytes: inputs.dateTextBytes,
      truncated: false,
      variant: 'full',
    }),
    source({
      source: 'conversation',
      label: `${inputs.conversationLength} messages`,
      zone: 'messages',
      bytes: messageBytes - dateBytes - thinking.bytes - web.bytes - images.bytes,
      rawTokens: totalRaw - toolRaw - systemRaw - dateRaw - thinking.rawTokens - web.rawTokens - images.rawTokens,
      runTokens: messageRuns - dateRuns - thinking.runTokens - web.runTokens,
      budgetBytes: null,
      fullBytes: messageBytes - dateBytes - thinking.bytes - web.bytes - images.bytes,
      truncated: false,
      variant: 'full',
    }),
    // The model's earlier reasoning sent back (kept as the API requires): a source of its own, shown only when there is some.
    ...(thinking.blocks > 0
      ? [
          source({
            source: 'thinking',
            label: `${thinking.blocks} thinking block${thinking.blocks === 1 ? '' : 's'}`,
            zone: 'messages',
            bytes: thinking.bytes,
            rawTokens: thinking.rawTokens,
            runTokens: thinking.runTokens,
            budgetBytes: null,
            fullBytes: thinking.bytes,
            truncated: false,
            variant: 'full',
          }),
        ]
      : []),
    ...(web.count > 0
      ? [
          source({
            source: 'web_pages',
            label: web.count === 1 ? '1 fetched page' : `${web.count} fetched pages`,
            zone: 'messages',
            bytes: web.bytes,
            rawTokens: web.rawTokens,
            runTokens: web.runTokens,
            budgetBytes: null,
            fullBytes: web.bytes,
            truncated: false,
            variant: 'full',
          }),
        ]
      : []),
    ...(images.blocks > 0
      ? [
          source({
            source: 'images',
            label: images.blocks === 1 ? '1 image' : `${images.blocks} images`,
            zone: 'messages',
            bytes: images.bytes,
            rawTokens: images.rawTokens,
            runTokens: 0,
            budgetBytes: null,
            fullBytes: images.bytes,
            truncated: false,
            variant: 'full',
          }),
        ]
      : []),
  ];
  return {
    version: 1,
    index: inputs.index,
    time: inputs.time,
    model,
    generation: inputs.generation,
    purpose: inputs.purpose,
    maxTokens: request.max_tokens,
    sources,
    bytes: { tools: toolBytes, system: systemBytes, messages: messageBytes, total: toolBytes + systemBytes + messageBytes },
    toolDefinitionBytes: toolBytes,
    messageCount: request.messages.length,
    messageHashes: encoded.map((message) => message.hash),
    breakpoints: [],
    estimate: estimator.fromRaw(model, totalRaw, systemRuns + messageRuns),
    decisions: inputs.decisions,
    cacheBreak: null,
    usage: null,
    cacheHitShare: null,
    cost: null,
  };
}

/** The thinking and redacted thinking blocks among the messages: how many, and their share of bytes and raw tokens. */
function thinkingShare(encoded: readonly EncodedMessage[]): { blocks: number; bytes: number; rawTokens: number; runTokens: number } {
  const share = { blocks: 0, bytes: 0, rawTokens: 0, runTokens: 0 };
  for (const message of encoded) {
    if (message.role !== 'assistant') continue;
    for (const block of message.blocks) {
      const type = (block.sendable as { type?: unknown }).type;
      if (type !== 'thinking' && type !== 'redacted_thinking') continue;
      share.blocks += 1;
      share.bytes += block.bytes;
      share.rawTokens += block.rawTokens;
      share.runTokens += block.runTokens;
    }
  }
  return share;
}

/** The image blocks among the messages: how many, their bytes (base64 JSON) and tokens by the provider's rule. */
function imageShare(encoded: readonly EncodedMessage[]): { blocks: number; bytes: number; rawTokens: number } {
  const share = { blocks: 0, bytes: 0, rawTokens: 0 };
  for (const message of encoded) {
    if (message.role !== 'user') continue;
    for (const block of message.blocks) {
      if ((block.sendable as { type?: unknown }).type !== 'image') continue;
      share.blocks += 1;
      share.bytes += block.bytes;
      share.rawTokens += block.rawTokens;
    }
  }
  return share;
}

/** A source with its calibrated tokens, members in the snapshot's order (written out: object rest/spread is slow on the compose path). */
export function sourceWithTokens(fields: Omit<SourceSnapshot, 'tokens'>, tokens: number): SourceSnapshot {
  return {
    source: fields.source,
    label: fields.label,
    zone: fields.zone,
    bytes: fields.bytes,
    rawTokens: fields.rawTokens,
    runTokens: fields.runTokens,
    tokens,
    budgetBytes: fields.budgetBytes,
    fullBytes: fields.fullBytes,
    truncated: fields.truncated,
    variant: fields.variant,
  };
}

/**
 * The tool definitions as the report shows them: Cairn's own tools as one source, each MCP server's tools
 * (`mcp__SERVER__…`) as another, so a server's share of every request is seen.
 */
function toolGroups(fixed: StaticEncoding): Array<{ server: string | null; count: number; bytes: number; rawTokens: number }> {
  const groups = new Map<string | null, { server: string | null; count: number; bytes: number; rawTokens: number }>();
  groups.set(null, { server: null, count: 0, bytes: 0, rawTokens: 0 });
  fixed.tools.forEach((tool, i) => {
    const server = /^mcp__(.+?)__/.exec(tool.name)?.[1] ?? null;
    const group = groups.get(server) ?? { server, count: 0, bytes: 0, rawTokens: 0 };
    const block = fixed.toolBlocks[i];
    group.count += 1;
    group.bytes += block?.bytes ?? 0;
    group.rawTokens += block?.rawTokens ?? 0;
    groups.set(server, group);
  });
  return [...groups.values()];
}

/** The tool_result blocks that answer web_fetch calls: their count and their share of the messages' bytes and tokens. */
function webPageBlocks(
  request: ModelRequest,
  encoded: readonly EncodedMessage[],
): { count: number; bytes: number; rawTokens: number; runTokens: number } {
  const total = { count: 0, bytes: 0, rawTokens: 0, runTokens: 0 };
  const webCalls = new Set<string>();
  request.messages.forEach((message, m) => {
    message.content.forEach((block, b) => {
      if (block.type === 'tool_use' && block.name === 'web_fetch') webCalls.add(block.id);
      if (block.type !== 'tool_result' || !webCalls.has(block.tool_use_id)) return;
      const counted = encoded[m]?.blocks[b];
      if (!counted) return;
      total.count += 1;
      total.bytes += counted.bytes;
      total.rawTokens += counted.rawTokens;
      total.runTokens += counted.runTokens;
    });
  });
  return total;
}
