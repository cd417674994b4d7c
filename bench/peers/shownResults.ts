// What a peer's request shows of earlier tool results, and which of them a scripted recall means:
// the same for every peer, whatever its tool names (each translation decides how to show it again).
import { toolResultText } from '../../src/node/localServer/promptBlocks';
import type { WireRequest } from '../../src/node/localServer/wire';

type Input = Record<string, unknown>;

export interface ShownResult {
  readonly toolName: string;
  readonly input: Input;
  readonly text: string;
}

/** Every tool result of a request in order, with the call it answers. */
export function shownResults(request: WireRequest): ShownResult[] {
  const calls = new Map<string, { name: string; input: Input }>();
  const out: ShownResult[] = [];
  for (const message of request.messages) {
    for (const block of message.content) {
      if (block.type === 'tool_use') calls.set(String(block.id), { name: String(block.name), input: (block.input ?? {}) as Input });
      if (block.type === 'tool_result') {
        const call = calls.get(String(block.tool_use_id));
        out.push({ toolName: call?.name ?? '', input: call?.input ?? {}, text: toolResultText(block.content) });
      }
    }
  }
  return out;
}

/**
 * A scripted recall of the K-th result (`{result:K}`, negative from the end) and the lines it asks for
 * (Cairn's recall defaults: from line 1, 2000 lines).
 */
export function recallTarget(input: Input, request: WireRequest): { target: ShownResult | undefined; offset: number; limit: number } {
  const k = Number(/\{result:(-?\d+)\}/.exec(String(input.id))?.[1] ?? NaN);
  const results = shownResults(request);
  const target = k > 0 ? results[k - 1] : results[results.length + k];
  const offset = typeof input.offset === 'number' ? input.offset : 1;
  const limit = typeof input.limit === 'number' ? input.limit : 2000;
  return { target, offset, limit };
}
