/**
 * Canonical JSON: object keys sorted by UTF-16 code unit order, no whitespace, `undefined` members
 * dropped, everything else exactly as `JSON.stringify` writes it. A request body parsed back from
 * the wire encodes to the same string as the object it was serialised from, whatever key order the
 * sender used, so hashes and byte counts reproduce from logged bodies.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    const encoded = JSON.stringify(value);
    // JSON.stringify(undefined) is undefined: only reachable for a top-level undefined.
    return encoded === undefined ? 'null' : encoded;
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  }
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const member = record[key];
    if (member === undefined || typeof member === 'function') continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(member)}`);
  }
  return `{${parts.join(',')}}`;
}

/**
 * A copy of a content block, system block or tool definition without its own `cache_control`
 * member (members inside, such as a tool call's input, are content and stay). The prompt cache (the
 * real API's and the local server's) keys on content with the markers stripped, so moving a marker
 * changes no cached prefix; hashes and the cache-break detector compare content the same way.
 */
export function withoutMarker<T extends object>(value: T): T {
  const { cache_control: _marker, ...rest } = value as T & { cache_control?: unknown };
  return rest as T;
}

/** A message with the marker of each of its content blocks removed. */
export function messageWithoutMarkers<M extends { role: string; content: readonly object[] }>(message: M): M {
  return { ...message, content: message.content.map((block) => withoutMarker(block)) };
}

/** Canonical JSON of a block, system block or tool definition, its marker removed. */
export function canonicalBlock(value: object): string {
  return canonicalJson(withoutMarker(value));
}

/** Canonical JSON of a message (`{"content":[...],"role":"..."}`), block markers removed. */
export function canonicalMessage(message: { role: string; content: readonly object[] }): string {
  return canonicalJson(messageWithoutMarkers(message));
}

const encoder = new TextEncoder();

/** UTF-8 length of a string. */
export function utf8Bytes(text: string): number {
  // Buffer.byteLength avoids materialising the bytes; fall back for non-Node runtimes.
  return typeof Buffer !== 'undefined' ? Buffer.byteLength(text, 'utf8') : encoder.encode(text).length;
}
