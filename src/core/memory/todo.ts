import type { ExternalToolOutcome, ExternalTools } from '../ledger/types';
import type { ToolDefinition } from '../model/types';

export type TodoStatus = 'pending' | 'in_progress' | 'done';

export interface TodoItem {
  readonly text: string;
  readonly status: TodoStatus;
}

export const TODO_TOOL_NAME = 'todo';
export const TODO_MAX_ITEMS = 30;
export const TODO_MAX_TEXT = 200;

/** Fixed for the session like every tool definition. */
export const TODO_TOOL: ToolDefinition = {
  name: TODO_TOOL_NAME,
  description:
    'Keeps the plan of the current task as a short list that survives compaction and is shown to the user above the chat input. ' +
    'Send the whole list each time (it replaces the previous one): a few concrete steps, at most one in_progress, marked done as you finish them. ' +
    'Use it for tasks of three or more steps; skip it for a single quick answer.',
  input_schema: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        maxItems: TODO_MAX_ITEMS,
        items: {
          type: 'object',
          properties: {
            text: { type: 'string', description: `The step, in a few words (at most ${TODO_MAX_TEXT} characters).` },
            status: { type: 'string', enum: ['pending', 'in_progress', 'done'] },
          },
          required: ['text', 'status'],
          additionalProperties: false,
        },
      },
    },
    required: ['items'],
    additionalProperties: false,
  },
};

/** The tool's input checked: the list, or what is wrong with it (the model is told, nothing changes). */
export function parseTodoInput(input: unknown): { ok: true; items: TodoItem[] } | { ok: false; message: string } {
  const items = typeof input === 'object' && input !== null ? (input as { items?: unknown }).items : undefined;
  if (!Array.isArray(items))
    return { ok: false, message: 'The todo tool needs {"items": [{"text": "...", "status": "pending|in_progress|done"}]}.' };
  if (items.length > TODO_MAX_ITEMS)
    return { ok: false, message: `The list has ${items.length} items; keep it to ${TODO_MAX_ITEMS} or fewer.` };
  const out: TodoItem[] = [];
  for (const [i, item] of items.entries()) {
    const { text, status } = (typeof item === 'object' && item !== null ? item : {}) as { text?: unknown; status?: unknown };
    if (typeof text !== 'string' || text.trim().length === 0) return { ok: false, message: `Item ${i + 1} has no text.` };
    if (text.length > TODO_MAX_TEXT)
      return { ok: false, message: `Item ${i + 1} is ${text.length} characters; keep each to ${TODO_MAX_TEXT}.` };
    if (status !== 'pending' && status !== 'in_progress' && status !== 'done') {
      return { ok: false, message: `Item ${i + 1} has status ${JSON.stringify(status)}; use pending, in_progress or done.` };
    }
    out.push({ text: text.trim().replace(/\s+/g, ' '), status });
  }
  return { ok: true, items: out };
}

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', done: '[x]' };

/** The list as text: `- [x] done`, `- [~] in progress`, `- [ ] pending`. */
export function renderTodo(items: readonly TodoItem[]): string {
  if (items.length === 0) return '(empty)';
  return items.map((item) => `- ${MARK[item.status]} ${item.text}`).join('\n');
}

/**
 * A `todo` call's line in the chat, in words (issue 34, item 12: it showed its JSON argument): how many
 * items are done, and the one in progress. The same live and after a reload (`host/digestItems.ts`).
 */
export function todoCallSummary(input: unknown): string {
  const parsed = parseTodoInput(input);
  if (!parsed.ok) return `${TODO_TOOL_NAME} (a list it could not read)`;
  const { items } = parsed;
  if (items.length === 0) return `${TODO_TOOL_NAME} cleared the plan`;
  const done = items.filter((item) => item.status === 'done').length;
  const now = items.find((item) => item.status === 'in_progress');
  const count = `${done} of ${items.length} done`;
  const text = now ? `${count} · now: ${now.text}` : count;
  return `${TODO_TOOL_NAME} ${text.length > 100 ? `${text.slice(0, 99)}…` : text}`;
}

/** The `todo` tool as the ledger runs it: the list replaces the memory's, the result repeats it. */
export class TodoTool implements ExternalTools {
  constructor(private readonly memory: { setTodo(items: readonly TodoItem[]): void }) {}

  has(name: string): boolean {
    return name === TODO_TOOL_NAME;
  }

  async run(_name: string, input: unknown): Promise<ExternalToolOutcome> {
    const parsed = parseTodoInput(input);
    if (!parsed.ok) return { text: parsed.message, isError: true, sameResultDedupe: false };
    this.memory.setTodo(parsed.items);
    const done = parsed.items.filter((i) => i.status === 'done').length;
    return {
      text: `Plan updated (${done} of ${parsed.items.length} done):\n${renderTodo(parsed.items)}`,
      isError: false,
      sameResultDedupe: false,
    };
  }
}
