/**
 * Checks a Messages API body the way the real service does where it matters to a client: the
 * required fields, roles that alternate, every `tool_use` answered by its `tool_result` in the next
 * user message (and no stray results), non-empty contents, and at most 4 `cache_control` blocks.
 * The messages are the real service's, so clients that match on them behave the same here.
 */
import { imageBlockProblem } from './imageBlocks';
import { documentedImageInput } from '../../core/images/vision';
import { invalidRequest, type ApiError } from './apiError';
import { thinkingSignature } from './thinkingSignature';
import { cacheMarkerCount, cacheTtlOf, type WireBlock, type WireMessage, type WireRequest } from './wire';

/** The service's floor for `thinking.budget_tokens`. */
const MIN_THINKING_BUDGET = 1024;

export const MAX_CACHE_BREAKPOINTS = 4;

export function validateRequest(body: unknown, options: { countTokens: boolean }): WireRequest | ApiError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return invalidRequest('request body must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.model !== 'string' || b.model === '') return invalidRequest('model: Field required');
  let maxTokens: number | undefined;
  if (!options.countTokens) {
    if (b.max_tokens === undefined) return invalidRequest('max_tokens: Field required');
    if (typeof b.max_tokens !== 'number' || !Number.isInteger(b.max_tokens) || b.max_tokens < 1) {
      return invalidRequest('max_tokens: Input should be a valid integer greater than or equal to 1');
    }
    maxTokens = b.max_tokens;
  }
  if (b.messages === undefined) return invalidRequest('messages: Field required');
  if (!Array.isArray(b.messages)) return invalidRequest('messages: Input should be a valid list');

  const system = toBlocks(b.system, 'system');
  if (typeof system === 'string') return invalidRequest(system);
  if (b.tools !== undefined && !Array.isArray(b.tools)) return invalidRequest('tools: Input should be a valid list');
  const tools: WireBlock[] = [];
  for (const [i, tool] of ((b.tools as unknown[] | undefined) ?? []).entries()) {
    const t = tool as Record<string, unknown> | null;
    if (typeof t !== 'object' || t === null || typeof t.name !== 'string') return invalidRequest(`tools.${i}.name: Field required`);
    // Client tools have no `type`; server tools do. Both are one block of the prefix.
    tools.push({ ...t, type: typeof t.type === 'string' ? t.type : 'custom' } as WireBlock);
  }

  const messages: WireMessage[] = [];
  for (const [i, raw] of (b.messages as unknown[]).entries()) {
    const m = raw as Record<string, unknown> | null;
    if (typeof m !== 'object' || m === null) return invalidRequest(`messages.${i}: Input should be a valid dictionary`);
    // Claude Code sends `system`-role messages mid-conversation (instructions the service renders in place);
    // they are kept in the prompt and stand outside the user/assistant alternation.
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system')
      return invalidRequest(`messages.${i}.role: Input should be 'user', 'assistant' or 'system'`);
    const content = toBlocks(m.content, `messages.${i}.content`);
    if (typeof content === 'string') return invalidRequest(content);
    messages.push({ role: m.role, content });
  }
  // As the service does for a model without vision: image blocks are a 400 (Cairn refuses before sending).
  if (documentedImageInput(b.model) === false && messages.some((m) => m.content.some((block) => block.type === 'image'))) {
    return invalidRequest(`${b.model} does not support image input.`);
  }
  const structural = checkConversation(messages.filter((m) => m.role !== 'system'));
  if (structural) return invalidRequest(structural);
  if (b.cache_control !== undefined && b.cache_control !== null) markLastCacheableBlock(messages, b.cache_control);

  let marked = 0;
  for (const block of [...tools, ...system, ...messages.flatMap((m) => m.content)]) marked += cacheMarkerCount(block);
  if (marked > MAX_CACHE_BREAKPOINTS) {
    return invalidRequest(`A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${marked}.`);
  }

  const order = ttlOrderProblem(tools, system, messages);
  if (order) return invalidRequest(order);
  const thinking = thinkingProblem(b.thinking, maxTokens) ?? signatureProblem(messages);
  if (thinking) return invalidRequest(thinking);

  return {
    model: b.model,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    stream: b.stream === true,
    system,
    tools,
    messages,
    messageSettings: {
      ...(b.thinking !== undefined ? { thinking: b.thinking } : {}),
      ...(b.tool_choice !== undefined ? { tool_choice: b.tool_choice } : {}),
    },
  };
}

/** The `thinking` parameter as the service checks it: a known type, and a budget of at least 1,024 below `max_tokens`. */
function thinkingProblem(thinking: unknown, maxTokens: number | undefined): string | undefined {
  if (thinking === undefined || thinking === null) return undefined;
  const t = thinking as Record<string, unknown>;
  if (typeof thinking !== 'object' || !['enabled', 'disabled', 'adaptive'].includes(String(t.type))) {
    return "thinking.type: Input should be 'enabled', 'disabled' or 'adaptive'";
  }
  if (t.type !== 'enabled') return undefined;
  if (typeof t.budget_tokens !== 'number' || !Number.isInteger(t.budget_tokens)) return 'thinking.enabled.budget_tokens: Field required';
  if (t.budget_tokens < MIN_THINKING_BUDGET) {
    return `thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_THINKING_BUDGET}`;
  }
  if (maxTokens !== undefined && maxTokens <= t.budget_tokens) {
    return '`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size';
  }
  return undefined;
}

/**
 * Every thinking block sent back must be the server's own, unmodified: its signature is checked against its text
 * (`thinkingSignature`), as the real service verifies the signatures it issued.
 */
function signatureProblem(messages: readonly WireMessage[]): string | undefined {
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of message.content.entries()) {
      if (block.type !== 'thinking') continue;
      if (
        typeof block.thinking !== 'string' ||
        typeof block.signature !== 'string' ||
        block.signature !== thinkingSignature(block.thinking)
      ) {
        return `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block`;
      }
    }
  }
  return undefined;
}

/**
 * The service refuses a one-hour breakpoint after a five-minute one, in its processing order (tools, system,
 * messages), with this message naming the late block.
 */
function ttlOrderProblem(tools: readonly WireBlock[], system: readonly WireBlock[], messages: readonly WireMessage[]): string | undefined {
  const located: [string, WireBlock][] = [
    ...tools.map((block, i): [string, WireBlock] => [`tools.${i}`, block]),
    ...system.map((block, i): [string, WireBlock] => [`system.${i}`, block]),
    ...messages.flatMap((message, i) => message.content.map((block, j): [string, WireBlock] => [`messages.${i}.content.${j}`, block])),
  ];
  let seenFiveMinutes = false;
  for (const [path, block] of located) {
    const ttl = cacheTtlOf(block);
    if (ttl === '5m') seenFiveMinutes = true;
    if (ttl === '1h' && seenFiveMinutes) {
      return `${path}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: \`tools\`, \`system\`, \`messages\`.`;
    }
  }
  return undefined;
}

/** A string content becomes one text block; returns an error message for anything else malformed. */
function toBlocks(value: unknown, field: string): WireBlock[] | string {
  if (value === undefined || value === null) return field === 'system' ? [] : `${field}: Field required`;
  if (typeof value === 'string') return value === '' && field === 'system' ? [] : [{ type: 'text', text: value }];
  if (!Array.isArray(value)) return `${field}: Input should be a valid list`;
  const blocks: WireBlock[] = [];
  for (const [i, block] of value.entries()) {
    const b = block as Record<string, unknown> | null;
    if (typeof b !== 'object' || b === null || typeof b.type !== 'string') return `${field}.${i}.type: Field required`;
    if (b.type === 'text' && typeof b.text !== 'string') return `${field}.${i}.text: Field required`;
    if (b.type === 'text' && b.text === '') return `${field}.${i}.text: text content blocks must be non-empty`;
    if (b.type === 'image') {
      const problem = imageBlockProblem(b as WireBlock, `${field}.${i}`);
      if (problem) return problem;
    }
    blocks.push(b as WireBlock);
  }
  return blocks;
}

function checkConversation(messages: readonly WireMessage[]): string | undefined {
  if (messages.length === 0) return 'messages: at least one message is required';
  if (messages[0]!.role !== 'user') return 'messages: first message must use the "user" role';
  const seenToolUseIds = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    const previous = messages[i - 1];
    if (previous && previous.role === message.role) {
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${message.role}" roles in a row`;
    }
    if (message.content.length === 0 && !(i === messages.length - 1 && message.role === 'assistant')) {
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    }
    if (message.role === 'user') {
      const expected = new Set(previous ? toolUseIds(previous) : []);
      for (const [j, block] of message.content.entries()) {
        if (block.type !== 'tool_result') continue;
        if (!expected.has(String(block.tool_use_id))) {
          return (
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. ` +
            'Each `tool_result` block must have a corresponding `tool_use` block in the previous message.'
          );
        }
      }
    } else {
      const ids = toolUseIds(message);
      for (const id of ids) {
        if (seenToolUseIds.has(id)) return `messages.${i}: \`tool_use\` ids must be unique: ${id}`;
        seenToolUseIds.add(id);
      }
      const next = messages[i + 1];
      if (ids.length === 0 || !next) continue;
      const answered = new Set(next.content.filter((block) => block.type === 'tool_result').map((block) => String(block.tool_use_id)));
      const missing = ids.filter((id) => !answered.has(id));
      if (missing.length > 0) {
        return (
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. ` +
          'Each `tool_use` block must have a corresponding `tool_result` block in the next message.'
        );
      }
    }
  }
  return undefined;
}

function toolUseIds(message: WireMessage): string[] {
  return message.content.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
}

/**
 * A top-level `cache_control` (automatic caching) puts a marker on the last cacheable block of the
 * request, unless that block has one; it uses one of the 4 breakpoints like any other.
 */
function markLastCacheableBlock(messages: WireMessage[], control: unknown): void {
  for (let m = messages.length - 1; m >= 0; m--) {
    const content = messages[m]!.content;
    for (let i = content.length - 1; i >= 0; i--) {
      const block = content[i]!;
      if (block.type === 'thinking' || block.type === 'redacted_thinking') continue;
      if (block.cache_control === undefined || block.cache_control === null) {
        const marked = [...content];
        marked[i] = { ...block, cache_control: control };
        messages[m] = { ...messages[m]!, content: marked };
      }
      return;
    }
  }
}
