import type { RequestSnapshotView } from '../../src/shared/protocol';
import { formatTokens } from '../common/format';

/**
 * Why a request missed the prompt cache, in two voices (issue 31 §3): Cairn's own attribution, from the history
 * of requests (the time since the same agent's previous request against the cache's lifetime), and the server's
 * diagnosis where it gave one (cache-diagnosis-2026-04-07). The server compares prompts, not clocks: an expired
 * entry is no divergence to it, so beside an expiry it says "only extended the previous request".
 */
export interface CacheMissText {
  /** Cairn's attribution: the cache had expired; absent when it had not. */
  readonly expiry?: string;
  /** The server's diagnosis in words; absent when it gave none. */
  readonly server?: string;
}

/** Default lifetime for snapshots from hosts older than `cacheLifetimeMs`. */
const FIVE_MINUTES = 5 * 60_000;

const REASONS: Readonly<Record<string, string>> = {
  model_changed: 'the model changed',
  system_changed: 'the system prompt changed',
  tools_changed: 'the tools changed',
  messages_changed: 'an earlier message changed',
  previous_message_not_found: 'it has no record of the previous request',
  unavailable: 'a setting that shapes the prompt (thinking, tool choice) changed',
};

/** The same agent's main request before `snapshot` (compaction requests have their own prompts). */
export function previousRequestOf(snapshot: RequestSnapshotView, all: readonly RequestSnapshotView[]): RequestSnapshotView | undefined {
  let found: RequestSnapshotView | undefined;
  for (const s of all) {
    if (s.index >= snapshot.index) continue;
    if (s.purpose !== 'main' || s.agent !== snapshot.agent) continue;
    if (!found || s.index > found.index) found = s;
  }
  return found;
}

/** Whether the cache the previous request left had expired when `snapshot` was sent, and by how much. */
export function expiredBefore(
  snapshot: RequestSnapshotView,
  all: readonly RequestSnapshotView[],
): { readonly idleMs: number; readonly lifetimeMs: number } | undefined {
  if (snapshot.purpose !== 'main') return undefined;
  const previous = previousRequestOf(snapshot, all);
  if (!previous) return undefined;
  const lifetimeMs = previous.cacheLifetimeMs ?? FIVE_MINUTES;
  const idleMs = snapshot.time - previous.time;
  return idleMs > lifetimeMs ? { idleMs, lifetimeMs } : undefined;
}

export function cacheMissText(snapshot: RequestSnapshotView, all: readonly RequestSnapshotView[]): CacheMissText | null {
  const expired = expiredBefore(snapshot, all);
  const diagnosis = snapshot.cacheDiagnosis;
  const written = snapshot.usage ? `: ${formatTokens(snapshot.usage.cacheWrite)} tokens written to the cache again` : '';
  const expiry = expired
    ? `Expired: ${minutes(expired.idleMs)} since the previous request, past the cache's ${minutes(expired.lifetimeMs)} lifetime${written}.`
    : undefined;
  let server: string | undefined;
  if (diagnosis === null) {
    // Said only beside an expiry: on its own, "nothing diverged" is the ordinary case and says nothing.
    if (expiry) server = 'no divergence: this request only extended the previous one (the server compares prompts, not time).';
  } else if (diagnosis) {
    const missed = diagnosis.missedTokens !== undefined ? `; ${formatTokens(diagnosis.missedTokens)} tokens it could not read` : '';
    server = `${REASONS[diagnosis.reason] ?? diagnosis.reason.replace(/_/g, ' ')} (${diagnosis.reason})${missed}.`;
  }
  if (!expiry && !server) return null;
  return { ...(expiry ? { expiry } : {}), ...(server ? { server } : {}) };
}

function minutes(ms: number): string {
  const n = ms / 60_000;
  return n < 1 ? `${Math.round(ms / 1000)} s` : `${n < 10 ? Math.round(n * 10) / 10 : Math.round(n)} min`;
}
