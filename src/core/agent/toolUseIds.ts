/**
 * Tool-use ids come from the model and are untrusted. The loop, the journal and the chat pair a call with
 * its approval and its result by this id, so two calls sharing one would be confused: the chat once
 * attached the approval buttons of a second call (`rm -rf ~`) to the first call's line (`ls build`) and
 * left the second "running" forever. The API also refuses a request whose messages repeat a tool_use id.
 *
 * Decision: before a response is stored, a tool_use whose id repeats one earlier in the same response, or
 * one already used in this conversation, gets a fresh id (the original plus `_dup` and a number), and is
 * answered with an error without running. Its block stays in the assistant message (so the model sees its
 * own call and the refusal paired with it, and the next request holds exactly one tool_result per
 * tool_use id); only its id changes. The message was never sent, so this rewrites nothing the prompt cache
 * holds. Dropping the block instead would hide from the model why the call did not run.
 */
import type { AssistantBlock, Message, ToolUseBlock } from '../model/types';

export interface UniqueToolUses {
  /** The content with every tool_use id unique. */
  readonly content: AssistantBlock[];
  /** Fresh id -> the id the model gave, for each call that repeated an id (never run). */
  readonly duplicates: ReadonlyMap<string, string>;
}

/** Every tool_use id in the given messages. */
export function toolUseIdsIn(messages: readonly Message[]): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const block of message.content) if (block.type === 'tool_use') ids.add(block.id);
  }
  return ids;
}

/** Renames repeated tool_use ids (see the module comment); `used` holds the ids already taken and is updated. */
export function uniqueToolUseIds(content: readonly AssistantBlock[], used: Set<string>): UniqueToolUses {
  const duplicates = new Map<string, string>();
  const out = content.map((block): AssistantBlock => {
    if (block.type !== 'tool_use') return block;
    if (!used.has(block.id)) {
      used.add(block.id);
      return block;
    }
    let n = 1;
    // Ids must match ^[a-zA-Z0-9_-]+$ for the API; a hostile id is replaced whole when it does not.
    const base = /^[a-zA-Z0-9_-]{1,64}$/.test(block.id) ? block.id : 'toolu_invalid';
    while (used.has(`${base}_dup${n}`)) n++;
    const id = `${base}_dup${n}`;
    used.add(id);
    duplicates.set(id, block.id);
    const renamed: ToolUseBlock = { ...block, id };
    return renamed;
  });
  return { content: out, duplicates };
}

/** What the model is told for a call that reused an id. */
export function duplicateIdMessage(originalId: string): string {
  return `Not run: this call reused the tool_use id "${originalId}" of another call, so Cairn could not tell the two apart. Make the call again if it is still needed.`;
}
