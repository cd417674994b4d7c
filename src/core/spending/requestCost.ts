import type { AgentEvent } from '../agent/events';
import { priceFor, type PriceTable } from '../pricing/prices';
import { CACHE_LIFETIME_MS } from '../elision/elider';
import type { NextRequest } from '../agent/ports';

export type { NextRequest } from '../agent/ports';

/**
 * The prompt tokens the provider's cache should hold for `next`: the previous request's prompt (the new one
 * extends it) while the cache lives, else none.
 */
export function expectedCachedTokens(next: NextRequest): number {
  const warm = next.sinceAnswerMs !== undefined && next.sinceAnswerMs < CACHE_LIFETIME_MS;
  return warm ? Math.min(next.previousPromptTokens, next.promptTokens) : 0;
}

/**
 * The most the next request is expected to cost, in US$: the part of the prompt the cache should hold at the
 * cache-read price, the rest at the cache-write price (Cairn marks the end of each request for the cache, so
 * the new part is written), and a full `maxTokens` of output. An over-estimate on purpose: a cap is passed
 * only on a figure that cannot be lower than the bill. Null when the model has no price.
 */
export function estimateRequestUsd(next: NextRequest, prices: PriceTable): number | null {
  const found = priceFor(prices, next.model);
  if (!found) return null;
  const { price } = found;
  const cached = expectedCachedTokens(next);
  return (cached * price.cacheRead + (next.promptTokens - cached) * price.cacheWrite + next.maxTokens * price.output) / 1e6;
}

/**
 * What a request that finished cost, in US$, from an event of an agent's views: its own requests'
 * (`request_finished`, compaction's included) and, wrapped in `subagent_event` at any depth, its children's.
 * 0 for any other event, and for a request the price table cannot price.
 */
export function requestCostOf(event: AgentEvent): number {
  if (event.type === 'request_finished') return event.snapshot.cost?.usd ?? 0;
  if (event.type === 'subagent_event') return requestCostOf(event.event);
  return 0;
}
