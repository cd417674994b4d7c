import type { RequestEncoding } from './requestEncoding';

interface Fingerprint extends RequestEncoding {
  generation: number;
}

/** Where a request stopped extending the previous request's cached prefix, and why. */
export interface CacheBreak {
  /** Which part differs first, in cache-key order (tools → system → messages). */
  zone: 'request' | 'tools' | 'system' | 'messages';
  /** Tool, system block or message index of the first difference (0 for `request`). */
  index: number;
  /** Block index inside the message; null outside `messages`. */
  block: number | null;
  reason: string;
}

/** A short account of where two encodings first differ. */
export function describeDifference(before: string, after: string): string {
  let at = 0;
  while (at < before.length && at < after.length && before.charCodeAt(at) === after.charCodeAt(at)) at++;
  const excerpt = (text: string): string => {
    const piece = text.slice(Math.max(0, at - 12), at + 36);
    return JSON.stringify(piece.length ? piece : '');
  };
  return `first difference at character ${at}: ${excerpt(before)} became ${excerpt(after)}`;
}

function blockLabel(encoded: string): string {
  const match = /"type":"([a-z_]+)"/.exec(encoded);
  return match?.[1] ?? 'block';
}

/**
 * Compares each request with the previous request of the same generation. The previous tools and
 * system must be byte-identical, and its messages (markers stripped) a prefix of the new ones; the
 * previous newest message may gain blocks at its end (cache keys are per block, so that still
 * reads). Anything else means the provider re-reads from the first difference at full price.
 */
export class CacheBreakDetector {
  private previous: Fingerprint | null = null;
  private breaks = 0;

  /** Breaks found so far. */
  get count(): number {
    return this.breaks;
  }

  /** Compares with the remembered request (null when none or another generation) and remembers this one. */
  observe(encoding: RequestEncoding, generation: number): CacheBreak | null {
    const next: Fingerprint = { ...encoding, generation };
    const found = this.previous && this.previous.generation === generation ? compare(this.previous, next) : null;
    if (found) this.breaks++;
    this.previous = next;
    return found;
  }

  /** Compares without remembering or counting (for a compaction request, a deliberate break). */
  peek(encoding: RequestEncoding, generation: number): CacheBreak | null {
    if (!this.previous || this.previous.generation !== generation) return null;
    return compare(this.previous, { ...encoding, generation });
  }

  /** Forgets the previous request (a new generation starts from nothing). */
  reset(): void {
    this.previous = null;
  }
}

function compare(before: Fingerprint, after: Fingerprint): CacheBreak | null {
  if (before.model !== after.model) {
    return { zone: 'request', index: 0, block: null, reason: `model changed from ${before.model} to ${after.model}` };
  }
  if (before.thinking !== after.thinking) {
    return { zone: 'request', index: 0, block: null, reason: `thinking settings changed: ${describeDifference(before.thinking, after.thinking)}` };
  }
  const tools = firstListDifference(before.tools, after.tools);
  if (tools !== null) {
    const reason = tools.removed
      ? `tool definitions changed: ${before.tools.length} before, ${after.tools.length} now`
      : `tool definition ${tools.index} changed: ${describeDifference(before.tools[tools.index] ?? '', after.tools[tools.index] ?? '')}`;
    return { zone: 'tools', index: tools.index, block: null, reason };
  }
  if (before.tools.length !== after.tools.length) {
    return { zone: 'tools', index: before.tools.length, block: null, reason: `tool definitions changed: ${before.tools.length} before, ${after.tools.length} now` };
  }
  const system = firstListDifference(before.system, after.system);
  if (system !== null || before.system.length !== after.system.length) {
    const index = system?.index ?? Math.min(before.system.length, after.system.length);
    const reason = system && !system.removed
      ? `system block ${index} changed: ${describeDifference(before.system[index] ?? '', after.system[index] ?? '')}`
      : `system part changed: ${before.system.length} blocks before, ${after.system.length} now`;
    return { zone: 'system', index, block: null, reason };
  }
  const lastBefore = before.messages.length - 1;
  for (let index = 0; index <= lastBefore; index++) {
    const old = before.messages[index];
    const now = after.messages[index];
    if (!old) continue;
    if (!now) {
      return { zone: 'messages', index, block: null, reason: `message ${index} was dropped: ${before.messages.length} messages before, ${after.messages.length} now` };
    }
    if (old.role !== now.role) {
      return { zone: 'messages', index, block: 0, reason: `message ${index} changed role from ${old.role} to ${now.role}` };
    }
    // The composer reuses a message's encoded blocks while the message is unchanged: nothing to compare.
    if (old.blocks === now.blocks) continue;
    for (let block = 0; block < old.blocks.length; block++) {
      const was = old.blocks[block] ?? '';
      const is = now.blocks[block];
      if (is === undefined) {
        return { zone: 'messages', index, block, reason: `message ${index} (${old.role}) lost block ${block} (${blockLabel(was)})` };
      }
      if (is !== was) {
        return { zone: 'messages', index, block, reason: `message ${index} (${old.role}) block ${block} (${blockLabel(was)}) changed: ${describeDifference(was, is)}` };
      }
    }
    if (index < lastBefore && now.blocks.length !== old.blocks.length) {
      return { zone: 'messages', index, block: old.blocks.length, reason: `message ${index} (${old.role}) gained blocks after it was sent: ${old.blocks.length} before, ${now.blocks.length} now` };
    }
  }
  return null;
}

function firstListDifference(before: readonly string[], after: readonly string[]): { index: number; removed: boolean } | null {
  for (let index = 0; index < before.length; index++) {
    if (index >= after.length) return { index, removed: true };
    if (before[index] !== after[index]) return { index, removed: false };
  }
  return null;
}
