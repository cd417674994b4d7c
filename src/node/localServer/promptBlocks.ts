/**
 * A request as the prompt cache sees it: one flat list of blocks in prefix order — tools, then
 * system, then messages — each with its token count and the hash of the whole prefix up to and
 * including it.
 *
 * Canonical form (what the prefix hash covers): each block as JSON with its top-level keys sorted
 * and **every `cache_control` removed** — the marker says where a key is written, it is not content,
 * so moving a breakpoint forward still reads the earlier prefix. A tool's `input` and a tool
 * definition's `input_schema` keep their key order as sent, because the real service renders them
 * into the prompt as given (unstable key order breaks the real cache too). Each message block also
 * carries its role and message number, so the same blocks split into other messages differ. The
 * chain is seeded with the model (caches are per model), and the messages section with `thinking`
 * and `tool_choice` (changing those invalidates cached messages but not tools or system).
 *
 * Token rendering (what is counted): a text block its text; a tool definition its name,
 * description and schema JSON; a tool_use its name and input JSON; a tool_result its text (text
 * blocks joined by newlines); thinking its text; an image by the provider's rule (`imageBlocks.ts`); anything else
 * its canonical JSON. Each message
 * adds MESSAGE_FRAMING tokens for its role header. The absolute numbers differ from the real
 * service's by a few percent; what they must get right is which tokens are cached, written, or not.
 */
import { createHash } from 'node:crypto';
import { imageBlockTokens } from './imageBlocks';
import { type TokenCounter } from './tokenCounter';
import { cacheTtlOf, type CacheTtl, type WireBlock, type WireRequest } from './wire';

export const MESSAGE_FRAMING = 3;

export interface PromptBlock {
  readonly section: 'tools' | 'system' | 'messages';
  readonly tokens: number;
  /** sha256 over the canonical prefix ending with this block. */
  readonly prefixHash: string;
  /** Set when the block carries `cache_control`. */
  readonly breakpoint?: CacheTtl;
}

export function promptBlocks(request: WireRequest, counter: TokenCounter): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  let chain = sha256(JSON.stringify(['model', request.model]));
  const push = (section: PromptBlock['section'], canonical: string, tokens: number, block: WireBlock): void => {
    chain = sha256(chain + canonical);
    const breakpoint = cacheTtlOf(block);
    blocks.push({ section, tokens, prefixHash: chain, ...(breakpoint ? { breakpoint } : {}) });
  };
  for (const tool of request.tools) {
    push('tools', JSON.stringify(['tool', canonicalBlock(tool)]), counter.count(renderTool(tool)), tool);
  }
  for (const block of request.system) {
    push('system', JSON.stringify(['system', canonicalBlock(block)]), counter.count(renderBlock(block)), block);
  }
  chain = sha256(chain + JSON.stringify(['messages', sortedJson(request.messageSettings)]));
  request.messages.forEach((message, m) => {
    message.content.forEach((block, i) => {
      const content = block.type === 'image' ? imageBlockTokens(block) : counter.count(renderBlock(block));
      const tokens = content + (i === 0 ? MESSAGE_FRAMING : 0);
      push('messages', JSON.stringify([message.role, m, canonicalBlock(block)]), tokens, block);
    });
  });
  return blocks;
}

export function totalTokens(blocks: readonly PromptBlock[]): number {
  let total = 0;
  for (const block of blocks) total += block.tokens;
  return total;
}

/** The block as hashed: top-level keys sorted, `cache_control` removed everywhere. */
export function canonicalBlock(block: WireBlock): string {
  return sortedJson(block);
}

function sortedJson(value: unknown): string {
  return JSON.stringify(normalise(value, ''));
}

function normalise(value: unknown, key: string): unknown {
  // input and input_schema are rendered as sent, key order included.
  if (key === 'input' || key === 'input_schema') return value;
  if (Array.isArray(value)) return value.map((item) => normalise(item, ''));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) {
    if (k === 'cache_control') continue;
    out[k] = normalise((value as Record<string, unknown>)[k], k);
  }
  return out;
}

function stripCacheControl(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripCacheControl);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== 'cache_control') out[k] = stripCacheControl(v);
  return out;
}

function renderTool(tool: WireBlock): string {
  // A deferred tool is not rendered into the prompt until a tool search loads it.
  if (tool.defer_loading === true) return '';
  return `${String(tool.name ?? '')}\n${String(tool.description ?? '')}\n${JSON.stringify(tool.input_schema ?? {})}`;
}

export function renderBlock(block: WireBlock): string {
  switch (block.type) {
    case 'text':
      return String(block.text ?? '');
    case 'thinking':
      return String(block.thinking ?? '');
    case 'tool_use':
      return `${String(block.name ?? '')}${JSON.stringify(block.input ?? {})}`;
    case 'tool_result':
      return toolResultText(block.content);
    default:
      return canonicalBlock(block);
  }
}

export function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      const p = part as { type?: unknown; text?: unknown };
      return p?.type === 'text' && typeof p.text === 'string' ? p.text : JSON.stringify(stripCacheControl(part));
    })
    .join('\n');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
