import type { ContentBlock, Message, ModelRequest, TextBlock, ToolDefinition } from '../model/types';
import { canonicalBlock, canonicalJson } from './canonicalJson';
import { sha256Hex } from '../ledger/sha';
import { TiktokenCounter, type TextTokenCounter } from './textTokenCounter';

export type EstimateStrategy = string; // the counter's name (e.g. 'tiktoken-o200k') or 'provider_usage'
export type EstimateConfidence = 'low' | 'medium' | 'high';

export interface TokenEstimate {
  /** Calibrated: raw scaled by the model's ratio from reported usage (= raw before any usage). */
  tokens: number;
  /** The tokenizer's own count, never scaled. */
  rawTokens: number;
  /** The counter's name until usage has been observed for the model, then `provider_usage`. */
  strategy: EstimateStrategy;
  /** `low` with no usage seen for the model, `medium` after one or two samples, `high` after three. */
  confidence: EstimateConfidence;
}

export interface Calibration {
  /** Provider tokens per raw token. */
  ratio: number;
  samples: number;
}

/** Per-message framing the tokenizer cannot see (role markers); calibration absorbs the rest. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/**
 * Weight of the newest sample. A session's requests share a growing prefix, so the newest ratio is
 * the best predictor of the next; half-weighting still damps one odd request.
 */
const CALIBRATION_WEIGHT = 0.5;
const DEFAULT_CACHE_ENTRIES = 50_000;

/** The text a tokenizer sees for one block: what the model reads, not the JSON framing around it. */
export function blockCountText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'thinking':
      return block.thinking;
    case 'redacted_thinking':
      return block.data;
    case 'tool_use':
      return `${block.name}\n${canonicalJson(block.input)}`;
    case 'tool_result':
      return block.content;
  }
}

export function toolCountText(tool: ToolDefinition): string {
  return canonicalBlock(tool);
}

/**
 * Token estimates with js-tiktoken, per block and cached by content hash so a request costs only its
 * new blocks, calibrated per model from the provider's reported usage.
 */
export class TokenEstimator {
  private readonly counter: TextTokenCounter;
  private readonly maxEntries: number;
  private readonly cache = new Map<string, number>();
  private readonly calibrations = new Map<string, Calibration>();

  constructor(options: { counter?: TextTokenCounter; cacheEntries?: number } = {}) {
    this.counter = options.counter ?? new TiktokenCounter();
    this.maxEntries = options.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
  }

  /** Loads the tokenizer ahead of the first request (about a second for o200k_base). */
  async warmUp(): Promise<void> {
    await this.counter.warmUp?.();
  }

  /** Raw tokens of one text, from the cache when the same text was counted before. */
  countText(text: string): number {
    if (text.length === 0) return 0;
    const key = sha256Hex(text);
    const known = this.cache.get(key);
    if (known !== undefined) {
      // Refresh recency: Map iteration order is insertion order, so the oldest entry goes first.
      this.cache.delete(key);
      this.cache.set(key, known);
      return known;
    }
    const tokens = this.counter.count(text);
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, tokens);
    return tokens;
  }

  /** How many texts are cached (for tests and diagnostics). */
  get cachedBlocks(): number {
    return this.cache.size;
  }

  rawBlock(block: ContentBlock): number {
    return this.countText(blockCountText(block));
  }

  rawTool(tool: ToolDefinition): number {
    return this.countText(toolCountText(tool));
  }

  rawSystemBlock(block: TextBlock): number {
    return this.countText(block.text);
  }

  rawMessage(message: Message): number {
    let total = MESSAGE_OVERHEAD_TOKENS;
    for (const block of message.content) total += this.rawBlock(block);
    return total;
  }

  rawRequest(request: ModelRequest): number {
    let total = 0;
    for (const tool of request.tools) total += this.rawTool(tool);
    for (const block of request.system) total += this.rawSystemBlock(block);
    for (const message of request.messages) total += this.rawMessage(message);
    return total;
  }

  estimateRequest(request: ModelRequest): TokenEstimate {
    return this.fromRaw(request.model, this.rawRequest(request));
  }

  /** An estimate for `rawTokens` counted for `model`. */
  fromRaw(model: string, rawTokens: number): TokenEstimate {
    const calibration = this.calibrations.get(model);
    if (!calibration || calibration.samples === 0) {
      return { tokens: rawTokens, rawTokens, strategy: this.counter.name, confidence: 'low' };
    }
    return {
      tokens: Math.round(rawTokens * calibration.ratio),
      rawTokens,
      strategy: 'provider_usage',
      confidence: calibration.samples >= 3 ? 'high' : 'medium',
    };
  }

  /** Scales a raw count by the model's ratio (identity before any usage). */
  calibrate(model: string, rawTokens: number): number {
    // fromRaw(model, rawTokens).tokens without the estimate object (called per source of every request).
    const calibration = this.calibrations.get(model);
    return !calibration || calibration.samples === 0 ? rawTokens : Math.round(rawTokens * calibration.ratio);
  }

  /**
   * Records one request's reported input (input + cache write + cache read) against the raw
   * estimate of that same request. Requests with nothing counted are ignored.
   */
  observe(model: string, rawTokens: number, providerTokens: number): Calibration {
    const previous = this.calibrations.get(model);
    if (!(rawTokens > 0) || !(providerTokens > 0)) return previous ?? { ratio: 1, samples: 0 };
    const sample = providerTokens / rawTokens;
    const next: Calibration = previous && previous.samples > 0
      ? { ratio: previous.ratio + CALIBRATION_WEIGHT * (sample - previous.ratio), samples: previous.samples + 1 }
      : { ratio: sample, samples: 1 };
    this.calibrations.set(model, next);
    return next;
  }

  calibration(model: string): Calibration {
    return this.calibrations.get(model) ?? { ratio: 1, samples: 0 };
  }

  /** Restores calibrations saved from an earlier session (e.g. from the journal). */
  restoreCalibration(model: string, calibration: Calibration): void {
    if (calibration.ratio > 0 && calibration.samples > 0) this.calibrations.set(model, { ...calibration });
  }
}
