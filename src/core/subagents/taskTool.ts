import type { ExternalToolOutcome, ExternalTools } from '../ledger/types';
import type { ToolDefinition } from '../model/types';
import { SUBAGENT_KINDS, type SubagentKind } from '../subagentTypes';

export const TASK_TOOL_NAME = 'task';

/** Fixed for the session like every tool definition (offered only while sub-agents may nest one level more). */
export const TASK_TOOL: ToolDefinition = {
  name: TASK_TOOL_NAME,
  description:
    'Hands a self-contained task to a sub-agent with its own fresh context, and returns only its final answer (its transcript stays out of yours). ' +
    'Use it for work whose details you will not need afterwards: a wide search for where something is defined or used, reading many files to answer one question, ' +
    'a contained change you can describe fully. Several task calls in one response run at the same time. ' +
    'kind "explore" may only read (read, list, glob, grep, recall); kind "general" has every tool, under the same approvals as you. ' +
    'The prompt is all the sub-agent knows: say what to find or do, where to look, and what the answer must contain (paths, line numbers, result ids). ' +
    'Its answer ends with its requests, tokens, cost and the ids of its results, which you can recall.',
  input_schema: {
    type: 'object',
    properties: {
      description: { type: 'string', description: 'A short title for the task (3-8 words), shown to the user.' },
      prompt: { type: 'string', description: 'The whole task for the sub-agent, self-contained.' },
      kind: { type: 'string', enum: [...SUBAGENT_KINDS], description: '"explore" (read-only) or "general" (every tool).' },
    },
    required: ['description', 'prompt', 'kind'],
    additionalProperties: false,
  },
};

export interface TaskInput {
  readonly description: string;
  readonly prompt: string;
  readonly kind: SubagentKind;
}

/** The most a description may hold; longer is cut (it is a title). */
const MAX_DESCRIPTION = 120;
/** The most a prompt may hold: it is kept in the journal and shown in the chat; a longer task belongs in a file. */
export const MAX_TASK_PROMPT_CHARS = 100_000;

/** The call's input, or what is wrong with it in words the model can act on. */
export function parseTaskInput(input: unknown): { ok: true; task: TaskInput } | { ok: false; message: string } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, message: 'task needs an object: {"description": "...", "prompt": "...", "kind": "explore" | "general"}.' };
  }
  const { description, prompt, kind } = input as Record<string, unknown>;
  if (typeof prompt !== 'string' || prompt.trim() === '')
    return { ok: false, message: 'task needs a non-empty "prompt": the whole task for the sub-agent.' };
  if (prompt.length > MAX_TASK_PROMPT_CHARS) {
    return {
      ok: false,
      message: `task's "prompt" is ${prompt.length} characters; at most ${MAX_TASK_PROMPT_CHARS} are taken. Write the details to a file and name it in the prompt.`,
    };
  }
  if (typeof description !== 'string' || description.trim() === '')
    return { ok: false, message: 'task needs a short "description" (3-8 words).' };
  if (typeof kind !== 'string' || !(SUBAGENT_KINDS as readonly string[]).includes(kind)) {
    return { ok: false, message: `task's "kind" must be "explore" (read-only) or "general" (every tool), not ${JSON.stringify(kind)}.` };
  }
  const title = description.trim().replace(/\s+/g, ' ');
  return {
    ok: true,
    task: {
      description: title.length > MAX_DESCRIPTION ? `${title.slice(0, MAX_DESCRIPTION - 1)}…` : title,
      prompt,
      kind: kind as SubagentKind,
    },
  };
}

/** What runs a task: a child agent, to its end (`SubagentRunner`). */
export interface TaskRunner {
  run(task: TaskInput, callId: string, signal: AbortSignal | undefined): Promise<ExternalToolOutcome>;
}

/** The `task` tool through the ledger: its result gets an id, is stored in full and capped like any output. */
export class TaskTool implements ExternalTools {
  constructor(private readonly runner: TaskRunner) {}

  has(name: string): boolean {
    return name === TASK_TOOL_NAME;
  }

  async run(_name: string, input: unknown, context: Parameters<ExternalTools['run']>[2]): Promise<ExternalToolOutcome> {
    const parsed = parseTaskInput(input);
    if (!parsed.ok) return { text: parsed.message, isError: true, sameResultDedupe: false };
    return this.runner.run(parsed.task, context.callId ?? '', context.signal);
  }
}

/** The chat's one line for a `task` call: `task explore: Find where parseConfig is used`. */
export function taskCallSummary(input: unknown): string {
  const parsed = parseTaskInput(input);
  return parsed.ok ? `${TASK_TOOL_NAME} ${parsed.task.kind}: ${parsed.task.description}` : TASK_TOOL_NAME;
}
