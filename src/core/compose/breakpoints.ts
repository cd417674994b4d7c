import type { ContentBlock, Message, ModelRequest } from '../model/types';

/** Where a `cache_control` marker sits in a request. */
export type BreakpointPosition =
  { zone: 'tools'; index: number } | { zone: 'system'; index: number } | { zone: 'messages'; index: number; block: number };

export interface MessageBlockPosition {
  index: number;
  block: number;
}

/** The API allows at most four `cache_control` markers per request. */
export const MAX_BREAKPOINTS = 4;

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Thinking blocks cannot carry a marker, nor can an empty text block. */
function acceptsMarker(block: ContentBlock | undefined): boolean {
  if (!block) return false;
  if (block.type === 'text') return block.text.length > 0;
  return block.type === 'tool_use' || block.type === 'tool_result';
}

/** The newest block that can carry a marker, searching back from the last message. */
export function lastMarkablePosition(messages: readonly Message[]): MessageBlockPosition | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const content = messages[index]?.content ?? [];
    for (let block = content.length - 1; block >= 0; block--) {
      if (acceptsMarker(content[block])) return { index, block };
    }
  }
  return null;
}

function mark(block: ContentBlock): void {
  if (block.type === 'text' || block.type === 'tool_use' || block.type === 'tool_result') {
    block.cache_control = { ...EPHEMERAL };
  }
}

/**
 * Puts the markers on a request the composer owns (a fresh copy): the last tool, the last system
 * block, the newest message's last markable block, and — so this request reads the previous one's
 * prefix even when more than the API's 20-block lookback was appended since — the block where the
 * previous request's newest marker was. Markers are stripped from cache keys, so moving one forward
 * changes no cached content. Never more than `MAX_BREAKPOINTS`.
 */
export function placeBreakpoints(request: ModelRequest, previous: MessageBlockPosition | null): BreakpointPosition[] {
  const positions: BreakpointPosition[] = [];
  const lastTool = request.tools[request.tools.length - 1];
  if (lastTool) {
    lastTool.cache_control = { ...EPHEMERAL };
    positions.push({ zone: 'tools', index: request.tools.length - 1 });
  }
  const lastSystem = request.system[request.system.length - 1];
  if (lastSystem && lastSystem.text.length > 0) {
    lastSystem.cache_control = { ...EPHEMERAL };
    positions.push({ zone: 'system', index: request.system.length - 1 });
  }
  const newest = lastMarkablePosition(request.messages);
  const wanted: MessageBlockPosition[] = [];
  if (previous && (!newest || previous.index !== newest.index || previous.block !== newest.block)) {
    const block = request.messages[previous.index]?.content[previous.block];
    if (
      acceptsMarker(block) &&
      (!newest || previous.index < newest.index || (previous.index === newest.index && previous.block < newest.block))
    ) {
      wanted.push(previous);
    }
  }
  if (newest) wanted.push(newest);
  // When slots are short the newest marker matters most: it is what the next request reads.
  const room = MAX_BREAKPOINTS - positions.length;
  for (const position of wanted.slice(Math.max(0, wanted.length - room))) {
    const block = request.messages[position.index]?.content[position.block];
    if (block) mark(block);
    positions.push({ zone: 'messages', index: position.index, block: position.block });
  }
  return positions;
}

/** The newest message marker among positions, for the next request's placement. */
export function newestMessageBreakpoint(positions: readonly BreakpointPosition[]): MessageBlockPosition | null {
  let newest: MessageBlockPosition | null = null;
  for (const position of positions) {
    if (position.zone === 'messages') newest = { index: position.index, block: position.block };
  }
  return newest;
}
