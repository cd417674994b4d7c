import type { RequestSnapshotView, SubagentUsageView } from '../../src/shared/protocol';
import { sessionTotals, subagentTotals } from '../../src/shared/subagentTotals';
import { formatCost, formatTokens } from '../common/format';

function Row({ name, usage }: { name: string; usage: SubagentUsageView }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{usage.requests}</td>
      <td>{formatTokens(usage.inputTokens)}</td>
      <td>{formatTokens(usage.cacheReadTokens)}</td>
      <td>{formatTokens(usage.outputTokens)}</td>
      <td>{usage.costUsd === null ? '–' : formatCost(usage.costUsd)}</td>
    </tr>
  );
}

/**
 * The session's totals over every request, the children's included, with each child apart (issue 19).
 * Shown only when the session has children: without them the meter says the same.
 */
export function SessionTotals({ snapshots }: { snapshots: readonly RequestSnapshotView[] }) {
  const children = subagentTotals(snapshots);
  if (children.length === 0) return null;
  const own = sessionTotals(snapshots.filter((s) => s.agent === undefined));
  return (
    <section class="session-totals" aria-label="Session totals">
      <table>
        <caption>Session totals, sub-agents included</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Requests</th>
            <th scope="col">Input</th>
            <th scope="col">Cache read</th>
            <th scope="col">Output</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          <Row name="session" usage={own} />
          {children.map((child) => (
            <Row key={child.id} name={child.id} usage={child.usage} />
          ))}
        </tbody>
        <tfoot>
          <Row name="total" usage={sessionTotals(snapshots)} />
        </tfoot>
      </table>
    </section>
  );
}
