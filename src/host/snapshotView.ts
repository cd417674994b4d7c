import { cacheLifetimeMs } from '../core/cacheTime/cacheLifetime';
import { cacheBreakWhere } from '../core/compose/cacheBreak';
import type { RequestSnapshot } from '../core/compose/snapshot';
import type { HostNotification, RequestSnapshotView } from '../shared/protocol';

/** A composer snapshot shaped for the context report (plain JSON, only what the report shows). */
export function snapshotViewOf(snapshot: RequestSnapshot): RequestSnapshotView {
  const time = Date.parse(snapshot.time);
  const breakpoints = snapshot.breakpoints.flatMap((b) => (b.zone === 'messages' ? [b.index] : []));
  return {
    index: snapshot.index,
    time: Number.isFinite(time) ? time : 0,
    model: snapshot.model,
    generation: snapshot.generation,
    purpose: snapshot.purpose,
    sources: snapshot.sources.map((s) => ({
      name: s.label ? `${s.source}: ${s.label}` : s.source,
      bytes: s.bytes,
      tokensRaw: s.rawTokens,
      tokensCalibrated: s.tokens,
      // Absent from snapshots journalled before runs were counted apart.
      ...(s.runTokens ? { tokensRawInRuns: s.runTokens } : {}),
    })),
    ...(snapshot.estimate.ratio !== undefined
      ? {
          calibration: {
            ratio: snapshot.estimate.ratio,
            runRatio: snapshot.estimate.runRatio ?? snapshot.estimate.ratio,
            fromUsage: snapshot.estimate.strategy === 'provider_usage',
          },
        }
      : {}),
    toolDefinitionBytes: snapshot.toolDefinitionBytes,
    messageCount: snapshot.messageCount,
    messageHashes: [...snapshot.messageHashes],
    breakpoints: [...new Set(breakpoints)],
    cacheLifetimeMs: cacheLifetimeMs(snapshot.breakpoints),
    ...(snapshot.cacheDiagnosis === null
      ? { cacheDiagnosis: null }
      : snapshot.cacheDiagnosis
        ? {
            cacheDiagnosis: {
              reason: snapshot.cacheDiagnosis.type,
              ...(snapshot.cacheDiagnosis.cache_missed_input_tokens !== undefined
                ? { missedTokens: snapshot.cacheDiagnosis.cache_missed_input_tokens }
                : {}),
            },
          }
        : {}),
    maxTokens: snapshot.maxTokens,
    ...(snapshot.windowTokens !== undefined ? { windowTokens: snapshot.windowTokens } : {}),
    decisions: snapshot.decisions.map((d) => ({
      kind: d.kind,
      detail: d.detail,
      resultIds: [...d.resultIds],
      ...(d.tokensSaved !== undefined ? { tokensSaved: d.tokensSaved } : {}),
      ...(d.elision ? { elision: { ...d.elision } } : {}),
      ...(d.keepWarm ? { keepWarm: { ...d.keepWarm } } : {}),
    })),
    ...(snapshot.usage ? { usage: { ...snapshot.usage } } : {}),
    ...(snapshot.cacheHitShare !== null ? { cacheHitShare: snapshot.cacheHitShare } : {}),
    ...(snapshot.cost ? { costUsd: snapshot.cost.usd } : {}),
    ...(snapshot.cacheBreak
      ? {
          cacheBreak: {
            // `index` stays "the first differing message" for older webviews; `zone` and `where` say what changed.
            index: snapshot.cacheBreak.zone === 'messages' ? snapshot.cacheBreak.index : 0,
            reason:
              snapshot.cacheBreak.where || snapshot.cacheBreak.zone === 'messages'
                ? snapshot.cacheBreak.reason
                : `${snapshot.cacheBreak.zone}: ${snapshot.cacheBreak.reason}`,
            zone: snapshot.cacheBreak.zone,
            block: snapshot.cacheBreak.block,
            where: cacheBreakWhere(snapshot.cacheBreak),
          },
        }
      : {}),
  };
}

/** Whether a journal blob looks like a composer snapshot (the journal stores them as opaque JSON). */
export function isRequestSnapshot(value: unknown): value is RequestSnapshot {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Partial<RequestSnapshot>;
  return (
    s.version === 1 &&
    typeof s.index === 'number' &&
    Array.isArray(s.sources) &&
    Array.isArray(s.messageHashes) &&
    Array.isArray(s.decisions)
  );
}

/** A request's tokens and cost for its turn's usage line (none before its usage arrived). */
export function turnUsageOf(
  view: Omit<RequestSnapshotView, 'index'>,
  turn: number,
): Extract<HostNotification, { type: 'turnUsage' }> | undefined {
  if (!view.usage) return undefined;
  return {
    type: 'turnUsage',
    turn,
    model: view.model,
    inputTokens: view.usage.input + view.usage.cacheWrite + view.usage.cacheRead,
    outputTokens: view.usage.output,
    costUsd: view.costUsd ?? null,
  };
}
