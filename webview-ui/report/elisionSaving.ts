import type { RequestSnapshotView, SnapshotDecisionView } from '../../src/shared/protocol';
import { formatTokens } from '../common/format';

const CACHE_READ = 0.1;
const REWRITE = 1.25 - 0.1;

/** What an elision was predicted to save and what it has saved so far (base-input-token units). */
export interface ElisionSaving {
  readonly predicted: number;
  readonly expectedRequests: number;
  readonly breakEvenRequests: number;
  /** Main requests of the elision's generation so far, the one that carried it included. */
  readonly requests: number;
  readonly realised: number;
}

/**
 * The realised saving, by the cost model of core/elision/README.md with what really happened: the requests
 * the generation actually made, and the break as the provider reported it (the tokens the elision's first
 * request wrote to the cache, which also holds that turn's new messages, so the break is never understated).
 * A cold cache (predicted break 0) wrote everything anyway: the first request saved the rewrite of E too.
 */
export function elisionSaving(
  decision: SnapshotDecisionView,
  snapshot: RequestSnapshotView,
  all: readonly RequestSnapshotView[],
): ElisionSaving | undefined {
  const figures = decision.elision;
  if (!figures) return undefined;
  const requests = all.filter((s) => s.purpose === 'main' && s.generation === snapshot.generation && s.index >= snapshot.index).length;
  const perRequest = CACHE_READ * figures.savedPerRequest;
  const written = snapshot.usage?.cacheWrite;
  const breakCost =
    figures.breakCost === 0
      ? -REWRITE * figures.savedPerRequest
      : written === undefined
        ? figures.breakCost
        : REWRITE * written - perRequest;
  return {
    predicted: figures.predictedSaving,
    expectedRequests: figures.expectedRequests,
    breakEvenRequests: figures.breakEvenRequests,
    requests,
    realised: perRequest * requests - Math.max(breakCost, -REWRITE * figures.savedPerRequest),
  };
}

export function elisionSavingText(saving: ElisionSaving): string {
  const pays = saving.breakEvenRequests < 0 ? 'never pays' : `pays after ${Math.round(saving.breakEvenRequests * 10) / 10} requests`;
  return (
    `Predicted: ${pays}, about ${Math.round(saving.expectedRequests)} expected, saving ${formatTokens(saving.predicted)} token-equivalents. ` +
    `So far: ${saving.requests} request${saving.requests === 1 ? '' : 's'}, ${saving.realised >= 0 ? 'saved' : 'cost'} ${formatTokens(Math.abs(saving.realised))}.`
  );
}
