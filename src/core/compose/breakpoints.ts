import type { CacheControl, CacheTtl, ContentBlock, Message, ModelRequest } from '../model/types';

/** Where a `cache_control` marker sits in a request, and the lifetime it asks for when not five minutes. */
export type BreakpointPosition = (
  { zone: 'tools'; index: number } | { zone: 'system'; index: number } | { zone: 'messages'; index: number; block: number }
) & { ttl?: '1h' };

/**
 * The lifetimes a request buys (`cacheLifetime.ts`): `stable` for tools, system and every message marker up to
 * the turn start, `tail` after it. Never a longer tail than stable prefix: a one-hour marker must come before
 * every five-minute one.
 */
export interface BreakpointLifetimes {
  readonly stable: CacheTtl;
  readonly tail: CacheTtl;
  /** The last markable block of the user's latest message (the turn start), when there is one. */
  readonly turnStart: MessageBlockPosition | null;
  /**
   * At a turn's first request, the previous turn start, where an hour's entry still lives: marked so this request
   * finds it (a request looks for cached prefixes only at its own breakpoints and 20 blocks before each).
   */
  readonly held?: MessageBlockPosition | null;
  /**
   * The tools' and system's lifetime when it is fixed for the whole session (`"auto"`: an hour), instead of
   * following each turn's `stable`. Then both static markers are in every request, byte for byte the same, and
   * when slots are short a message marker gives way (the previous one first).
   */
  readonly staticZone?: CacheTtl;
}

const FIVE_MINUTES: BreakpointLifetimes = { stable: '5m', tail: '5m', turnStart: null };

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

function controlFor(ttl: CacheTtl): CacheControl {
  return ttl === '1h' ? { ...EPHEMERAL, ttl } : { ...EPHEMERAL };
}

function mark(block: ContentBlock, ttl: CacheTtl): void {
  if (block.type === 'text' || block.type === 'tool_use' || block.type === 'tool_result') {
    block.cache_control = controlFor(ttl);
  }
}

function before(a: MessageBlockPosition, b: MessageBlockPosition): boolean {
  return a.index < b.index || (a.index === b.index && a.block < b.block);
}

function samePosition(a: MessageBlockPosition, b: MessageBlockPosition): boolean {
  return a.index === b.index && a.block === b.block;
}

/** The user's latest message that holds no tool result (what the user sent), its last markable block: the turn start. */
export function turnStartPosition(messages: readonly Message[]): MessageBlockPosition | null {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== 'user' || message.content.some((block) => block.type === 'tool_result')) continue;
    for (let block = message.content.length - 1; block >= 0; block--) {
      if (acceptsMarker(message.content[block])) return { index, block };
    }
  }
  return null;
}

/**
 * Puts the markers on a request the composer owns (a fresh copy): the last tool, the last system
 * block, the newest message's last markable block, and — so this request reads the previous one's
 * prefix even when more than the API's 20-block lookback was appended since — the block where the
 * previous request's newest marker was. Markers are stripped from cache keys, so moving one forward
 * changes no cached content. Never more than `MAX_BREAKPOINTS`.
 *
 * With an hour bought for the stable zone and five minutes for the tail, the turn start is marked too (an
 * hour): slots go to the newest marker, the turn start, the system block, the previous marker, the last tool,
 * in that order (the system marker's prefix holds the tools, so the tool marker is the one to spare). With a
 * session-long static lifetime (`staticZone`, under `"auto"`) the tool and system markers never move, so the
 * static prefix stays byte-identical within a generation; the previous marker is then the one to spare.
 */
export function placeBreakpoints(
  request: ModelRequest,
  previous: MessageBlockPosition | null,
  lifetimes: BreakpointLifetimes = FIVE_MINUTES,
): BreakpointPosition[] {
  const newest = lastMarkablePosition(request.messages);
  const wanted: MessageBlockPosition[] = [];
  if (previous && (!newest || !samePosition(previous, newest))) {
    const block = request.messages[previous.index]?.content[previous.block];
    if (acceptsMarker(block) && (!newest || before(previous, newest))) wanted.push(previous);
  }
  if (newest) wanted.push(newest);
  const split = lifetimes.stable !== lifetimes.tail;
  const turnStart = split ? lifetimes.turnStart : null;
  const ttlAt = (position: MessageBlockPosition): CacheTtl =>
    turnStart && !before(turnStart, position) ? lifetimes.stable : lifetimes.tail;
  let messageMarks: MessageBlockPosition[];
  let zones: ('tools' | 'system')[] = ['tools', 'system'];
  const markable = (p: MessageBlockPosition) => acceptsMarker(request.messages[p.index]?.content[p.block]);
  // The turn start and the hour's entry to read join the message markers in order (the newest first when slots are short).
  const extras: MessageBlockPosition[] = [];
  for (const p of [turnStart, lifetimes.held ?? null]) {
    if (p && markable(p) && ![...wanted, ...extras].some((q) => samePosition(p, q))) extras.push(p);
  }
  const fixedStatic = lifetimes.staticZone !== undefined;
  if (extras.length > 0) {
    const all = [...wanted, ...extras];
    // When slots are short the tool marker goes first (the system marker's prefix holds the tools), then the previous;
    // with a session-long static lifetime the static markers stay, so the previous goes first.
    if (!fixedStatic && zonesOf(request).length + all.length > MAX_BREAKPOINTS) zones = ['system'];
    const room = MAX_BREAKPOINTS - zonesOf(request, zones).length;
    const byPriority = [...(newest ? [newest] : []), ...extras, ...wanted].filter(
      (p, i, list) => list.findIndex((q) => samePosition(p, q)) === i,
    );
    messageMarks = byPriority.slice(0, room).sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  } else {
    // When slots are short the newest marker matters most: it is what the next request reads.
    const room = MAX_BREAKPOINTS - zonesOf(request).length;
    messageMarks = wanted.slice(Math.max(0, wanted.length - room));
  }
  const positions: BreakpointPosition[] = [];
  const withTtl = <T extends object>(position: T, ttl: CacheTtl): T & { ttl?: '1h' } => (ttl === '1h' ? { ...position, ttl } : position);
  const present = zonesOf(request, zones);
  const staticTtl = lifetimes.staticZone ?? lifetimes.stable;
  if (present.includes('tools')) {
    request.tools[request.tools.length - 1]!.cache_control = controlFor(staticTtl);
    positions.push(withTtl({ zone: 'tools', index: request.tools.length - 1 }, staticTtl));
  }
  if (present.includes('system')) {
    request.system[request.system.length - 1]!.cache_control = controlFor(staticTtl);
    positions.push(withTtl({ zone: 'system', index: request.system.length - 1 }, staticTtl));
  }
  for (const position of messageMarks) {
    const block = request.messages[position.index]?.content[position.block];
    const ttl = ttlAt(position);
    if (block) mark(block, ttl);
    positions.push(withTtl({ zone: 'messages', index: position.index, block: position.block }, ttl));
  }
  return positions;
}

/** Which of the static zones (in `allowed`) can carry a marker in this request. */
function zonesOf(request: ModelRequest, allowed: readonly ('tools' | 'system')[] = ['tools', 'system']): ('tools' | 'system')[] {
  const zones: ('tools' | 'system')[] = [];
  if (allowed.includes('tools') && request.tools.length > 0) zones.push('tools');
  const lastSystem = request.system[request.system.length - 1];
  if (allowed.includes('system') && lastSystem && lastSystem.text.length > 0) zones.push('system');
  return zones;
}

/** The newest message marker among positions, for the next request's placement. */
export function newestMessageBreakpoint(positions: readonly BreakpointPosition[]): MessageBlockPosition | null {
  let newest: MessageBlockPosition | null = null;
  for (const position of positions) {
    if (position.zone === 'messages') newest = { index: position.index, block: position.block };
  }
  return newest;
}
