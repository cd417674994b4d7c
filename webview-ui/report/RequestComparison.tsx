import type { RequestSnapshotView } from '../../src/shared/protocol';
import { formatSigned, formatTokens } from '../common/format';
import { firstDifference, sourceDeltas, totals } from './snapshotMath';

/** Two requests side by side: tokens per source, messages, and where their prefixes part. */
export function RequestComparison({ a, b }: { a: RequestSnapshotView; b: RequestSnapshotView }) {
  const rows = sourceDeltas(a, b);
  const differs = firstDifference(a.messageHashes, b.messageHashes);
  const ta = totals(a);
  const tb = totals(b);
  return (
    <section class="comparison" aria-label={`Request ${a.index} compared with request ${b.index}`}>
      <table class="source-table">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col" class="num">
              #{a.index}
            </th>
            <th scope="col" class="num">
              #{b.index}
            </th>
            <th scope="col" class="num">
              Change
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.name}>
              <td>{r.name}</td>
              <td class="num">{formatTokens(r.a)}</td>
              <td class="num">{formatTokens(r.b)}</td>
              <td class={`num ${r.delta > 0 ? 'grew' : r.delta < 0 ? 'shrank' : ''}`}>{formatSigned(r.delta)}</td>
            </tr>
          ))}
          <tr class="total-row">
            <td>total</td>
            <td class="num">{formatTokens(ta.tokensCalibrated)}</td>
            <td class="num">{formatTokens(tb.tokensCalibrated)}</td>
            <td class="num">{formatSigned(tb.tokensCalibrated - ta.tokensCalibrated)}</td>
          </tr>
          <tr>
            <td>messages</td>
            <td class="num">{a.messageCount}</td>
            <td class="num">{b.messageCount}</td>
            <td class="num">{formatSigned(b.messageCount - a.messageCount)}</td>
          </tr>
        </tbody>
      </table>
      <p class="comparison-prefix">
        {differs === undefined
          ? 'The messages are the same.'
          : differs >= Math.min(a.messageHashes.length, b.messageHashes.length)
            ? `One request extends the other: the first ${differs} messages are the same.`
            : `The messages first differ at message ${differs} (${a.messageHashes[differs] ?? '–'} → ${b.messageHashes[differs] ?? '–'}).`}
      </p>
    </section>
  );
}
