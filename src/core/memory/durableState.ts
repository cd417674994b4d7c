import { isAbsolute, relative } from 'node:path';
import type { ConversationEntry } from '../conversation/conversation';
import { selectPacks, type PackChoice } from '../compose/packs';
import { renderTodo, type TodoItem } from './todo';
import { durableStateText } from '../conversation/compactionOpening';

/** Seed 000's ContextState: what a new generation is told so a compaction never loses the task. */
export interface DurableState {
  readonly turns: number;
  /** At most three, oldest first: `read path=src/app.ts`. */
  readonly recentToolCalls: readonly string[];
  readonly todo: readonly TodoItem[];
}

const VALUE_LIMIT = 40;
const COMMAND_LIMIT = 80;
const COMMAND_KEYS = new Set(['command', 'cmd', 'script']);
const PATH_KEYS = new Set(['path', 'cwd', 'file', 'dir', 'directory']);

/** The last three tool calls of a generation, oldest first, summarised (seed 000's summarizeRecentToolCalls). */
export function recentToolCalls(entries: readonly ConversationEntry[], workspaceRoot: string): string[] {
  const calls: string[] = [];
  for (const entry of entries) {
    if (entry.message.role !== 'assistant') continue;
    for (const block of entry.message.content)
      if (block.type === 'tool_use') calls.push(summarizeCall(block.name, block.input, workspaceRoot));
  }
  return calls.slice(-3);
}

/** `name key=value …`: values cut at 40 characters, commands at 80, absolute paths under the workspace made relative. */
export function summarizeCall(name: string, input: unknown, workspaceRoot: string): string {
  if (typeof input !== 'object' || input === null) return name;
  const parts: string[] = [];
  for (const [key, raw] of Object.entries(input as Record<string, unknown>)) {
    let value = typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '');
    if (PATH_KEYS.has(key) || COMMAND_KEYS.has(key)) value = relativeTo(value, workspaceRoot);
    const limit = COMMAND_KEYS.has(key) ? COMMAND_LIMIT : VALUE_LIMIT;
    value = value.replace(/\s+/g, ' ');
    if (value.length > limit) value = `${value.slice(0, limit - 1)}…`;
    parts.push(`${key}=${/[\s"]/.test(value) ? JSON.stringify(value) : value}`);
  }
  return parts.length > 0 ? `${name} ${parts.join(' ')}` : name;
}

function relativeTo(value: string, root: string): string {
  if (root.length === 0) return value;
  if (isAbsolute(value) && (value === root || value.startsWith(`${root}/`) || value.startsWith(`${root}\\`))) {
    return relative(root, value) || '.';
  }
  // A command naming absolute paths under the workspace: shown relative too (the model knows its root).
  return value.split(`${root}/`).join('');
}

/**
 * The packs a new generation's first message carries, both required (seed 004's STATE_SNAPSHOT): the
 * plan (when there is one) and the durable state. Returns the choices (for the snapshot's decisions)
 * and the one block's text.
 */
export function durableStateBlock(state: DurableState): { text: string; choices: PackChoice[] } {
  const packs = [
    ...(state.todo.length > 0
      ? [{ label: 'todo', priority: 'required' as const, full: `Plan (todo list, kept across compaction):\n${renderTodo(state.todo)}` }]
      : []),
    {
      label: 'durable state',
      priority: 'required' as const,
      full:
        `Turns so far: ${state.turns}\n` +
        `Recent tool calls (oldest first):\n${state.recentToolCalls.length > 0 ? state.recentToolCalls.map((c) => `- ${c}`).join('\n') : '(none)'}`,
    },
  ];
  const choices = selectPacks(packs, { tokens: 0 });
  const body = choices
    .map((c) => c.text)
    .filter((t) => t.length > 0)
    .join('\n\n');
  return { text: durableStateText(body), choices };
}
