import type { RequestSnapshot, SourceSnapshot } from './snapshot';

/**
 * Plain-text report of request snapshots, one block per request (the headless runner's `--report`):
 * the estimate raw and calibrated beside the provider's numbers, the sources, the decisions, and a
 * cache break when there was one; then the session's totals.
 */
export function formatSnapshotReport(snapshots: readonly RequestSnapshot[]): string {
  const lines: string[] = [];
  for (const snapshot of snapshots) lines.push(...formatSnapshot(snapshot), '');
  lines.push(formatTotals(snapshots));
  return lines.join('\n');
}

export function formatSnapshot(snapshot: RequestSnapshot): string[] {
  const { estimate, usage } = snapshot;
  const head = [
    `#${snapshot.index}`,
    `gen ${snapshot.generation}`,
    snapshot.purpose,
    snapshot.model,
    `${snapshot.messageCount} messages`,
    `${kb(snapshot.bytes.total)}`,
    `estimate ${estimate.tokens} (raw ${estimate.rawTokens}${estimate.runTokens ? `, ${estimate.runTokens} in long runs` : ''}, ${estimate.strategy}, ${estimate.confidence}${calibrationOf(estimate)})`,
  ];
  if (usage) {
    const prompt = usage.input + usage.cacheWrite + usage.cacheRead;
    head.push(
      `reported ${prompt} = ${usage.input} uncached + ${usage.cacheWrite} written + ${usage.cacheRead} read`,
      `out ${usage.output}`,
    );
  }
  if (snapshot.cacheHitShare !== null) head.push(`hit ${(snapshot.cacheHitShare * 100).toFixed(1)}%`);
  if (snapshot.cost) head.push(`$${snapshot.cost.usd.toFixed(4)}`);
  const lines = [head.join('  ')];
  lines.push(`    sources: ${snapshot.sources.map(formatSource).join(' | ')}`);
  for (const decision of snapshot.decisions) {
    const ids = decision.resultIds.length ? ` [${decision.resultIds.join(' ')}]` : '';
    lines.push(`    ${decision.kind}: ${decision.detail}${ids}`);
  }
  if (snapshot.cacheBreak) {
    const found = snapshot.cacheBreak;
    // A break that names its part already opens its reason with it; an older one gets zone and index.
    lines.push(found.where ? `    CACHE BREAK at ${found.reason}` : `    CACHE BREAK at ${found.zone} ${found.index}: ${found.reason}`);
  }
  return lines;
}

/** The ratios the calibrated figures used (absent before usage, and from snapshots older than them). */
function calibrationOf(estimate: RequestSnapshot['estimate']): string {
  if (estimate.strategy !== 'provider_usage' || estimate.ratio === undefined) return '';
  const runs = estimate.runTokens ? ` ×${estimate.runRatio.toFixed(3)} long runs` : '';
  return `, ×${estimate.ratio.toFixed(3)} text${runs}`;
}

function formatSource(source: SourceSnapshot): string {
  const marks = [source.variant === 'compact' ? 'compact' : '', source.truncated ? 'truncated' : ''].filter(Boolean);
  const label = source.source === 'rules' ? `rules ${source.label}` : source.source.replace('_', ' ');
  return `${label} ${kb(source.bytes)} ${source.tokens} tok${marks.length ? ` (${marks.join(', ')})` : ''}`;
}

function kb(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function formatTotals(snapshots: readonly RequestSnapshot[]): string {
  let prompt = 0;
  let read = 0;
  let cost = 0;
  let priced = 0;
  let breaks = 0;
  for (const snapshot of snapshots) {
    if (snapshot.cacheBreak) breaks++;
    if (snapshot.usage) {
      prompt += snapshot.usage.input + snapshot.usage.cacheWrite + snapshot.usage.cacheRead;
      read += snapshot.usage.cacheRead;
    }
    if (snapshot.cost) {
      cost += snapshot.cost.usd;
      priced++;
    }
  }
  const share = prompt > 0 ? `${((read / prompt) * 100).toFixed(1)}%` : 'n/a';
  const money =
    priced > 0 ? `$${cost.toFixed(4)}${priced < snapshots.length ? ` (${snapshots.length - priced} requests unpriced)` : ''}` : 'n/a';
  return `${snapshots.length} requests, ${breaks} cache breaks, prompt tokens ${prompt}, cache-hit share ${share}, cost ${money}`;
}
