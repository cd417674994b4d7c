/**
 * What a message sent to a cold cache will cost, and what eliding or compacting first would cost instead
 * (issue 31 §3, the cold-send notice). Figures only: the context policy supplies the token counts
 * (`Compactor.coldSendFacts`), the model's prices turn them into dollars, the chat shows them.
 *
 * On a cold cache the next request writes its whole prompt to the cache again (Cairn's last breakpoint is at
 * its end), at the cache-write price: 1.25× input for the 5-minute cache, 2× for the hour. Compacting first
 * adds the summary request, which reads the summarized transcript at the input price and writes the summary
 * at the output price; its prompt and summary are counted at their caps, so that option is an upper bound.
 */
import { priceFor, type PriceTable } from '../pricing/prices';
import type { CacheTtl } from './cacheLifetime';

/** What the context policy knows of the next send, in prompt tokens (the new message included in each). */
export interface ColdSendFacts {
  /** The next prompt as Cairn would send it now, what it does on its own before a request included. */
  readonly asIsTokens: number;
  /** What Cairn does on its own before this send (an elision its cost model pays for; a compaction that is due). */
  readonly automatic?: 'elision' | 'compaction';
  /** Eliding every superseded result first; absent when there is none beyond what Cairn does anyway. */
  readonly elision?: { readonly tokens: number; readonly results: number };
  /** Compacting first: the prompt after it (summary at its cap) and the summary request's input and output. */
  readonly compaction?: { readonly tokens: number; readonly summaryInputTokens: number; readonly summaryOutputTokens: number };
}

/** One way to send: the prompt tokens written to the cache, and their dollars (null: the model has no price). */
export interface SendCost {
  readonly tokens: number;
  readonly usd: number | null;
}

export interface ColdSendEstimate {
  readonly asIs: SendCost;
  readonly automatic?: 'elision' | 'compaction';
  readonly elide?: SendCost & { readonly results: number };
  /** `usd` includes the summary request (`summaryUsd`). */
  readonly compact?: SendCost & { readonly summaryUsd: number | null };
}

/** Each way's tokens and dollars at `model`'s prices, writing at the cache lifetime `ttl`. */
export function coldSendEstimate(facts: ColdSendFacts, model: string, prices: PriceTable, ttl: CacheTtl = '5m'): ColdSendEstimate {
  const price = priceFor(prices, model)?.price;
  const writeUsd = (tokens: number): number | null => {
    if (!price) return null;
    const perMillion = ttl === '1h' ? price.input * 2 : price.cacheWrite;
    return (tokens * perMillion) / 1e6;
  };
  const asIs: SendCost = { tokens: facts.asIsTokens, usd: writeUsd(facts.asIsTokens) };
  const elision = facts.elision;
  const compaction = facts.compaction;
  const summaryUsd =
    compaction && price ? (compaction.summaryInputTokens * price.input + compaction.summaryOutputTokens * price.output) / 1e6 : null;
  const compactWrite = compaction ? writeUsd(compaction.tokens) : null;
  return {
    asIs,
    ...(facts.automatic ? { automatic: facts.automatic } : {}),
    ...(elision && elision.tokens < facts.asIsTokens
      ? { elide: { tokens: elision.tokens, usd: writeUsd(elision.tokens), results: elision.results } }
      : {}),
    ...(compaction && compaction.tokens < facts.asIsTokens
      ? {
          compact: {
            tokens: compaction.tokens,
            usd: compactWrite === null || summaryUsd === null ? null : compactWrite + summaryUsd,
            summaryUsd,
          },
        }
      : {}),
  };
}
