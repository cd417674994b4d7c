import { createHash } from 'node:crypto';

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Lowercase hex SHA-256 of bytes, or of a string's UTF-8 encoding. */
export function sha256Hex(content: Uint8Array | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/** The short form shown in brackets; only the full hash decides whether content is unchanged. */
export function shortSha(fullHex: string, digits: number): string {
  return fullHex.slice(0, digits);
}
