import type { ContentBlock, Message, ModelRequest, TextBlock, ToolDefinition } from '../model/types';
import { canonicalBlock, canonicalRequestJson } from '../model/canonicalJson';
import { sha256Hex } from '../text/sha';
import { TiktokenCounter, type TextTokenCounter } from './textTokenCounter';
import { imageBlockTokens } from '../images/imageBlockTokens';

export type EstimateStrategy = string; // the counter's name (e.g. 'tiktoken-o200k') or 'provider_usage'
export type EstimateConfidence = 'low' | 'medium' | 'high';

export interface TokenEstimate {
  /** Calibrated: raw scaled by the model's ratios from reported usage (= raw before any usage). */
  tokens: number;
  /** The tokenizer's own count, never scaled. */
  rawTokens: number;
  /** The part of `rawTokens` inside long runs without whitespace, scaled by `runRatio` (the rest by `ratio`). */
  runTokens: number;
  /** Provider tokens per raw token of ordinary text, as applied (1 before any usage). */
  ratio: number;
  /** Provider tokens per raw token inside long runs, as applied (1 before any usage). */
  runRatio: number;
  /** The counter's name until usage has been observed for the model, then `provider_usage`. */
  strategy: EstimateStrategy;
  /** `low` with no usage seen for the model, `medium` after one or two samples, `high` after three. */
  confidence: EstimateConfidence;
}

export interface Calibration {
  /** Provider tokens per raw token of ordinary text. */
  ratio: number;
  /** Provider tokens per raw token inside runs of 128+ non-space characters (see `TextTokenCounter.runTokens`). */
  runRatio: number;
  samples: number;
}

/** A text's raw count and the part of it inside long runs. */
export interface TextCount {
  readonly tokens: number;
  readonly runTokens: number;
}

/** Per-message framing the tokenizer cannot see (role markers); calibration absorbs the rest. */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/**
 * Calibration is a two-ratio Kalman filter: provider ≈ ratio·ordinary + runRatio·runs. Tokenizers
 * agree within a few % on ordinary text but by 2–4× on long runs without whitespace ('a' × 100,000
 * is 12,500 o200k tokens and 6,250 Claude tokens), so one such block under a single ratio swung every
 * source's estimate (+224%, five requests to settle; a 1,597-token preamble shown as 521). Each ratio
 * keeps its own uncertainty: a ratio well known from earlier requests barely moves, and a request's
 * surprise goes to the part that is new or little known.
 *
 * Variances are of the ratio per request. OBSERVATION: how far one request's ratio strays (~1%).
 * DRIFT = OBSERVATION / 2 makes the steady-state gain 0.5, the weight the single ratio gave the newest
 * sample (a session's requests share a growing prefix, so the newest ratio predicts the next best).
 * PRIOR: before any usage a ratio is unknown (±1), so the first sample is taken almost as is.
 */
const OBSERVATION_VARIANCE = 1e-4;
const DRIFT_VARIANCE = OBSERVATION_VARIANCE / 2;
const PRIOR_VARIANCE = 1;
/** Bounds no real tokenizer pair leaves; they keep a degenerate request from sending a ratio to 0 or infinity. */
const RATIO_BOUNDS: readonly [number, number] = [0.2, 5];
const RUN_RATIO_BOUNDS: readonly [number, number] = [0.02, 50];
const DEFAULT_CACHE_ENTRIES = 50_000;
const NOTHING: TextCount = Object.freeze({ tokens: 0, runTokens: 0 });

/** A model's calibration with each ratio's uncertainty (covariance [[a, b], [b, c]]). */
interface FilterState {
  ratio: number;
  runRatio: number;
  a: number;
  b: number;
  c: number;
  samples: number;
}

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
      return `${block.name}\n${canonicalRequestJson(block.input)}`;
    case 'tool_result':
      return block.content;
    case 'image':
      // Counted by the provider's rule (`blockParts`), never as its base64.
      return '';
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
  private readonly cache = new Map<string, TextCount>();
  private readonly calibrations = new Map<string, FilterState>();

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
    return this.countTextParts(text).tokens;
  }

  /** Raw tokens of one text and the part inside long runs, from the cache when the same text was counted before. */
  countTextParts(text: string): TextCount {
    if (text.length === 0) return NOTHING;
    const key = sha256Hex(text);
    const known = this.cache.get(key);
    if (known !== undefined) {
      // Refresh recency: Map iteration order is insertion order, so the oldest entry goes first.
      this.cache.delete(key);
      this.cache.set(key, known);
      return known;
    }
    const tokens = this.counter.count(text);
    const runTokens = this.counter.runTokens ? Math.min(tokens, this.counter.runTokens(text)) : 0;
    if (this.cache.size >= this.maxEntries) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    const counted: TextCount = Object.freeze({ tokens, runTokens });
    this.cache.set(key, counted);
    return counted;
  }

  /** How many texts are cached (for tests and diagnostics). */
  get cachedBlocks(): number {
    return this.cache.size;
  }

  rawBlock(block: ContentBlock): number {
    return this.blockParts(block).tokens;
  }

  /**
   * One block's raw count and its part in long runs: its text's, or for an image the provider's figure
   * (w×h/750 after fitting), counted as ordinary tokens.
   */
  blockParts(block: ContentBlock): TextCount {
    if (block.type === 'image') return { tokens: imageBlockTokens(block), runTokens: 0 };
    return this.countTextParts(blockCountText(block));
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
    // One pass: each text is hashed once for its count and its part in long runs (tool definitions count as ordinary text).
    let raw = 0;
    let runs = 0;
    for (const tool of request.tools) raw += this.rawTool(tool);
    for (const block of request.system) {
      const counted = this.countTextParts(block.text);
      raw += counted.tokens;
      runs += counted.runTokens;
    }
    for (const message of request.messages) {
      raw += MESSAGE_OVERHEAD_TOKENS;
      for (const block of message.content) {
        const counted = this.blockParts(block);
        raw += counted.tokens;
        runs += counted.runTokens;
      }
    }
    return this.fromRaw(request.model, raw, runs);
  }

  /** An estimate for `rawTokens` counted for `model`, `runTokens` of them inside long runs. */
  fromRaw(model: string, rawTokens: number, runTokens = 0): TokenEstimate {
    const state = this.calibrations.get(model);
    if (!state || state.samples === 0) {
      return { tokens: rawTokens, rawTokens, runTokens, ratio: 1, runRatio: 1, strategy: this.counter.name, confidence: 'low' };
    }
    return {
      tokens: scaled(state, rawTokens, runTokens),
      rawTokens,
      runTokens,
      ratio: state.ratio,
      runRatio: state.runRatio,
      strategy: 'provider_usage',
      confidence: state.samples >= 3 ? 'high' : 'medium',
    };
  }

  /** Scales a raw count by the model's ratios, `runTokens` of it inside long runs (identity before any usage). */
  calibrate(model: string, rawTokens: number, runTokens = 0): number {
    // fromRaw(model, rawTokens).tokens without the estimate object (called per source of every request).
    const state = this.calibrations.get(model);
    return !state || state.samples === 0 ? rawTokens : scaled(state, rawTokens, runTokens);
  }

  /**
   * Records one request's reported input (input + cache write + cache read) against the raw
   * estimate of that same request, `runTokens` of it inside long runs. Requests with nothing counted
   * are ignored.
   */
  observe(model: string, rawTokens: number, providerTokens: number, runTokens = 0): Calibration {
    const previous = this.calibrations.get(model);
    if (!(rawTokens > 0) || !(providerTokens > 0)) return previous ? calibrationOf(previous) : { ratio: 1, runRatio: 1, samples: 0 };
    const state: FilterState = previous
      ? { ...previous, a: previous.a + DRIFT_VARIANCE, c: previous.c + DRIFT_VARIANCE }
      : { ratio: 1, runRatio: 1, a: PRIOR_VARIANCE, b: 0, c: PRIOR_VARIANCE, samples: 0 };
    const runs = Math.min(Math.max(runTokens, 0), rawTokens);
    // The request's ratio as a mix of the two: y = o·ratio + i·runRatio, o + i = 1.
    const i = runs / rawTokens;
    const o = 1 - i;
    const y = providerTokens / rawTokens;
    const po = state.a * o + state.b * i;
    const pi = state.b * o + state.c * i;
    const s = o * po + i * pi + OBSERVATION_VARIANCE;
    const ko = po / s;
    const ki = pi / s;
    const surprise = y - (o * state.ratio + i * state.runRatio);
    const next: FilterState = {
      ratio: clamp(state.ratio + ko * surprise, RATIO_BOUNDS),
      runRatio: clamp(state.runRatio + ki * surprise, RUN_RATIO_BOUNDS),
      a: state.a - ko * po,
      b: state.b - ko * pi,
      c: state.c - ki * pi,
      samples: state.samples + 1,
    };
    this.calibrations.set(model, next);
    return calibrationOf(next);
  }

  calibration(model: string): Calibration {
    const state = this.calibrations.get(model);
    return state ? calibrationOf(state) : { ratio: 1, runRatio: 1, samples: 0 };
  }

  /** Restores calibrations saved from an earlier session (e.g. from the journal; `runRatio` absent before it existed). */
  restoreCalibration(model: string, calibration: Pick<Calibration, 'ratio' | 'samples'> & { runRatio?: number }): void {
    if (!(calibration.ratio > 0) || !(calibration.samples > 0)) return;
    const runRatio = calibration.runRatio !== undefined && calibration.runRatio > 0 ? calibration.runRatio : 1;
    // Known to about the steady-state uncertainty; a run ratio never observed stays open.
    this.calibrations.set(model, {
      ratio: clamp(calibration.ratio, RATIO_BOUNDS),
      runRatio: clamp(runRatio, RUN_RATIO_BOUNDS),
      a: DRIFT_VARIANCE,
      b: 0,
      c: calibration.runRatio === undefined ? PRIOR_VARIANCE : DRIFT_VARIANCE,
      samples: calibration.samples,
    });
  }
}

function scaled(state: FilterState, rawTokens: number, runTokens: number): number {
  return Math.round((rawTokens - runTokens) * state.ratio + runTokens * state.runRatio);
}

function calibrationOf(state: FilterState): Calibration {
  return { ratio: state.ratio, runRatio: state.runRatio, samples: state.samples };
}

function clamp(value: number, [low, high]: readonly [number, number]): number {
  return Number.isFinite(value) ? Math.min(high, Math.max(low, value)) : 1;
}
