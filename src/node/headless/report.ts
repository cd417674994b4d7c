import type { RequestSnapshot } from '../../core/compose/snapshot';
import { describeOutcome } from './childTranscript';
import { totalsLine, type ChildRun } from './childRuns';

/**
 * One row per request: what it cost and what the cache did, for `--report`. Each child's requests
 * follow in a table of their own under its name, then the totals with the children counted in.
 */
export function renderReport(snapshots: readonly RequestSnapshot[], children: readonly ChildRun[] = []): string {
  if (children.length === 0) return requestTable(snapshots);
  const parts = [requestTable(snapshots)];
  for (const child of children) {
    const { agent, outcome } = child;
    parts.push(
      '',
      `${agent.id} (${agent.kind}): ${agent.description} — ${outcome ? `${outcome.reason}, ${describeOutcome(outcome)}` : 'did not finish'}`,
      requestTable(child.snapshots),
    );
  }
  parts.push('', totalsLine(snapshots, children));
  return parts.join('\n');
}

function requestTable(snapshots: readonly RequestSnapshot[]): string {
  const header = ['#', 'gen', 'purpose', 'msgs', 'est', 'input', 'cache write', 'cache read', 'output', 'hit', 'decisions'];
  const rows = snapshots.map((s, i) => {
    const usage = s.usage;
    const decisions = s.decisions.map((d) => d.kind).join(' ');
    return [
      String(i + 1),
      String(s.generation),
      s.purpose,
      String(s.messageCount),
      String(s.estimate.tokens),
      usage ? String(usage.input) : '-',
      usage ? String(usage.cacheWrite) : '-',
      usage ? String(usage.cacheRead) : '-',
      usage ? String(usage.output) : '-',
      s.cacheHitShare === null ? '-' : `${Math.round(s.cacheHitShare * 100)}%`,
      decisions,
    ];
  });
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, c) => cell.padEnd(widths[c]!))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}
