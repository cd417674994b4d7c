/** The status bar item: window usage and the last request's cache hits; the tooltip has the three parts. */
import * as vscode from 'vscode';
import type { UsageMeterView } from '../shared/protocol';
import { cacheWarmth } from '../core/cacheTime/cacheLifetime';
import type { KeepWarmState } from '../core/session/keepWarm';
import { keepWarmStatus } from './keepWarmStatus';

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}

function tokens(count: number): string {
  return count >= 10_000 ? `${Math.round(count / 1000)}k` : count.toLocaleString('en-US');
}

/** One line per sub-agent (issue 19): its requests, tokens and cost, apart from the session's own. */
function subagentLines(meter: UsageMeterView): string[] {
  return (meter.subagents ?? []).map(({ id, usage }) => {
    const cost = usage.costUsd === null ? 'cost unknown' : `$${usage.costUsd.toFixed(4)}`;
    const requests = `${usage.requests} request${usage.requests === 1 ? '' : 's'}`;
    return `  ${id}: ${requests}, ${tokens(usage.inputTokens + usage.outputTokens)} tokens (${tokens(usage.cacheReadTokens)} cached), ${cost}`;
  });
}

/** Whole minutes for people: "3 min", "less than a minute". */
function minutes(ms: number, round: (n: number) => number): string {
  const n = round(ms / 60_000);
  return n < 1 ? 'less than a minute' : `${n} min`;
}

/**
 * When the prompt cache expires (issue 31 §3): warm for how long yet, or expired for how long and what the next
 * message then writes again (the whole context). Undefined before the first request.
 */
export function cacheTimeLine(meter: UsageMeterView, now: number): { line: string; expired: boolean } | undefined {
  if (!meter.cache) return undefined;
  const warmth = cacheWarmth(meter.cache.lastUsedAt, meter.cache.lifetimeMs, now);
  if (warmth.state === 'none') return undefined;
  const used = meter.systemTokens + meter.historyTokens + meter.summaryTokens;
  if (warmth.state === 'warm') return { line: `Cache warm for ${minutes(warmth.expiresInMs, Math.ceil)} more`, expired: false };
  const ago = Math.floor(warmth.expiredForMs / 60_000) < 1 ? 'just now' : `${minutes(warmth.expiredForMs, Math.floor)} ago`;
  return { line: `Cache expired ${ago}: the next message writes ~${tokens(used)} tokens again`, expired: true };
}

/** What the item shows for a meter (undefined before a session is open) at `now`. */
export function statusBarContent(
  meter: UsageMeterView | undefined,
  now: number = Date.now(),
  keepWarm?: KeepWarmState,
): { text: string; tooltip: string } {
  if (!meter) return { text: '$(layers) Cairn', tooltip: 'Cairn: no session yet. Click for the context report.' };
  const warming = keepWarmStatus(keepWarm, now);
  const used = meter.systemTokens + meter.historyTokens + meter.summaryTokens;
  const share = meter.windowTokens > 0 ? used / meter.windowTokens : 0;
  const time = cacheTimeLine(meter, now);
  const cache = time?.expired ? ' · cache expired' : meter.cacheHitShare === null ? '' : ` · cache ${percent(meter.cacheHitShare)}`;
  const tooltip = [
    `Context: ${tokens(used)} of ${tokens(meter.windowTokens)} tokens (${percent(share)})`,
    `System: ${tokens(meter.systemTokens)} · History: ${tokens(meter.historyTokens)} · Summary: ${tokens(meter.summaryTokens)}`,
    meter.cacheHitShare === null ? 'Cache: no request yet' : `Read from the cache in the last request: ${percent(meter.cacheHitShare)}`,
    ...(time ? [time.line] : []),
    ...(warming ? [warming.line] : []),
    `Session cost: $${meter.sessionCostUsd.toFixed(4)}${meter.subagents?.length ? ' (sub-agents included)' : ''} · kept out of the context: ~${tokens(meter.tokensSavedByHygiene)} tokens`,
    ...subagentLines(meter),
    'Click to open the context report.',
  ].join('\n');
  return { text: `$(layers) ${percent(share)}${cache}${warming?.mark ?? ''}`, tooltip };
}

/** How often the item is drawn again while nothing else changes, so the cache's time stays true. */
const CACHE_TIME_REFRESH_MS = 15_000;

export class ContextStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private meter: UsageMeterView | undefined;
  private keepWarmState: KeepWarmState | undefined;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(showReportCommand: string) {
    this.item = vscode.window.createStatusBarItem('cairn.context', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Cairn Context';
    this.item.command = showReportCommand;
    this.update(undefined);
    this.item.show();
    this.timer = setInterval(() => this.update(this.meter), CACHE_TIME_REFRESH_MS);
  }

  update(meter: UsageMeterView | undefined): void {
    this.meter = meter;
    const { text, tooltip } = statusBarContent(meter, Date.now(), this.keepWarmState);
    this.item.text = text;
    this.item.tooltip = tooltip;
  }

  /** Keep-warm's state (`KeepWarmTimer`'s report): shown beside the cache's time. */
  keepWarm(state: KeepWarmState): void {
    this.keepWarmState = state;
    this.update(this.meter);
  }

  /** For tests and the e2e probe: what the user sees. */
  get shown(): { text: string; tooltip: string } {
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '' };
  }

  dispose(): void {
    clearInterval(this.timer);
    this.item.dispose();
  }
}
