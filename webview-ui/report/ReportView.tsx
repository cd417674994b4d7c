import { SavingsTab } from './SavingsTab';
import type { ComponentChildren } from 'preact';
import type { RequestSnapshotView, SnapshotDecisionView } from '../../src/shared/protocol';
import { useBridge } from '../common/bridgeContext';
import { formatBytes, formatCost, formatShare, formatTime, formatTokens } from '../common/format';
import { LinkedText } from '../common/LinkedText';
import { RecallScope } from '../common/RecallScope';
import type { ReportStore } from './reportStore';
import { cacheBreakText } from './cacheBreakText';
import { cacheMissText, expiredBefore } from './cacheMissText';
import { elisionSaving, elisionSavingText } from './elisionSaving';
import { keepWarmSaving, keepWarmSavingText } from './keepWarmSaving';
import { RequestComparison } from './RequestComparison';
import { JARGON, Jargon } from './Jargon';
import { SourceBar } from './SourceBar';
import { calibrationText, providerInputText, totals } from './snapshotMath';
import { requestRows } from './requestGroups';
import { SessionTotals } from './SessionTotals';
import { ContextNow } from './ContextNow';
import type { ContextStore } from './contextStore';

/** `grouped`: listed under its child's heading, which names the child already. */
function RequestItem({ s, store, grouped = false }: { s: RequestSnapshotView; store: ReportStore; grouped?: boolean }) {
  const selected = store.selected.value;
  const t = totals(s);
  return (
    <li>
      <button
        type="button"
        class={`request-item ${s.index === selected?.index ? 'selected' : ''} ${s.cacheBreak ? 'has-break' : ''}`}
        aria-current={s.index === selected?.index ? 'true' : undefined}
        data-request={s.index}
        onClick={() => store.select(s.index)}
      >
        <span class="request-number">#{s.index}</span>
        <span class="request-time">{formatTime(s.time)}</span>
        <span class="request-tokens">{formatTokens(t.providerInput ?? t.tokensCalibrated)}</span>
        {/* Turns are counted from 1, as the chat counts messages ("You edited message 2"); the protocol's from 0. */}
        {s.turn !== undefined && <span class="request-turn">turn {s.turn + 1}</span>}
        {s.agent !== undefined && !grouped && <span class="tag agent-tag">{s.agent}</span>}
        {s.purpose === 'compaction' && <span class="tag">compaction</span>}
        {s.decisions.some((d) => d.kind === 'elision') && <span class="tag">elision</span>}
        {s.cacheBreak && <span class="tag break-tag">cache break</span>}
        {expiredBefore(s, store.snapshots.value) && <span class="tag expiry-tag">cache expired</span>}
      </button>
    </li>
  );
}

function RequestList({ store }: { store: ReportStore }) {
  return (
    <nav class="request-list" aria-label="Requests of this session">
      {store.selectedIndex.value !== undefined && (
        <button
          type="button"
          class="text-button follow-newest"
          onClick={() => store.select(undefined)}
          title="Select each new request as it arrives"
        >
          Follow newest
        </button>
      )}
      <ol>
        {requestRows(store.snapshots.value).map((row) =>
          row.kind === 'request' ? (
            <RequestItem key={row.snapshot.index} s={row.snapshot} store={store} />
          ) : (
            // A child agent's requests (issue 19), together under its id wherever they fell in the session's order.
            <li key={`agent-${row.agent}`} class="request-group">
              <span class="request-group-title" id={`requests-of-${row.agent}`}>
                {row.agent} · {row.snapshots.length === 1 ? '1 request' : `${row.snapshots.length} requests`}
              </span>
              <ol aria-labelledby={`requests-of-${row.agent}`}>
                {row.snapshots.map((s) => (
                  <RequestItem key={s.index} s={s} store={store} grouped />
                ))}
              </ol>
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

function ElisionLine({
  decision,
  snapshot,
  all,
}: {
  decision: SnapshotDecisionView;
  snapshot: RequestSnapshotView;
  all: readonly RequestSnapshotView[];
}) {
  const saving = elisionSaving(decision, snapshot, all);
  return saving ? <p class="elision-saving quiet">{elisionSavingText(saving)}</p> : null;
}

/** A keep-warm request's plan: predicted beside realised (issue 31). */
function KeepWarmLine({ snapshot, all }: { snapshot: RequestSnapshotView; all: readonly RequestSnapshotView[] }) {
  const saving = keepWarmSaving(snapshot, all);
  return saving ? <p class="elision-saving quiet">{keepWarmSavingText(saving)}</p> : null;
}

function Fact({ label, value }: { label: ComponentChildren; value: string }) {
  return (
    <div class="fact">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function RequestDetails({ snapshot, store }: { snapshot: RequestSnapshotView; store: ReportStore }) {
  const t = totals(snapshot);
  const usage = snapshot.usage;
  const compared = store.compared.value;
  const breakText = cacheBreakText(snapshot);
  const missText = cacheMissText(snapshot, store.snapshots.value);
  const bridge = useBridge();
  return (
    <article class="request-details" aria-label={`Request ${snapshot.index}`}>
      <h2>
        Request #{snapshot.index}
        {snapshot.agent !== undefined && ` of ${snapshot.agent}`}{' '}
        <span class="quiet">
          · {snapshot.model} · <Jargon term={`generation ${snapshot.generation}`} explanation={JARGON.generation} /> · {snapshot.purpose}
        </span>
      </h2>
      {snapshot.turn !== undefined && (
        // The chat's turn this request was made for; the chat's "Requests" link comes back here.
        <button type="button" class="text-button show-in-chat" onClick={() => bridge.notify({ type: 'showTurn', turn: snapshot.turn! })}>
          Show turn {snapshot.turn + 1} in the chat
        </button>
      )}
      {breakText && (
        <div class="cache-break" role="alert">
          <strong>Cache break</strong> {breakText.headline}
          {breakText.evidence && `: ${breakText.evidence}`}
          {breakText.messageHash && <span class="quiet"> · message hash {breakText.messageHash}</span>}
        </div>
      )}
      {missText && (
        <div class="cache-miss" role="note" aria-label="Cache miss">
          {missText.expiry && (
            <p>
              <strong>Cairn</strong> {missText.expiry}
            </p>
          )}
          {missText.server && (
            <p>
              <strong>Server's diagnosis</strong> {missText.server}
            </p>
          )}
        </div>
      )}
      <h3>Sources</h3>
      <SourceBar sources={snapshot.sources} />
      <h3>Estimate and provider</h3>
      <dl class="facts">
        <Fact label={<Jargon term="Estimate (raw)" explanation={JARGON.raw} />} value={`${formatTokens(t.tokensRaw)} tokens`} />
        <Fact
          label={<Jargon term="Estimate (calibrated)" explanation={JARGON.calibrated} />}
          value={`${formatTokens(t.tokensCalibrated)} tokens`}
        />
        {snapshot.calibration && (
          <Fact label={<Jargon term="Calibration" explanation={JARGON.calibration} />} value={calibrationText(snapshot)} />
        )}
        <Fact label="Provider input" value={providerInputText(t)} />
        <Fact label="Output" value={usage ? `${formatTokens(usage.output)} tokens` : '–'} />
        <Fact label="Cache read" value={usage ? formatTokens(usage.cacheRead) : '–'} />
        <Fact label="Cache write" value={usage ? formatTokens(usage.cacheWrite) : '–'} />
        <Fact label="Uncached" value={usage ? formatTokens(usage.input) : '–'} />
        <Fact label="Cache-hit share" value={formatShare(snapshot.cacheHitShare)} />
        <Fact label="Cost" value={formatCost(snapshot.costUsd)} />
        <Fact label="Size" value={`${formatBytes(t.bytes)} · tools ${formatBytes(snapshot.toolDefinitionBytes)}`} />
        <Fact
          label={
            <>
              Messages · <Jargon term="breakpoints" explanation={JARGON.breakpoint} />
            </>
          }
          value={`${snapshot.messageCount} · breakpoints at ${snapshot.breakpoints.join(', ') || 'none'}`}
        />
        <Fact label="max_tokens" value={String(snapshot.maxTokens)} />
      </dl>
      <h3>Decisions</h3>
      {snapshot.decisions.length === 0 ? (
        <p class="quiet">No hygiene decisions in this request.</p>
      ) : (
        <RecallScope>
          <ul class="decisions">
            {snapshot.decisions.map((d, i) => (
              <li key={i}>
                <span class={`kind-badge kind-${d.kind}`}>{d.kind}</span> <LinkedText text={d.detail} />
                {d.elision && <ElisionLine decision={d} snapshot={snapshot} all={store.snapshots.value} />}
                {d.keepWarm && <KeepWarmLine snapshot={snapshot} all={store.snapshots.value} />}
                {d.resultIds.length > 0 && (
                  <span class="decision-ids">
                    {' '}
                    <LinkedText text={d.resultIds.join(' ')} />
                  </span>
                )}
              </li>
            ))}
          </ul>
        </RecallScope>
      )}
      <h3>Compare</h3>
      <label class="compare-picker">
        Compare with{' '}
        <select
          value={compared ? String(compared.index) : ''}
          onChange={(e) => {
            const value = (e.currentTarget as HTMLSelectElement).value;
            store.compareWith(value === '' ? undefined : Number(value));
          }}
        >
          <option value="">(none)</option>
          {store.snapshots.value
            .filter((s) => s.index !== snapshot.index)
            .map((s) => (
              <option key={s.index} value={String(s.index)}>
                #{s.index} · {formatTime(s.time)}
              </option>
            ))}
        </select>
      </label>
      {compared && compared.index !== snapshot.index && <RequestComparison a={compared} b={snapshot} />}
    </article>
  );
}

/** The report's views: the requests made, what the next one carries, and what hygiene saved (issue 35). */
function ReportTabs({ context }: { context: ContextStore }) {
  const tab = context.tab.value;
  return (
    <div class="report-tabs" role="tablist" aria-label="Context report">
      <button type="button" role="tab" aria-selected={tab === 'requests'} onClick={() => context.show('requests')}>
        Requests
      </button>
      <button type="button" role="tab" aria-selected={tab === 'context'} onClick={() => context.show('context')}>
        In context now
      </button>
      <button type="button" role="tab" aria-selected={tab === 'savings'} onClick={() => context.show('savings')}>
        Savings
      </button>
    </div>
  );
}

/** The context report: every request of the session, and for the selected one where its tokens went; or what is in the context now. */
export function ReportView({ store, context }: { store: ReportStore; context: ContextStore }) {
  const selected = store.selected.value;
  if (context.tab.value === 'context') {
    return (
      <div class="report report-context">
        <ReportTabs context={context} />
        <ContextNow store={context} />
      </div>
    );
  }
  if (context.tab.value === 'savings') {
    return (
      <div class="report report-context">
        <ReportTabs context={context} />
        <SavingsTab bridge={context.bridge} />
      </div>
    );
  }
  return (
    <div class="report">
      <ReportTabs context={context} />
      <RequestList store={store} />
      <div class="report-main">
        <SessionTotals snapshots={store.snapshots.value} />
        {selected ? (
          <RequestDetails snapshot={selected} store={store} />
        ) : (
          <p class="empty quiet">No requests yet. Each request the agent sends appears here with where its tokens went.</p>
        )}
      </div>
    </div>
  );
}
