import type { ModelRequest } from '../model/types';
import { canonicalBlock, canonicalRequestJson } from '../model/canonicalJson';
import { sha256Hex } from '../text/sha';

/**
 * A request's canonical encoding, computed once per composition and shared by the cache-break
 * detector, the byte counts and the message hashes: each tool definition, system block and message
 * content block as canonical JSON with its marker removed.
 */
export interface RequestEncoding {
  model: string;
  thinking: string;
  tools: string[];
  system: string[];
  messages: Array<{ role: string; blocks: string[] }>;
}

/**
 * The request settings that change how messages are processed, as one string the cache-break detector compares:
 * `thinking` alone (as before effort existed, so older snapshots compare the same), with `output_config` when set.
 */
export function requestSettingsJson(request: ModelRequest): string {
  const thinking = request.thinking ?? null;
  return canonicalRequestJson(request.output_config ? { thinking, output_config: request.output_config } : thinking);
}

export function encodeRequest(request: ModelRequest): RequestEncoding {
  return {
    model: request.model,
    thinking: requestSettingsJson(request),
    tools: request.tools.map((tool) => canonicalBlock(tool)),
    system: request.system.map((block) => canonicalBlock(block)),
    messages: request.messages.map((message) => ({
      role: message.role,
      blocks: message.content.map((block) => canonicalBlock(block)),
    })),
  };
}

/** The same string `canonicalMessage` gives (keys sorted: `content` before `role`), from encoded blocks. */
export function encodedMessage(message: { role: string; blocks: readonly string[] }): string {
  return `{"content":[${message.blocks.join(',')}],"role":${JSON.stringify(message.role)}}`;
}

/** `messageHash` from encoded blocks. */
export function encodedMessageHash(message: { role: string; blocks: readonly string[] }): string {
  return sha256Hex(encodedMessage(message)).slice(0, 8);
}
