/**
 * What the user attaches to a message. Files (`@src/app.ts`, `@src/app.ts:10-20` in the chat) are read through
 * the ledger like the model's own `read`: a bracket, an id and a hash, so a later read of the unchanged file is
 * a stub and `recall` finds it. The editor's context by name (`@problems`, `@terminal`, `@changes`, issue 34
 * item 14) is gathered by the editor when the message is sent and answered by the ledger like a command's
 * output: an id, stored in full, capped for the model with the id to recall. Either text goes in the user's
 * message (after what they typed), never in the cached prefix.
 */
import type { ToolCall } from '../ledger/types';
import { isImagePath, type PreparedImage } from '../images/preparedImage';

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

/** The editor's context a message can name (`@problems`…), with what each holds, as the model is told. */
export const CONTEXT_MENTIONS = {
  problems: "the workspace's problems (errors and warnings) as the editor reports them",
  terminal: "the active terminal's last command and its output",
  changes: "git's uncommitted changes: the diff against the last commit, and the untracked files",
} as const;

export type ContextMentionName = keyof typeof CONTEXT_MENTIONS;

/** The editor's context the user attached by name, as the editor read it when the message was sent. */
export interface ContextMention {
  readonly context: ContextMentionName;
  /** What the editor read (or why it could not), before the ledger's cap. */
  readonly text: string;
}

/**
 * An image the user pasted or dropped into the chat (issue 33), made ready to send by the editor. An image file
 * of the workspace is a `FileMention` instead (read through the ledger: a stub when unchanged).
 */
export interface ImageMention {
  readonly image: { readonly name: string; readonly prepared: PreparedImage };
}

export type Mention = FileMention | ContextMention | ImageMention;

export function isContextMention(mention: Mention): mention is ContextMention {
  return 'context' in mention;
}

export function isImageMention(mention: Mention): mention is ImageMention {
  return 'image' in mention;
}

/** Whether the mention sends an image (a pasted one, or a workspace image file `read` answers with). */
export function mentionSendsImage(mention: Mention): boolean {
  return isImageMention(mention) || (!isContextMention(mention) && !mention.folder && isImagePath(mention.path));
}

/** The call a pasted image is recorded under (an id, its one line stored), named for the chat's tool line. */
export function imageMentionCall(mention: ImageMention, index: number, runTag: string): ToolCall {
  return { callId: `mention_${runTag}_${index}`, name: 'image', input: { name: mention.image.name } };
}

/** The block the model reads before a pasted image: who attached it, then its one line. */
export function imageMentionBlockText(resultText: string): string {
  return `The user attached an image:\n${resultText}`;
}

/**
 * The call a context mention is answered with: not run by the ledger (the editor gathered the text), answered
 * as a result whose work was done elsewhere, so it gets an id, is stored in full and capped like any output.
 * Its name is the mention, for the chat's tool line and the result's record.
 */
export function contextMentionCall(mention: ContextMention, index: number, runTag: string): ToolCall {
  return { callId: `mention_${runTag}_${index}`, name: `@${mention.context}`, input: {} };
}

/** The block the model reads for a context mention: what was attached, then the ledger's answer (its bracket first). */
export function contextMentionBlockText(mention: ContextMention, resultText: string): string {
  return `The user attached @${mention.context} (${CONTEXT_MENTIONS[mention.context]}):\n${resultText}`;
}
