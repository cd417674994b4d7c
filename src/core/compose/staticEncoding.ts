import { deepFreeze } from '../deepFreeze';
import type { ToolDefinition } from '../model/types';
import type { EncodedBlock, EncodingMemo } from './encodingMemo';
import type { StaticPart } from './staticPart';

/** The static part's encodings, made once per generation: every request of it reuses them. */
export interface StaticEncoding {
  /** A deep-frozen copy of the part's tools: requests take shallow copies (the marker goes on the top level). */
  tools: readonly ToolDefinition[];
  toolBlocks: readonly EncodedBlock[];
  systemBlocks: readonly EncodedBlock[];
  toolJsons: string[];
  systemJsons: string[];
  /** What each system block is, so a cache break can name the source that changed. */
  systemLabels: string[];
  /** Sums over the blocks above, made once with them (the snapshot of every request needs them). */
  toolBytes: number;
  toolRaw: number;
  systemBytes: number;
  systemBlocksRaw: number;
}

/** Encodes a static part; the part must not change afterwards (the composer's own never does). */
export function encodeStaticPart(part: StaticPart, memo: EncodingMemo): StaticEncoding {
  const tools = deepFreeze(structuredClone(part.tools));
  const toolBlocks = tools.map((tool) => memo.tool(tool));
  const systemBlocks = part.system.map((block) => memo.systemBlock(block));
  return {
    tools,
    toolBlocks,
    systemBlocks,
    toolJsons: toolBlocks.map((block) => block.json),
    systemJsons: systemBlocks.map((block) => block.json),
    systemLabels: systemLabelsOf(part),
    toolBytes: sumOf(toolBlocks, 'bytes'),
    toolRaw: sumOf(toolBlocks, 'rawTokens'),
    systemBytes: sumOf(systemBlocks, 'bytes'),
    systemBlocksRaw: sumOf(systemBlocks, 'rawTokens'),
  };
}

function systemLabelsOf(part: StaticPart): string[] {
  const labels: string[] = part.system.map(() => '');
  for (const info of part.sources) {
    if (info.blockIndex === null) continue;
    labels[info.blockIndex] = info.source === 'rules' ? `rules ${info.label}` : info.label;
  }
  return labels;
}

function sumOf(blocks: readonly EncodedBlock[], field: 'bytes' | 'rawTokens'): number {
  let total = 0;
  for (const block of blocks) total += block[field];
  return total;
}
