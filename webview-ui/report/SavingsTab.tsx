import { useSignal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import type { SavingMeasureView, SavingsFiguresView, SavingsView } from '../../src/shared/protocol';
import type { HostBridge } from '../common/hostBridge';
import { formatCost, formatShare, formatTokens } from '../common/format';

const MEASURES: readonly { readonly key: SavingMeasureView; readonly label: string }[] = [
  { key: 'stubs', label: 'Stubs (unchanged re-reads)' },
  { key: 'caps', label: 'Caps and output shaping' },
  { key: 'same_results', label: 'Same-result answers' },
  { key: 'diffs', label: 'Diffs instead of files' },
  { key: 'elisions', label: 'Elisions' },
];

/**
 * The report's Savings tab (issue 35 §4): what each hygiene measure kept out of the context, in tokens and dollars,
 * for this session and every session of the last 7 and 30 days, beside the cache hit rate and what cache expiry
 * cost. Asked of the host each time the tab opens (it reads the journals); Export CSV saves the same figures.
 */
export function SavingsTab({ bridge }: { bridge: HostBridge }) {
  const view = useSignal<SavingsView | undefined>(undefined);
  const error = useSignal<string | undefined>(undefined);
  const exported = useSignal<string | undefined>(undefined);
  useEffect(() => {
    bridge.request('savings', {}).then(
      (answer) => (view.value = answer),
      (reason: Error) => (error.value = reason.message),
    );
  }, [bridge]);
  const exportCsv = () => {
    exported.value = 'Exporting…';
    bridge.request('exportSavings', {}).then(
      ({ path }) => (exported.value = path ? `Saved to ${path}` : 'Not saved (cancelled).'),
      (reason: Error) => (exported.value = reason.message),
    );
  };
  if (error.value) return <p class="recall-error">{error.value}</p>;
  const v = view.value;
  if (!v) return <p class="quiet">Adding up what hygiene saved…</p>;
  const scopes: { readonly label: string; readonly figures: SavingsFiguresView }[] = [
    ...(v.session ? [{ label: 'This session', figures: v.session }] : []),
    { label: `Last 7 days (${v.sessions7} sessions)`, figures: v.last7 },
    { label: `Last 30 days (${v.sessions30} sessions)`, figures: v.last30 },
  ];
  return (
    <section class="savings" aria-label="What hygiene saved">
      <table class="savings-table">
        <thead>
          <tr>
            <th scope="col">Measure</th>
            {scopes.map((s) => (
              <th scope="col" key={s.label}>
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {MEASURES.map((m) => (
            <tr key={m.key} data-measure={m.key}>
              <th scope="row">{m.label}</th>
              {scopes.map((s) => (
                <td key={s.label}>
                  {formatTokens(s.figures.measures[m.key].tokens)} tokens · {usd(s.figures.measures[m.key].usd)}
                </td>
              ))}
            </tr>
          ))}
          <tr data-measure="total">
            <th scope="row">Total kept out</th>
            {scopes.map((s) => (
              <td key={s.label}>
                {formatTokens(s.figures.tokens)} tokens · {usd(s.figures.usd)}
              </td>
            ))}
          </tr>
          <tr data-measure="cache_hits">
            <th scope="row">Cache hit rate</th>
            {scopes.map((s) => (
              <td key={s.label}>
                {formatShare(s.figures.cacheHitShare)} of {formatTokens(s.figures.promptTokens)} prompt tokens
              </td>
            ))}
          </tr>
          <tr data-measure="cache_expiry">
            <th scope="row">What cache expiry cost</th>
            {scopes.map((s) => (
              <td key={s.label}>
                {s.figures.expiry.requests === 0
                  ? 'nothing'
                  : `${usd(s.figures.expiry.usd)} (${formatTokens(s.figures.expiry.tokens)} tokens written again, ${s.figures.expiry.requests} requests)`}
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <p class="quiet">
        Tokens: what each measure kept out of the context, summed over the decisions each request's snapshot lists. Dollars: those tokens at
        the request's model, as a cache write saved and a cache read by every later request until a compaction (an elision: the reads saved,
        less the break it cost).
      </p>
      {v.unreadable.length > 0 && <p class="quiet">Left out (their journal could not be read): {v.unreadable.join(', ')}</p>}
      <button type="button" onClick={exportCsv}>
        Export CSV
      </button>
      {exported.value && <p role="status">{exported.value}</p>}
    </section>
  );
}

function usd(value: number | null): string {
  return value === null ? 'no price' : formatCost(value);
}
