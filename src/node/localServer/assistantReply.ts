/**
 * The assistant message the server answers with: built from the scripted turn (or a summary), with
 * `{result:K}` resolved, deterministic tool-use ids, output tokens counted, and cut at `max_tokens`
 * the way the real service stops.
 */
import type { PlannedAnswer } from '../scenario/requestPlan';
import { substituteResultRefs, type ToolResultIds } from '../scenario/resultRefs';
import type { ScriptedStopReason } from '../scenario/types';
import { renderBlock, toolResultText } from './promptBlocks';
import { thinkingSignature } from './thinkingSignature';
import type { TokenCounter } from './tokenCounter';
import type { WireRequest } from './wire';

export type ReplyBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown };

export interface AssistantReply {
  readonly content: ReplyBlock[];
  readonly stopReason: ScriptedStopReason;
  readonly outputTokens: number;
}

export interface ReplyContext {
  readonly request: WireRequest;
  readonly counter: TokenCounter;
  readonly resultIds: ToolResultIds;
  readonly nextToolUseId: () => string;
  readonly notice: (message: string) => void;
}

export function buildReply(answer: PlannedAnswer, context: ReplyContext): AssistantReply {
  const blocks: ReplyBlock[] = [];
  let stopReason: ScriptedStopReason = 'end_turn';
  switch (answer.type) {
    case 'assistant': {
      const turn = answer.turn;
      if (turn.thinking) blocks.push({ type: 'thinking', thinking: turn.thinking, signature: thinkingSignature(turn.thinking) });
      const resolve = (value: unknown, where: string): unknown =>
        substituteResultRefs(value, context.resultIds, (reference) =>
          context.notice(
            `turn ${turn.index}: ${reference} in ${where} names no tool result seen so far (${context.resultIds.all.length} seen)`,
          ),
        );
      // Texts may name results too ("as #a3f2 shows"), the way a model would.
      if (turn.text) blocks.push({ type: 'text', text: resolve(turn.text, 'the text') as string });
      for (const call of turn.toolCalls) {
        const input = resolve(call.input, `a ${call.name} call`);
        blocks.push({ type: 'tool_use', id: call.id ?? context.nextToolUseId(), name: call.name, input });
      }
      stopReason = turn.stopReason ?? (turn.toolCalls.length > 0 ? 'tool_use' : 'end_turn');
      break;
    }
    case 'summary':
      if (answer.text !== '') blocks.push({ type: 'text', text: answer.text });
      break;
    case 'generated_summary':
      blocks.push({ type: 'text', text: generatedSummary(context.request) });
      break;
    case 'no_turn':
      blocks.push({ type: 'text', text: answer.text });
      break;
  }
  return limitToMaxTokens(blocks, stopReason, context);
}

/** The real service stops mid-block at max_tokens; so does this, on whole characters. */
function limitToMaxTokens(blocks: ReplyBlock[], stopReason: ScriptedStopReason, context: ReplyContext): AssistantReply {
  const costs = blocks.map((block) => context.counter.count(renderBlock(block)));
  const total = costs.reduce((a, b) => a + b, 0);
  const limit = context.request.maxTokens;
  if (limit === undefined || total <= limit) return { content: blocks, stopReason, outputTokens: total };
  const kept: ReplyBlock[] = [];
  let used = 0;
  for (const [i, block] of blocks.entries()) {
    const cost = costs[i]!;
    if (used + cost <= limit) {
      kept.push(block);
      used += cost;
      continue;
    }
    const room = limit - used;
    // A tool call cut part-way is not usable; text and thinking keep their share of characters.
    if (room > 0 && block.type === 'text')
      kept.push({ ...block, text: block.text.slice(0, Math.floor((block.text.length * room) / cost)) });
    if (room > 0 && block.type === 'thinking') {
      const thinking = block.thinking.slice(0, Math.floor((block.thinking.length * room) / cost));
      kept.push({ ...block, thinking, signature: thinkingSignature(thinking) });
    }
    used = limit;
    break;
  }
  return { content: kept.filter((b) => b.type !== 'text' || b.text !== ''), stopReason: 'max_tokens', outputTokens: used };
}

/**
 * A summary when the script has none (so automatic compactions work unscripted): deterministic,
 * built from what the request holds.
 */
export function generatedSummary(request: WireRequest): string {
  const userTexts: string[] = [];
  const resultIds: string[] = [];
  let toolCalls = 0;
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'tool_use') toolCalls++;
      if (block.type === 'tool_result') {
        const id = /^\[(#[0-9a-f]+)/.exec(toolResultText(block.content))?.[1];
        if (id) resultIds.push(id);
      }
      if (message.role === 'user' && block.type === 'text' && typeof block.text === 'string') userTexts.push(block.text);
    }
  }
  const clip = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}…` : text);
  const lines = [
    'Summary of the conversation so far (written by the local server: the script had no summary here).',
    '',
    `- ${request.messages.length} messages, ${toolCalls} tool calls.`,
  ];
  if (userTexts.length > 0) lines.push(`- The first request was: ${clip(userTexts[0]!)}`);
  if (userTexts.length > 1) lines.push(`- The latest message from the user: ${clip(userTexts[userTexts.length - 1]!)}`);
  if (resultIds.length > 0) lines.push(`- Tool results seen: ${resultIds.join(', ')}.`);
  return lines.join('\n');
}
