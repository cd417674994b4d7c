/**
 * The request as the local server understands it after validation: the Messages API wire shape,
 * with string contents normalised to text blocks. Blocks keep every field as received.
 */

export type CacheTtl = '5m' | '1h';

export interface WireBlock {
  readonly type: string;
  readonly [field: string]: unknown;
}

export interface WireMessage {
  /** `system`: an instruction message inside the conversation (outside the alternation). */
  readonly role: 'user' | 'assistant' | 'system';
  readonly content: readonly WireBlock[];
}

export interface WireRequest {
  readonly model: string;
  /** Absent on count_tokens. */
  readonly maxTokens?: number;
  readonly stream: boolean;
  readonly system: readonly WireBlock[];
  readonly tools: readonly WireBlock[];
  readonly messages: readonly WireMessage[];
  /** Parts of the request that change how messages are processed (thinking, tool_choice). */
  readonly messageSettings: { readonly thinking?: unknown; readonly tool_choice?: unknown };
}

/**
 * The ttl a block's `cache_control` asks for, or undefined when it has none. A marker on a part of
 * a `tool_result`'s content marks the tool_result: the prefix ends with it either way.
 */
export function cacheTtlOf(block: WireBlock): CacheTtl | undefined {
  const own = ttlOf(block.cache_control);
  if (own || block.type !== 'tool_result' || !Array.isArray(block.content)) return own;
  for (const part of block.content as unknown[]) {
    const nested = ttlOf((part as { cache_control?: unknown } | null)?.cache_control);
    if (nested) return nested;
  }
  return undefined;
}

/** How many `cache_control` markers a block holds (its own and its tool_result parts'). */
export function cacheMarkerCount(block: WireBlock): number {
  let count = ttlOf(block.cache_control) ? 1 : 0;
  if (block.type === 'tool_result' && Array.isArray(block.content)) {
    for (const part of block.content as unknown[]) if (ttlOf((part as { cache_control?: unknown } | null)?.cache_control)) count++;
  }
  return count;
}

function ttlOf(control: unknown): CacheTtl | undefined {
  if (!control || typeof control !== 'object') return undefined;
  return (control as { ttl?: unknown }).ttl === '1h' ? '1h' : '5m';
}
