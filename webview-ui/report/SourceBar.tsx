import type { SnapshotSourceView } from '../../src/shared/protocol';
import { formatBytes, formatTokens } from '../common/format';

/** Colours cycle through the theme's chart colours; the legend names each source. */
const PALETTE_SIZE = 6;

/** A stacked bar of a request's sources by calibrated tokens, with a legend table of tokens and bytes. */
export function SourceBar({ sources }: { sources: readonly SnapshotSourceView[] }) {
  const total = Math.max(
    sources.reduce((n, s) => n + s.tokensCalibrated, 0),
    1,
  );
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
            class={`bar-segment seg-${i % PALETTE_SIZE}`}
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
              Tokens (raw)
            </th>
            <th scope="col" class="num">
              Tokens (calibrated)
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
                <span class={`swatch seg-${i % PALETTE_SIZE}`} aria-hidden="true" />
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
