import type { SnapshotSourceView } from '../../src/shared/protocol';
import { formatBytes, formatTokens } from '../common/format';
import { sourceSlots } from './sourceKinds';
import { JARGON, Jargon } from './Jargon';

/** A stacked bar of a request's sources by calibrated tokens, with a legend table of tokens and bytes. */
export function SourceBar({ sources }: { sources: readonly SnapshotSourceView[] }) {
  const total = Math.max(
    sources.reduce((n, s) => n + s.tokensCalibrated, 0),
    1,
  );
  const slots = sourceSlots(sources.map((s) => s.name));
  return (
    <div class="sources">
      <div
        class="stacked-bar"
        role="img"
        aria-label={sources.map((s) => `${s.name} ${formatTokens(s.tokensCalibrated)} tokens`).join(', ')}
      >
        {sources.map((s, i) => (
          <span
            key={s.name}
            class={`bar-segment seg-${slots[i]}`}
            data-source={s.name}
            title={`${s.name}: ${formatTokens(s.tokensCalibrated)} tokens, ${formatBytes(s.bytes)}`}
            style={{ width: `${(s.tokensCalibrated / total) * 100}%` }}
          />
        ))}
      </div>
      <table class="source-table">
        <thead>
          <tr>
            <th scope="col">Source</th>
            <th scope="col" class="num">
              Bytes
            </th>
            <th scope="col" class="num">
              <Jargon term="Tokens (raw)" explanation={JARGON.raw} />
            </th>
            <th scope="col" class="num">
              <Jargon term="Tokens (calibrated)" explanation={JARGON.calibrated} />
            </th>
            <th scope="col" class="num">
              Share
            </th>
          </tr>
        </thead>
        <tbody>
          {sources.map((s, i) => (
            <tr key={s.name} data-source-row={s.name}>
              <td>
                <span class={`swatch seg-${slots[i]}`} aria-hidden="true" />
                {s.name}
              </td>
              <td class="num">{formatBytes(s.bytes)}</td>
              <td class="num">{formatTokens(s.tokensRaw)}</td>
              <td class="num">{formatTokens(s.tokensCalibrated)}</td>
              <td class="num">{Math.round((s.tokensCalibrated / total) * 100)}%</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
