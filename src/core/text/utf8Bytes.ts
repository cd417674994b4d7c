const encoder = new TextEncoder();

/** UTF-8 length of a string. */
export function utf8Bytes(text: string): number {
  // Buffer.byteLength avoids materialising the bytes; fall back for non-Node runtimes.
  return typeof Buffer !== 'undefined' ? Buffer.byteLength(text, 'utf8') : encoder.encode(text).length;
}
