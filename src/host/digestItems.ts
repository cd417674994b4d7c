/**
 * The chat's items rebuilt from journalled messages: an assistant message's text, thinking and tool
 * lines, and a results message's answers put on their lines. Shared by the session's turns
 * (`journalDigest.ts`) and each child agent's block (`subagentDigest.ts`).
 */
import type { ResultKind } from '../core/ledger/types';
import type { AssistantMessage, UserMessage } from '../core/model/types';
import { summarizeToolCall } from '../core/tools/definitions';
import { TODO_TOOL_NAME, todoCallSummary } from '../core/memory/todo';
import { TASK_TOOL_NAME, taskCallSummary } from '../core/subagents/taskTool';
import type { TranscriptItem } from '../shared/protocol';
import { resultOutcomeOf } from './resultOutcome';
import { tokensSavedBy } from './resultView';
import { showsCapOf } from '../core/ledger/cap';

export interface ResultHead {
  readonly id: string;
  readonly tool: string;
  readonly bracket: string;
  readonly kind: ResultKind;
  readonly fullChars: number;
  /** How long the tool ran, as the ledger stored it (absent in journals from before it was). */
  readonly durationMs?: number;
  /** The image an unchanged image's stub kept out of the request, in tokens (absent in older journals). */
  readonly imageTokensKeptOut?: number;
}

type ToolItem = Extract<TranscriptItem, { type: 'tool' }>;

/**
 * The stored results' heads by the provider's tool_use id, which the ledger stores with every result. A
 * child's call may carry the same id as the parent's or another child's (each agent's ids are unique only
 * in its own conversation), so each id keeps every head, and a result is matched by its bracket, which
 * starts the text the model saw.
 */
export class ResultHeads {
  private readonly byCall = new Map<string, ResultHead[]>();

  add(callId: string, head: ResultHead): void {
    const list = this.byCall.get(callId);
    if (list) list.push(head);
    else this.byCall.set(callId, [head]);
  }

  /** The head of the result the model saw as `content` for call `callId` (the newest when none matches). */
  find(callId: string, content: string): ResultHead | undefined {
    const list = this.byCall.get(callId);
    if (!list) return undefined;
    for (let i = list.length - 1; i >= 0; i--) if (content.startsWith(list[i]!.bracket)) return list[i];
    return list.at(-1);
  }
}

/** The tool line's outcome for a result rebuilt from the journal: the live line's, with its duration when stored. */
function outcomeField(
  head: ResultHead,
  kind: ResultKind,
  text: string,
  isError: boolean,
): { outcome?: ReturnType<typeof resultOutcomeOf> } {
  const outcome = resultOutcomeOf({ tool: head.tool, kind, text, isError }, head.durationMs);
  return outcome ? { outcome } : {};
}

/**
 * How the model was answered. The ledger stores it; journals written before it stored a cap kept `full`
 * for a capped output, whose text the model saw still names the result in its cap's line.
 */
function shownKind(head: ResultHead, shown: string): ResultKind {
  return head.kind === 'full' && showsCapOf(shown, head.id) ? 'capped' : head.kind;
}

/** Adds an assistant message's blocks to `items`; returns the ids of its tool calls. */
export function appendAssistant(items: TranscriptItem[], message: AssistantMessage, incomplete: boolean): string[] {
  const calls: string[] = [];
  for (const block of message.content) {
    if (block.type === 'text') items.push({ type: 'assistant', text: block.text, ...(incomplete ? { incomplete: true } : {}) });
    else if (block.type === 'thinking') items.push({ type: 'thinking', text: block.thinking });
    else if (block.type === 'tool_use') {
      calls.push(block.id);
      // A task call's line reads as the loop gave it live (`task explore: …`), so a reload shows the same.
      const summary =
        block.name === TASK_TOOL_NAME
          ? taskCallSummary(block.input)
          : block.name === TODO_TOOL_NAME
            ? todoCallSummary(block.input)
            : summarizeToolCall(block.name, block.input);
      items.push({ type: 'tool', callId: block.id, tool: block.name, summary, status: 'running' });
    }
  }
  return calls;
}

/** Puts a results message's answers on their tool lines in `items`; returns the tokens hygiene saved. */
export function fillResults(items: TranscriptItem[], message: UserMessage, heads: ResultHeads): number {
  let saved = 0;
  for (const block of message.content) {
    if (block.type !== 'tool_result') continue;
    const position = items.findLastIndex((i) => i.type === 'tool' && i.callId === block.tool_use_id);
    if (position === -1) continue;
    const tool = items[position] as ToolItem;
    const head = heads.find(block.tool_use_id, block.content);
    const kind: ResultKind = head ? shownKind(head, block.content) : block.is_error ? 'error' : 'full';
    const fullChars = head?.fullChars ?? block.content.length;
    const tokensSaved = tokensSavedBy(kind, fullChars, block.content.length, head?.imageTokensKeptOut);
    saved += tokensSaved;
    items[position] = {
      ...tool,
      status: 'done',
      ...(head
        ? {
            result: {
              id: head.id,
              tool: head.tool,
              bracket: head.bracket,
              text: block.content,
              kind,
              fullChars,
              tokensSaved,
              isError: block.is_error === true,
              ...outcomeField(head, kind, block.content, block.is_error === true),
            },
          }
        : {}),
    };
  }
  return saved;
}

/** Whether a user message carries tool results (rather than typed text). */
export function hasResults(message: UserMessage): boolean {
  return message.content.some((b) => b.type === 'tool_result');
}
