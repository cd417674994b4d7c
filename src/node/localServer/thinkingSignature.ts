import { createHash } from 'node:crypto';

/**
 * The signature the local server gives a thinking block, and checks when the block comes back: a digest of its text,
 * so a block changed by a byte (or moved to another text) is refused, as the real service refuses a block it did not issue.
 */
export function thinkingSignature(thinking: string): string {
  return createHash('sha256').update(`cairn-local-signature:${thinking}`).digest('base64');
}
