import { sha256Hex } from '../text/sha';
import type { Message } from '../model/types';
import { canonicalMessage } from '../model/canonicalJson';

/**
 * A message's hash in a snapshot: the first 4 bytes of SHA-256, as 8 lowercase hex digits, over the
 * UTF-8 bytes of the message's canonical JSON (`{"content":[...],"role":"..."}`: keys sorted, no
 * whitespace, the `cache_control` member of each content block removed; see `model/canonicalJson.ts`).
 *
 * To reproduce it from a logged request body: `JSON.parse` the body, take `messages[i]`, delete
 * `cache_control` from each element of its `content`, encode with sorted keys and no whitespace
 * (what `JSON.stringify` writes for each value), SHA-256 the UTF-8 bytes, keep 8 hex digits.
 * Because markers are stripped, a breakpoint moving forward does not change an earlier hash.
 */
export function messageHash(message: Message): string {
  return sha256Hex(canonicalMessage(message)).slice(0, 8);
}
