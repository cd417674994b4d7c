/**
 * What the user attached to a message (`@file`, `@problems`…, a pasted image), read through the ledger like the
 * model's own calls (an id, stored, capped, recallable), and the blocks that go with the user's words.
 */
import type { DecisionQueue } from '../compose/decisions';
import type { AgentEvent } from './events';
import type { LedgerResult, ToolCall } from '../ledger/types';
import type { ImageBlock, UserBlock } from '../model/types';
import { imageNotSentNote } from '../images/vision';
import type { ApprovalGateDeps } from './approvalGate';
import { ledgerDecision } from './ledgerDecision';
import {
  contextMentionBlockText,
  contextMentionCall,
  imageMentionBlockText,
  imageMentionCall,
  isContextMention,
  isImageMention,
  mentionBlockText,
  mentionReadCall,
  type Mention,
} from './mentions';

/** One attachment read: the call the transcript shows, its result, and the text that goes in the message. */
export interface Attachment {
  readonly call: ToolCall;
  readonly summary: string;
  readonly result: LedgerResult;
  readonly text: string;
}

export interface AttachmentDeps {
  readonly tools: ApprovalGateDeps['tools'];
  readonly summarizeToolCall: (tool: string, input: unknown) => string;
  /** The ledger's decisions wait here for the next request's snapshot. */
  readonly decisions: DecisionQueue;
}

/**
 * Reads each mentioned file through the ledger, as the model's `read` would (its decision queued alike); the
 * editor's context (`@problems`…) goes through it as output gathered elsewhere (an id, stored, capped).
 */
export async function readMentions(deps: AttachmentDeps, mentions: readonly Mention[], signal: AbortSignal): Promise<Attachment[]> {
  const noteDecision = (result: LedgerResult): void => {
    const decision = ledgerDecision(result);
    if (decision) deps.decisions.add(decision);
  };
  const runTag = Date.now().toString(36);
  const attached: Attachment[] = [];
  for (const [index, mention] of mentions.entries()) {
    if (isContextMention(mention)) {
      const call = contextMentionCall(mention, index, runTag);
      const result = await deps.tools.answerWithoutRunning(call, mention.text, { ok: true });
      noteDecision(result);
      attached.push({ call, summary: call.name, result, text: contextMentionBlockText(mention, result.text) });
      continue;
    }
    if (isImageMention(mention)) {
      const call = imageMentionCall(mention, index, runTag);
      const { name, prepared } = mention.image;
      const result = deps.tools.attachImage
        ? await deps.tools.attachImage(call, name, prepared)
        : await deps.tools.answerWithoutRunning(call, `${name} was not sent: this session takes no images.`);
      attached.push({ call, summary: `image ${name}`, result, text: imageMentionBlockText(result.text) });
      continue;
    }
    const call = mentionReadCall(mention, index, runTag);
    const result = await deps.tools.execute(call, { signal });
    noteDecision(result);
    attached.push({ call, summary: deps.summarizeToolCall(call.name, call.input), result, text: mentionBlockText(mention, result.text) });
  }
  return attached;
}

/**
 * The blocks of what the user attached: each one's text (its bracket first), then its image when it has one and
 * `imageFor` gives it (the model takes images), else a line saying it was not sent.
 */
export async function blocksOfAttachments(
  attached: readonly Pick<Attachment, 'result' | 'text'>[],
  imageFor: (result: LedgerResult) => Promise<ImageBlock | undefined>,
  model: string,
): Promise<UserBlock[]> {
  const blocks: UserBlock[] = [];
  for (const { result, text } of attached) {
    const image = result.image && (await imageFor(result));
    blocks.push({ type: 'text', text: result.image && !image ? `${text}\n${imageNotSentNote(model)}` : text });
    if (image) blocks.push(image);
  }
  return blocks;
}

/** Shows each attachment in the transcript as a finished call (the views draw it like the model's own). */
export function announceAttachments(attached: readonly Attachment[], emit: (event: AgentEvent) => void): void {
  for (const { call, summary, result } of attached) {
    emit({ type: 'tool_started', callId: call.callId, tool: call.name, input: call.input, summary });
    emit({ type: 'tool_finished', callId: call.callId, result });
  }
}
