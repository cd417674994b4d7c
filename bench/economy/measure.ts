/**
 * What one run cost, read from the local server's request log: the server's prompt-cache simulation
 * decided what was read, written or sent uncached, exactly as the real service reports usage.
 */
import { CacheBreakDetector } from '../../src/core/compose/cacheBreak';
import { encodeRequest } from '../../src/core/compose/requestEncoding';
import type { ModelRequest } from '../../src/core/model/types';
import type { LoggedRequest } from '../../src/node/localServer/server';

/**
 * Anthropic's prompt-cache prices, in base-input units: a write to a 5-minute entry costs 1.25× input, a write
 * to a one-hour entry (`ttl: "1h"`) 2×, a read 0.1× whatever the entry's lifetime.
 */
export const WRITE_FACTOR = 1.25;
export const WRITE_1H_FACTOR = 2;
export const READ_FACTOR = 0.1;

export interface RunFigures {
  /** Main (agent) requests answered. */
  readonly requests: number;
  /** Compaction requests answered. */
  readonly compactions: number;
  /** Keep-warm requests answered (Cairn's, `cairn.cache.keepWarm`): billed, counted apart from `requests`. */
  readonly keepWarm: number;
  /** Prompt tokens of every answered request (main and compaction): uncached + write + read. */
  readonly inputTokens: number;
  readonly uncached: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
  /** uncached + 1.25 × cache write (2 × for one-hour entries) + 0.1 × cache read. */
  readonly billed: number;
  /**
   * Cache read / prompt tokens over main requests that could have read: not the first request of the
   * session nor the first after a compaction (whose prefix changed on purpose).
   */
  readonly cacheHitShare: number;
  /** Main requests that did not extend the previous request of their generation. */
  readonly cacheBreaks: number;
  /** Where the first break happened, for the report. */
  readonly firstBreak?: string;
  /** Largest prompt of a main request, in tokens. */
  readonly peakContext: number;
}

/** Billed-input equivalent; `cacheWrite1h` is the part of `cacheWrite` written to one-hour entries. */
export function billedOf(u: { uncached: number; cacheWrite: number; cacheRead: number; cacheWrite1h?: number }): number {
  const hour = u.cacheWrite1h ?? 0;
  return u.uncached + WRITE_FACTOR * (u.cacheWrite - hour) + WRITE_1H_FACTOR * hour + READ_FACTOR * u.cacheRead;
}

/** The one-hour part of a logged request's cache write (0 for a log that does not split it). */
export function cacheWrite1hOf(request: LoggedRequest): number {
  return request.usage?.cache_creation?.ephemeral_1h_input_tokens ?? 0;
}

/** Requests that reached the model and were answered (faults and refusals consumed nothing). */
export function answeredPromptRequests(requests: readonly LoggedRequest[]): LoggedRequest[] {
  return requests.filter(
    (r) => (r.kind === 'main' || r.kind === 'compaction' || r.kind === 'keep_warm') && r.status === 200 && r.usage !== undefined,
  );
}

/**
 * A child agent (`agent` in the log) is a conversation of its own, interleaved with its parent's and its
 * siblings' requests: each agent's requests are followed by their own break detector and generations.
 */
interface AgentTrack {
  readonly detector: CacheBreakDetector;
  generation: number;
  firstOfGeneration: boolean;
}

export function measureRun(requests: readonly LoggedRequest[]): RunFigures {
  const answered = answeredPromptRequests(requests);
  const tracks = new Map<string, AgentTrack>();
  const trackOf = (request: LoggedRequest): AgentTrack => {
    const key = request.agent ?? '';
    let track = tracks.get(key);
    if (!track) tracks.set(key, (track = { detector: new CacheBreakDetector(), generation: 0, firstOfGeneration: true }));
    return track;
  };
  let uncached = 0,
    cacheWrite = 0,
    cacheWrite1h = 0,
    cacheRead = 0,
    shareRead = 0,
    shareTotal = 0,
    peak = 0,
    main = 0,
    compactions = 0,
    keepWarm = 0;
  let firstBreak: string | undefined;
  for (const request of answered) {
    const usage = request.usage!;
    const total = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
    uncached += usage.input_tokens;
    cacheWrite += usage.cache_creation_input_tokens;
    cacheWrite1h += cacheWrite1hOf(request);
    cacheRead += usage.cache_read_input_tokens;
    // Billed like any request, and nothing else: a keep-warm request repeats a prefix and changes no context.
    if (request.kind === 'keep_warm') {
      keepWarm++;
      continue;
    }
    const track = trackOf(request);
    if (request.kind === 'compaction') {
      compactions++;
      track.generation++;
      track.firstOfGeneration = true;
      continue;
    }
    main++;
    peak = Math.max(peak, total);
    if (!track.firstOfGeneration) {
      shareRead += usage.cache_read_input_tokens;
      shareTotal += total;
    }
    track.firstOfGeneration = false;
    const found = track.detector.observe(encodeRequest(request.body as ModelRequest), track.generation);
    if (found && firstBreak === undefined) {
      firstBreak = `request ${request.index}${request.agent ? ` (${request.agent})` : ''}: ${found.zone}[${found.index}] ${found.reason}`;
    }
  }
  return {
    requests: main,
    compactions,
    keepWarm,
    inputTokens: uncached + cacheWrite + cacheRead,
    uncached,
    cacheWrite,
    cacheRead,
    billed: billedOf({ uncached, cacheWrite, cacheRead, cacheWrite1h }),
    cacheHitShare: shareTotal > 0 ? shareRead / shareTotal : 0,
    cacheBreaks: [...tracks.values()].reduce((n, t) => n + t.detector.count, 0),
    ...(firstBreak !== undefined ? { firstBreak } : {}),
    peakContext: peak,
  };
}
