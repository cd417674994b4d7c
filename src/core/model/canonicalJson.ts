/**
 * The canonical JSON of a request's parts (a block, a tool definition, a tool call's input, the
 * thinking setting), in which the composer measures bytes, hashes and cache breaks: object keys sorted by UTF-16 code unit order, no whitespace, `undefined` members
 * dropped, everything else exactly as `JSON.stringify` writes it. A request body parsed back from
 * the wire encodes to the same string as the object it was serialised from, whatever key order the
 * sender used, so hashes and byte counts reproduce from logged bodies.
 */
export function canonicalRequestJson(value: unknown): string {
  const flat = flatObjectJson(value);
  if (flat !== null) return flat;
  // The native serialiser with a key-sorting replacer is several times faster than a recursive
  // encoder on large conversations, and writes every value exactly as JSON.stringify does.
  return JSON.stringify(value, sortKeys) ?? 'null';
}

/**
 * Canonical JSON of a plain object whose members are all strings, finite or not numbers, booleans
 * or null (a text block, a tool result with text content), written directly: each member is one
 * native `JSON.stringify` of a primitive, without the replacer's call per member and sorted copy.
 * null for anything else.
 */
function flatObjectJson(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return null;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    // Index-like keys (which a rebuilt object puts first) and an own `__proto__` take the replacer's path, byte for byte.
    const first = key.charCodeAt(0);
    if ((first >= 48 && first <= 57) || key === '__proto__') return null;
    const member = record[key];
    const kind = typeof member;
    if (member === undefined) continue;
    if (member !== null && kind !== 'string' && kind !== 'number' && kind !== 'boolean') return null;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(key)}:${JSON.stringify(member)}`;
  }
  return `${out}}`;
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const record = value as Record<string, unknown>;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) sorted[key] = record[key];
  return sorted;
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
  return canonicalRequestJson(withoutMarker(value));
}

/** Canonical JSON of a message (`{"content":[...],"role":"..."}`), block markers removed. */
export function canonicalMessage(message: { role: string; content: readonly object[] }): string {
  return canonicalRequestJson(messageWithoutMarkers(message));
}
