/** The status bar item: window usage and the last request's cache hits; the tooltip has the three parts. */
import * as vscode from 'vscode';
import type { UsageMeterView } from '../shared/protocol';

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

/** What the item shows for a meter (undefined before a session is open). */
export function statusBarContent(meter: UsageMeterView | undefined): { text: string; tooltip: string } {
  if (!meter) return { text: '$(layers) Cairn', tooltip: 'Cairn: no session yet. Click for the context report.' };
  const used = meter.systemTokens + meter.historyTokens + meter.summaryTokens;
  const share = meter.windowTokens > 0 ? used / meter.windowTokens : 0;
  const cache = meter.cacheHitShare === null ? '' : ` · cache ${percent(meter.cacheHitShare)}`;
  const tooltip = [
    `Context: ${tokens(used)} of ${tokens(meter.windowTokens)} tokens (${percent(share)})`,
    `System: ${tokens(meter.systemTokens)} · History: ${tokens(meter.historyTokens)} · Summary: ${tokens(meter.summaryTokens)}`,
    meter.cacheHitShare === null ? 'Cache: no request yet' : `Read from the cache in the last request: ${percent(meter.cacheHitShare)}`,
    `Session cost: $${meter.sessionCostUsd.toFixed(4)}${meter.subagents?.length ? ' (sub-agents included)' : ''} · kept out of the context: ~${tokens(meter.tokensSavedByHygiene)} tokens`,
    ...subagentLines(meter),
    'Click to open the context report.',
  ].join('\n');
  return { text: `$(layers) ${percent(share)}${cache}`, tooltip };
}

export class ContextStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;

  constructor(showReportCommand: string) {
    this.item = vscode.window.createStatusBarItem('cairn.context', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Cairn Context';
    this.item.command = showReportCommand;
    this.update(undefined);
    this.item.show();
  }

  update(meter: UsageMeterView | undefined): void {
    const { text, tooltip } = statusBarContent(meter);
    this.item.text = text;
    this.item.tooltip = tooltip;
  }

  /** For tests and the e2e probe: what the user sees. */
  get shown(): { text: string; tooltip: string } {
    return { text: this.item.text, tooltip: typeof this.item.tooltip === 'string' ? this.item.tooltip : '' };
  }

  dispose(): void {
    this.item.dispose();
  }
}
