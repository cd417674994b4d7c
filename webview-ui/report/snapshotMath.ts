/** Sums and comparisons the context report shows, as pure functions of snapshots. */
import type { RequestSnapshotView } from '../../src/shared/protocol';
import { formatTokens } from '../common/format';
import { sourceKey } from './sourceKinds';

export interface SnapshotTotals {
  readonly bytes: number;
  readonly tokensRaw: number;
  readonly tokensCalibrated: number;
  /** The provider's input as billed: uncached + cache write + cache read; undefined when no usage came back. */
  readonly providerInput?: number;
}

export function totals(snapshot: RequestSnapshotView): SnapshotTotals {
  const sum = (pick: (s: RequestSnapshotView['sources'][number]) => number) => snapshot.sources.reduce((n, s) => n + pick(s), 0);
  const usage = snapshot.usage;
  return {
    bytes: sum((s) => s.bytes),
    tokensRaw: sum((s) => s.tokensRaw),
    tokensCalibrated: sum((s) => s.tokensCalibrated),
    ...(usage ? { providerInput: usage.input + usage.cacheWrite + usage.cacheRead } : {}),
  };
}

/**
 * The calibration behind the calibrated figures, in words: `×1.01 text · ×0.51 long runs (12.5k raw
 * tokens in runs)`; `none yet: raw counts` before usage; '' from a host that does not send it.
 */
export function calibrationText(snapshot: RequestSnapshotView): string {
  const calibration = snapshot.calibration;
  if (!calibration) return '';
  if (!calibration.fromUsage) return 'none yet: raw counts';
  const inRuns = snapshot.sources.reduce((n, s) => n + (s.tokensRawInRuns ?? 0), 0);
  const runs = inRuns > 0 ? ` · ×${calibration.runRatio.toFixed(2)} long runs (${formatTokens(inRuns)} raw tokens in runs)` : '';
  return `×${calibration.ratio.toFixed(2)} text${runs}`;
}

/** Index of the first message whose hash differs between two requests (the first block a cache cannot reuse). */
export function firstDifference(a: readonly string[], b: readonly string[]): number | undefined {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? undefined : n;
}

export interface SourceDelta {
  readonly name: string;
  readonly a: number;
  readonly b: number;
  readonly delta: number;
}

/** Calibrated tokens per source of two requests, every source either has, in first-seen order. */
export function sourceDeltas(a: RequestSnapshotView, b: RequestSnapshotView): SourceDelta[] {
  // By kind (sourceKinds.ts): `conversation: 12 messages` and `conversation: 14 messages` are one row.
  const names = [...new Set([...a.sources.map((s) => sourceKey(s.name)), ...b.sources.map((s) => sourceKey(s.name))])];
  const tokens = (snapshot: RequestSnapshotView, name: string) =>
    snapshot.sources.filter((s) => sourceKey(s.name) === name).reduce((n, s) => n + s.tokensCalibrated, 0);
  return names.map((name) => {
    const ta = tokens(a, name);
    const tb = tokens(b, name);
    return { name, a: ta, b: tb, delta: tb - ta };
  });
}

/** Inserts or replaces a snapshot by index, keeping the list sorted. */
export function upsertSnapshot(list: readonly RequestSnapshotView[], snapshot: RequestSnapshotView): RequestSnapshotView[] {
  const next = list.filter((s) => s.index !== snapshot.index);
  next.push(snapshot);
  return next.sort((x, y) => x.index - y.index);
}

/**
 * The provider's input in words. The report receives a snapshot once its request has ended, so one without
 * usage is a request that got no answer (an error such as a 401, or a cancel), never one still waiting.
 */
export function providerInputText(totalsOf: SnapshotTotals): string {
  return totalsOf.providerInput === undefined
    ? 'none: the request ended without an answer'
    : `${formatTokens(totalsOf.providerInput)} tokens`;
}
