/**
 * How long the user is away before each message of a long day (`{"user": "…", "idle": SECONDS}`): one
 * deterministic pattern for any day of N user turns, shaped by published figures and by nothing in any agent,
 * so that what expiry costs is measured as a user's day brings it about. Sources (bench/README.md says the same):
 *
 * - How many replies come after the five-minute cache lifetime, and how many after fifteen minutes: 27% and 10%
 *   of 1,967 reply times in one Claude Code user's session telemetry (anthropics/claude-code issue #74075).
 * - How long the long breaks are: the idle gaps of ten minutes or more in 30 real Claude Code sessions, counted
 *   by band (anthropics/claude-code issue #94177, follow-up of 2026-09-14): 45–60 min 146, 60–75 min 97,
 *   75–120 min 161.
 *
 * The shape, for g = N − 1 gaps (the first message has none: nothing is cached yet):
 *
 * - ⌈27% of g⌉ gaps longer than five minutes. With three gaps or more, one of them is the day's long break
 *   (lunch, a meeting) in the middle of the day; the others lie between 5 and 30 minutes, at evenly spaced
 *   quantiles of a log-uniform spread over 5–30 min, which puts 39% of them over fifteen minutes, as the 10% of
 *   27% (37%) above does.
 * - The long break lasts the median of the published breaks between 45 and 90 minutes, taking each band as
 *   evenly spread (the 75–120 band's first third falls under 90): 60.4 minutes. That is just past the one-hour
 *   lifetime. The published break rates show the same knife edge: a quarter of the 45–60 minute gaps and 93% of
 *   the 60–75 minute ones lost a one-hour cache. A day whose break is under an hour leaves a one-hour cache warm,
 *   and one whose break is over an hour does not; the median is what a day brings.
 * - Every other gap is under two minutes, spread log-uniformly between 15 s and 2 min. Their exact lengths change
 *   no cache outcome: every one is under the five-minute lifetime.
 */

/** Share of replies sent more than five minutes after the last answer (issue #74075: 27% of 1,967). */
export const SHARE_OVER_FIVE_MINUTES = 0.27;

/** Published counts of idle gaps per band, in minutes (issue #94177): `[from, to, count]`. */
export const LONG_GAP_BANDS: readonly (readonly [number, number, number])[] = [
  [45, 60, 146],
  [60, 75, 97],
  [75, 120, 161],
];

const SHORT_GAP = { fromSeconds: 15, toSeconds: 120 } as const;
const MEDIUM_GAP = { fromSeconds: 5 * 60, toSeconds: 30 * 60 } as const;
const LONG_GAP_RANGE_MINUTES = { from: 45, to: 90 } as const;
/** Below this many gaps a day has no long break: its gaps over five minutes are all of the 5–30 minute kind. */
const GAPS_FOR_A_LONG_BREAK = 3;

/** The median of the published gaps within 45–90 minutes, each band taken as evenly spread: seconds. */
export function longBreakSeconds(): number {
  const { from, to } = LONG_GAP_RANGE_MINUTES;
  // Each band's part within the range, and how many gaps that part holds.
  const parts = LONG_GAP_BANDS.flatMap(([lo, hi, count]) => {
    const a = Math.max(lo, from);
    const b = Math.min(hi, to);
    return b > a ? [{ from: a, to: b, count: (count * (b - a)) / (hi - lo) }] : [];
  });
  let remaining = parts.reduce((n, p) => n + p.count, 0) / 2;
  for (const part of parts) {
    if (remaining <= part.count) return Math.round((part.from + ((part.to - part.from) * remaining) / part.count) * 60);
    remaining -= part.count;
  }
  throw new Error('The long-gap bands hold no gap between 45 and 90 minutes.');
}

/** `count` values spread log-uniformly between `from` and `to`, at the middle of each of `count` equal shares. */
function logUniformQuantiles(count: number, from: number, to: number): number[] {
  return Array.from({ length: count }, (_, i) => Math.round(from * (to / from) ** ((i + 0.5) / count)));
}

/**
 * The idle in seconds before each of `userTurns` user turns, in order: 0 before the first. Deterministic: the
 * same N gives the same pattern.
 */
export function idlePattern(userTurns: number): number[] {
  if (!Number.isInteger(userTurns) || userTurns < 0) throw new RangeError(`A day has a whole number of user turns, not ${userTurns}.`);
  if (userTurns === 0) return [];
  const gaps = userTurns - 1;
  const overFive = Math.ceil(SHARE_OVER_FIVE_MINUTES * gaps);
  const longBreaks = gaps >= GAPS_FOR_A_LONG_BREAK ? 1 : 0;
  const medium = overFive - longBreaks;
  const pattern: (number | undefined)[] = Array.from({ length: gaps }, () => undefined);
  if (longBreaks) pattern[Math.floor(gaps / 2)] = longBreakSeconds();
  // The 5–30 minute gaps spread over the day, shorter ones first.
  logUniformQuantiles(medium, MEDIUM_GAP.fromSeconds, MEDIUM_GAP.toSeconds).forEach((seconds, j) => {
    let at = Math.floor(((j + 0.5) * gaps) / medium);
    while (pattern[at] !== undefined) at = (at + 1) % gaps;
    pattern[at] = seconds;
  });
  // The short gaps take the places left, alternately from the short and the long end of their spread.
  const short = logUniformQuantiles(pattern.filter((p) => p === undefined).length, SHORT_GAP.fromSeconds, SHORT_GAP.toSeconds);
  const alternating = short.map((_, k) => (k % 2 === 0 ? short[k / 2]! : short[short.length - 1 - (k - 1) / 2]!));
  let next = 0;
  return [0, ...pattern.map((p) => p ?? alternating[next++]!)];
}

/** The turns with `idle` on each user turn (one with a `user` key), per `idlePattern`: none written where it is 0; other turns unchanged. */
export function withIdlePattern<T extends object>(turns: readonly T[]): T[] {
  const pattern = idlePattern(turns.filter((t) => 'user' in t).length);
  let next = 0;
  return turns.map((turn) => {
    if (!('user' in turn)) return turn;
    const idle = pattern[next++]!;
    return idle > 0 ? { ...turn, idle } : turn;
  });
}
