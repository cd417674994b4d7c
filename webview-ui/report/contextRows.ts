/** The "In context now" view's grouping, sorting and filtering (issue 35): pure, so the view and its tests agree. */
import type { ContextGroupView, ContextItemView } from '../../src/shared/protocol';

export type ContextSort = 'tokens' | 'lastUsed' | 'timesUsed';

export interface ContextFilter {
  /** Words every shown result's id, subject, tool or bracket contains (case-insensitive). */
  readonly text: string;
  /** One group only; undefined: all. */
  readonly group?: ContextGroupView;
  /** Only results a later result supersedes. */
  readonly supersededOnly: boolean;
}

export interface ContextGroupRows {
  readonly group: ContextGroupView;
  readonly items: readonly ContextItemView[];
  readonly tokens: number;
}

/** What each group is called in the view. */
export const GROUP_TITLES: Readonly<Record<ContextGroupView, string>> = {
  file: 'Files',
  command: 'Commands',
  search: 'Searches',
  mcp: 'MCP servers',
  skill: 'Skills',
  image: 'Images',
  subagent: 'Sub-agent answers',
  other: 'Other',
};

export function matches(item: ContextItemView, filter: ContextFilter): boolean {
  if (filter.group && item.group !== filter.group) return false;
  if (filter.supersededOnly && !item.supersededBy) return false;
  const words = filter.text.toLowerCase().split(/\s+/).filter(Boolean);
  const haystack = `${item.id} ${item.subject} ${item.tool} ${item.bracket}`.toLowerCase();
  return words.every((word) => haystack.includes(word));
}

const BY: Readonly<Record<ContextSort, (a: ContextItemView, b: ContextItemView) => number>> = {
  // Largest first; among equals, the older result first (it has been carried longest).
  tokens: (a, b) => b.tokens - a.tokens || b.lastUsedRequestsAgo - a.lastUsedRequestsAgo,
  // Longest unused first: the likeliest to be dead weight.
  lastUsed: (a, b) => b.lastUsedRequestsAgo - a.lastUsedRequestsAgo || b.tokens - a.tokens,
  timesUsed: (a, b) => b.timesUsed - a.timesUsed || b.tokens - a.tokens,
};

/** The shown results by group, each group's rows sorted, the groups largest first (by their shown tokens). */
export function contextRows(items: readonly ContextItemView[], filter: ContextFilter, sort: ContextSort): ContextGroupRows[] {
  const groups = new Map<ContextGroupView, ContextItemView[]>();
  for (const item of items) {
    if (!matches(item, filter)) continue;
    const list = groups.get(item.group) ?? [];
    list.push(item);
    groups.set(item.group, list);
  }
  return [...groups.entries()]
    .map(([group, list]) => ({ group, items: [...list].sort(BY[sort]), tokens: list.reduce((n, i) => n + i.tokens, 0) }))
    .sort((a, b) => b.tokens - a.tokens);
}

/** "last request", "3 requests ago". */
export function lastUsedText(requestsAgo: number): string {
  if (requestsAgo === 0) return 'last request';
  return requestsAgo === 1 ? '1 request ago' : `${requestsAgo} requests ago`;
}
