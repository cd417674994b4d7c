/**
 * A keep-warm request (`cairn.cache.keepWarm`): the last main request again, byte for byte, with max_tokens 1,
 * so its whole prefix is read (0.1×) and its entries live on; its snapshot is that request's, as a keep_warm.
 */
import type { ModelRequest } from '../model/types';
import { cloneDecision, type Decision } from './decisions';
import { cloneSnapshot, type RequestSnapshot } from './snapshot';

/** Undefined when the last main request thinks (its budget needs more than one token). */
export function keepWarmOf(
  last: { readonly request: ModelRequest; readonly snapshot: RequestSnapshot },
  at: { readonly index: number; readonly now: number; readonly decisions: readonly Decision[] },
): { request: ModelRequest; snapshot: RequestSnapshot } | undefined {
  if (last.request.thinking) return undefined;
  const request: ModelRequest = { ...structuredClone(last.request), max_tokens: 1 };
  const snapshot = cloneSnapshot(last.snapshot);
  snapshot.index = at.index;
  snapshot.time = new Date(at.now).toISOString();
  snapshot.purpose = 'keep_warm';
  snapshot.maxTokens = 1;
  snapshot.decisions = at.decisions.map(cloneDecision);
  snapshot.cacheBreak = null;
  snapshot.usage = null;
  snapshot.cacheHitShare = null;
  snapshot.cost = null;
  return { request, snapshot };
}
