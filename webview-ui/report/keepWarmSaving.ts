import type { RequestSnapshotView } from '../../src/shared/protocol';
import { formatTokens } from '../common/format';

const CACHE_READ = 0.1;
const CACHE_WRITE = 1.25;
const FIVE_MINUTES_MS = 5 * 60_000;

/** What a keep-warm plan was predicted to save over the user's pause and what it saved (base-input-token units). */
export interface KeepWarmSaving {
  readonly predicted: number;
  readonly planned: number;
  /** Keep-warm requests the plan sent before the user came back (or so far). */
  readonly sent: number;
  /** What they cost: their input, cache writes (1.25×) and reads (0.1×). */
  readonly cost: number;
  /** Whether the user's next message came, and if so whether the cache would have expired by then without the pings. */
  readonly returned: 'not_yet' | 'before_expiry' | 'after_expiry';
  /** Tokens the next message read that it would otherwise have written again (1.15× each). */
  readonly keptTokens: number;
  readonly realised: number;
}

function own(s: RequestSnapshotView): boolean {
  return s.agent === undefined;
}

/**
 * The realised saving of the plan a keep-warm request belongs to: the pings after the last main request before
 * it, up to the next main request (the user's return). Without pings the prefix would have expired five minutes
 * after that last main request (`cacheLifetimeMs`); if the return came later, what it read from the cache, up to
 * the prefix the last ping read, was kept (1.15× each, the rewrite less the read), else nothing was. Less the
 * pings' own cost. Undefined for a request that is not a keep-warm one.
 */
export function keepWarmSaving(snapshot: RequestSnapshotView, all: readonly RequestSnapshotView[]): KeepWarmSaving | undefined {
  const figures = snapshot.decisions.find((d) => d.keepWarm)?.keepWarm;
  if (snapshot.purpose !== 'keep_warm' || !figures) return undefined;
  const ordered = all.filter(own).sort((a, b) => a.index - b.index);
  const at = ordered.findIndex((s) => s.index === snapshot.index);
  let start = at;
  while (start > 0 && ordered[start - 1]!.purpose !== 'main') start--;
  const anchor = start > 0 ? ordered[start - 1] : undefined;
  let end = at;
  while (end < ordered.length && ordered[end]!.purpose !== 'main') end++;
  const back = ordered[end];
  const pings = ordered.slice(start, end).filter((s) => s.purpose === 'keep_warm');
  const cost = pings.reduce(
    (sum, s) => sum + (s.usage ? s.usage.input + CACHE_WRITE * s.usage.cacheWrite + CACHE_READ * s.usage.cacheRead : 0),
    0,
  );
  const lastRead = pings.at(-1)?.usage?.cacheRead ?? 0;
  const lifetime = anchor?.cacheLifetimeMs ?? FIVE_MINUTES_MS;
  const returned = !back?.usage ? 'not_yet' : anchor && back.time > anchor.time + lifetime ? 'after_expiry' : 'before_expiry';
  const keptTokens = returned === 'after_expiry' ? Math.min(back!.usage!.cacheRead, lastRead) : 0;
  return {
    predicted: figures.predictedSaving,
    planned: figures.planned,
    sent: pings.length,
    cost,
    returned,
    keptTokens,
    realised: (CACHE_WRITE - CACHE_READ) * keptTokens - cost,
  };
}

export function keepWarmSavingText(saving: KeepWarmSaving): string {
  const sent = `${saving.sent} of ${saving.planned} keep-warm request${saving.planned === 1 ? '' : 's'} sent, costing ${formatTokens(saving.cost)}`;
  const back =
    saving.returned === 'not_yet'
      ? 'the next message has not come yet'
      : saving.returned === 'before_expiry'
        ? 'the next message came before the cache would have expired anyway'
        : `the next message came after the cache would have expired and read ${formatTokens(saving.keptTokens)} tokens it would have written again`;
  const net = `${saving.realised >= 0 ? 'saved' : 'cost'} ${formatTokens(Math.abs(saving.realised))}`;
  return `Predicted: saving ${formatTokens(saving.predicted)} token-equivalents over the pause. So far: ${sent}; ${back}: ${net}.`;
}
