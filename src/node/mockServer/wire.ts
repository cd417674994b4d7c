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
  readonly role: 'user' | 'assistant';
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

/** The ttl a block's `cache_control` asks for, or undefined when it has none. */
export function cacheTtlOf(block: WireBlock): CacheTtl | undefined {
  const control = block.cache_control as { type?: unknown; ttl?: unknown } | undefined | null;
  if (!control || typeof control !== 'object') return undefined;
  return control.ttl === '1h' ? '1h' : '5m';
}
