/**
 * For a delegating scenario, each agent's figures split by whose requests they are: the session's own
 * agent (the parent) and its sub-agents (requests the log marks with `agent`). The parent's billed input
 * and peak context are what delegation is meant to keep down; the children's are its price.
 */
import type { LoggedRequest } from '../../src/node/localServer/server';
import type { ToolCategories } from './categories';
import { measurePeer } from './measurePeer';

export interface DelegationSplit {
  readonly parent: { readonly requests: number; readonly billed: number; readonly peakContext: number };
  readonly children: { readonly count: number; readonly requests: number; readonly billed: number; readonly peakContext: number };
}

/** Undefined when no request was a sub-agent's (the scenario does not delegate, or the agent did it inline). */
export function delegationSplit(requests: readonly LoggedRequest[], categories: ToolCategories): DelegationSplit | undefined {
  const children = requests.filter((r) => r.agent !== undefined);
  if (children.length === 0) return undefined;
  const parent = measurePeer(
    requests.filter((r) => r.agent === undefined),
    categories,
  );
  const kids = measurePeer(children, categories);
  return {
    parent: { requests: parent.requests, billed: parent.billed, peakContext: parent.peakContext },
    children: {
      count: new Set(children.map((r) => r.agent)).size,
      requests: kids.requests,
      billed: kids.billed,
      peakContext: kids.peakContext,
    },
  };
}

export function delegationSplitMarkdown(rows: ReadonlyArray<{ agent: string; split: DelegationSplit }>): string[] {
  if (rows.length === 0) return [];
  const int = (value: number): string => Math.round(value).toLocaleString('en-US');
  return [
    "Delegation split: the parent's own requests and its sub-agents' (billed-input equivalent, peak context in tokens).",
    '',
    '| agent | parent requests | parent billed | parent peak context | children | children requests | children billed | largest child context |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      ({ agent, split: { parent: p, children: c } }) =>
        `| ${agent} | ${p.requests} | ${int(p.billed)} | ${int(p.peakContext)} | ${c.count} | ${c.requests} | ${int(c.billed)} | ${int(c.peakContext)} |`,
    ),
    '',
  ];
}
