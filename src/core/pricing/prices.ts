import type { ModelUsage } from '../model/types';

/** US dollars per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  /** Writing the prompt cache (5-minute lifetime). */
  cacheWrite: number;
  cacheRead: number;
}

/**
 * Model id prefix → price. The longest matching prefix wins, so a dated id (`claude-sonnet-4-5-20250929`)
 * takes its family's price. Settings (`cairn.prices`) override or add entries by the same keys.
 */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

function price(input: number, output: number): ModelPrice {
  // Cache writes cost 1.25x input and reads 0.1x, as Anthropic prices the 5-minute cache.
  return { input, output, cacheWrite: input * 1.25, cacheRead: input * 0.1 };
}

/**
 * Anthropic's published list prices. The bare family keys (`claude-sonnet-`) price newer models of a
 * family at its latest known price until a setting says otherwise; the snapshot names the key used.
 * Other models have no cost until a setting prices them.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'claude-opus-': price(5, 25),
  'claude-sonnet-': price(3, 15),
  'claude-haiku-': price(1, 5),
  'claude-opus-4-5': price(5, 25),
  'claude-opus-4-6': price(5, 25),
  'claude-opus-4-7': price(5, 25),
  'claude-opus-4-8': price(5, 25),
  'claude-opus-4-1': price(15, 75),
  'claude-opus-4-0': price(15, 75),
  'claude-opus-4-20250514': price(15, 75),
  'claude-sonnet-4': price(3, 15),
  'claude-3-7-sonnet': price(3, 15),
  'claude-haiku-4-5': price(1, 5),
  'claude-3-5-haiku': price(0.8, 4),
  'claude-3-haiku': price(0.25, 1.25),
});

/** The defaults with `overrides` on top (an override replaces an entry whole). */
export function resolvePrices(overrides: PriceTable = {}): PriceTable {
  return Object.freeze({ ...DEFAULT_PRICES, ...overrides });
}

export function priceFor(table: PriceTable, model: string): { key: string; price: ModelPrice } | null {
  let best: { key: string; price: ModelPrice } | null = null;
  for (const [key, entry] of Object.entries(table)) {
    if (model === key || model.startsWith(key)) {
      if (!best || key.length > best.key.length) best = { key, price: entry };
    }
  }
  return best;
}

export interface RequestCost {
  /** Total in US dollars. */
  usd: number;
  /** The parts, in US dollars. */
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  /** The price-table key used. */
  priceKey: string;
}

export function costOf(usage: ModelUsage, model: string, table: PriceTable): RequestCost | null {
  const found = priceFor(table, model);
  if (!found) return null;
  const { price: p, key } = found;
  const input = (usage.input_tokens * p.input) / 1e6;
  const cacheWrite = (usage.cache_creation_input_tokens * p.cacheWrite) / 1e6;
  const cacheRead = (usage.cache_read_input_tokens * p.cacheRead) / 1e6;
  const output = (usage.output_tokens * p.output) / 1e6;
  return { usd: input + cacheWrite + cacheRead + output, input, cacheWrite, cacheRead, output, priceKey: key };
}
