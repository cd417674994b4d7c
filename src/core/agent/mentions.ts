/**
 * Files the user attaches to a message (`@src/app.ts`, `@src/app.ts:10-20` in the chat). Each is read
 * through the ledger like the model's own `read`: it gets a bracket, an id and a hash, so a later read
 * of the unchanged file is a stub and `recall` finds it. The text goes in the user's message (after what
 * they typed), never in the cached prefix.
 */
import type { ToolCall } from '../ledger/types';

export interface FileMention {
  /** Workspace-relative, as the tools take it. */
  readonly path: string;
  /** 1-based, inclusive; absent: the file's first window. */
  readonly lines?: { readonly from: number; readonly to: number };
  /** A folder (`@src/`): its listing is attached, through the ledger like the model's `list`. */
  readonly folder?: boolean;
}

/** The `read` call a mention is answered with (its call id is only for the chat's tool line). */
export function mentionReadCall(mention: FileMention, index: number, runTag: string): ToolCall {
  if (mention.folder) return { callId: `mention_${runTag}_${index}`, name: 'list', input: { path: mention.path } };
  const input = mention.lines
    ? { path: mention.path, offset: mention.lines.from, limit: Math.max(1, mention.lines.to - mention.lines.from + 1) }
    : { path: mention.path };
  return { callId: `mention_${runTag}_${index}`, name: 'read', input };
}

/** The block the model reads: who attached it, then the result as the ledger rendered it (bracket first). */
export function mentionBlockText(mention: FileMention, resultText: string): string {
  if (mention.folder) return `The user attached the folder @${mention.path} (its listing):\n${resultText}`;
  const range = mention.lines ? `:${mention.lines.from}-${mention.lines.to}` : '';
  return `The user attached @${mention.path}${range}:\n${resultText}`;
}
