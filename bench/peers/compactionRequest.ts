/**
 * An agent's own compaction: a request asking the model to summarise the conversation so far (opencode
 * and kilo after a "prompt is too long", Claude Code's /compact). The server answers it with a summary
 * built from the request, and it counts as a compaction, not a step of the script.
 */
import type { WireRequest } from '../../src/node/localServer/wire';

export function isCompactionRequest(request: WireRequest): boolean {
  const last = request.messages.at(-1);
  if (!last || last.role !== 'user') return false;
  const text = last.content.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : '')).join('\n');
  return /summar(y|ise|ize)/i.test(text) && /conversation/i.test(text);
}
