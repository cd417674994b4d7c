import type { ConversationEntry } from '../conversation/conversation';
import { normalizePath } from '../ledger/paths';
import type { ToolUseBlock } from '../model/types';
import { namedBy } from './drop';
import { isOneLine, resultFacts, type ResultFact } from './resultFacts';
import { supersededResults } from './superseded';

/** What kind of thing a result is about, as the context view groups them (issue 35). */
export type ContextGroup = 'file' | 'command' | 'search' | 'mcp' | 'skill' | 'image' | 'subagent' | 'other';

export const CONTEXT_GROUPS: readonly ContextGroup[] = ['file', 'command', 'search', 'mcp', 'skill', 'image', 'subagent', 'other'];

/** One tool result the next request carries, as the context view lists it. */
export interface ContextItem {
  readonly id: string;
  readonly group: ContextGroup;
  /** What it is about: the file's path, the command line, the search, the MCP server, the skill, the task. */
  readonly subject: string;
  readonly tool: string;
  /** The bracket the model sees first (`[#id …]`). */
  readonly bracket: string;
  /** Tokens its text takes in the next request (the estimator's raw count). */
  readonly tokens: number;
  /** Results in this generation about the same subject (reads of the file, runs of the command…), this one included. */
  readonly timesUsed: number;
  /** Requests made since the subject was last used (a later result about it, or one naming this one); 0: the last request. */
  readonly lastUsedRequestsAgo: number;
  /** The later result that carries its information (elision would take it out); absent when none does. */
  readonly supersededBy?: string;
  /** Already one line (elided or dropped): nothing more to take out. */
  readonly oneLine: boolean;
}

/**
 * Every tool result the current generation carries (the next request sends them all), derived from the
 * generation's entries alone, like elision's facts: nothing is kept on the side, so it is the same on a reopen.
 * `countTokens` is the estimator's count of a text. In conversation order; the view sorts and filters.
 */
export function contextInventory(entries: readonly ConversationEntry[], countTokens: (text: string) => number): ContextItem[] {
  const facts = resultFacts(entries);
  const superseded = supersededResults(facts);
  const uses = new Map<string, ToolUseBlock>();
  for (const entry of entries) for (const block of entry.message.content) if (block.type === 'tool_use') uses.set(block.id, block);
  // Requests made after entry i: the assistant messages that follow it.
  const assistantsAfter: number[] = new Array<number>(entries.length).fill(0);
  for (let i = entries.length - 2; i >= 0; i--)
    assistantsAfter[i] = assistantsAfter[i + 1]! + (entries[i + 1]!.message.role === 'assistant' ? 1 : 0);

  const described = facts.map((fact) => {
    const block = entries[fact.entry]!.message.content[fact.block];
    const use = block?.type === 'tool_result' ? uses.get(block.tool_use_id) : undefined;
    return { fact, use, ...subjectOf(use, fact) };
  });
  const lastUse = new Map<string, number>();
  const counts = new Map<string, number>();
  const touch = (key: string, entry: number): void => void lastUse.set(key, Math.max(lastUse.get(key) ?? -1, entry));
  for (const d of described) {
    const key = `${d.group}\u0000${d.subject}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    touch(key, d.fact.entry);
    touch(`#${d.fact.id}`, d.fact.entry);
    for (const target of namedBy(d.fact)) touch(`#${target}`, d.fact.entry);
  }
  return described.map(({ fact, use, group, subject }) => {
    const key = `${group}\u0000${subject}`;
    const last = Math.max(lastUse.get(key) ?? fact.entry, lastUse.get(`#${fact.id}`) ?? fact.entry);
    const by = superseded.get(fact.id);
    return {
      id: fact.id,
      group,
      subject,
      tool: use?.name ?? 'unknown',
      bracket: fact.bracket,
      tokens: countTokens(fact.text),
      timesUsed: counts.get(key) ?? 1,
      lastUsedRequestsAgo: assistantsAfter[last] ?? 0,
      ...(by ? { supersededBy: by } : {}),
      oneLine: isOneLine(fact.text.split('\n', 1)[0] ?? ''),
    };
  });
}

const FILE_TOOLS = new Set(['read', 'write', 'edit', 'multiedit']);
const SEARCH_TOOLS = new Set(['grep', 'glob', 'list']);

/** The group and subject of a result, from the call that asked for it (and, for a patch, the paths the result names). */
function subjectOf(use: ToolUseBlock | undefined, fact: ResultFact): { group: ContextGroup; subject: string } {
  if (!use) return { group: 'other', subject: fact.bracket };
  const input = use.input && typeof use.input === 'object' ? (use.input as Record<string, unknown>) : {};
  const text = (key: string): string | undefined => (typeof input[key] === 'string' ? input[key] : undefined);
  const name = use.name;
  if (FILE_TOOLS.has(name) && text('path')) return { group: 'file', subject: normalizePath(text('path')!) };
  if (name === 'apply_patch') return { group: 'file', subject: fact.type === 'change' ? fact.paths.join(', ') : 'patch' };
  if (name === 'bash') return { group: 'command', subject: text('command') ?? 'bash' };
  if (SEARCH_TOOLS.has(name)) {
    const what = [text('pattern'), text('path')].filter(Boolean).join(' in ');
    return { group: 'search', subject: `${name} ${what}`.trim() };
  }
  const mcp = /^mcp__(.+?)__/.exec(name);
  if (mcp) return { group: 'mcp', subject: mcp[1]! };
  if (name === 'skill') return { group: 'skill', subject: text('name') ?? 'skill' };
  if (name === 'task') return { group: 'subagent', subject: text('description') ?? text('prompt')?.slice(0, 80) ?? 'task' };
  if (/image/.test(name)) return { group: 'image', subject: text('path') ?? text('url') ?? name };
  return { group: 'other', subject: name };
}
