import * as nodeCrypto from 'node:crypto';

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/**
 * `crypto.hash` (Node 20.12+, 21.7+) hashes in one native call, about twice as fast as a Hash object on
 * the short texts the composer hashes per block; older runtimes use the Hash object.
 */
const oneShotHash: ((algorithm: string, data: Uint8Array | string, encoding: 'hex') => string) | undefined =
  typeof nodeCrypto.hash === 'function' ? nodeCrypto.hash : undefined;

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Hex(content: Uint8Array | string): string {
  return oneShotHash ? oneShotHash('sha256', content, 'hex') : nodeCrypto.createHash('sha256').update(content).digest('hex');
}

/** The short form shown in brackets; only the full hash decides whether content is unchanged. */
export function shortSha(fullHex: string, digits: number): string {
  return fullHex.slice(0, digits);
}
