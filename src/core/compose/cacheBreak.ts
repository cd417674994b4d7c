import type { RequestEncoding } from './requestEncoding';

interface Fingerprint extends RequestEncoding {
  generation: number;
  /** What each system block is (`preamble`, `rules AGENTS.md`, …), when the caller knows. */
  systemLabels: readonly string[];
}

/** Where a request stopped extending the previous request's cached prefix, and why. */
export interface CacheBreak {
  /** Which part differs first, in cache-key order (tools → system → messages). */
  zone: 'request' | 'tools' | 'system' | 'messages';
  /** Tool, system block or message index of the first difference (0 for `request`). */
  index: number;
  /** Block index inside the message; null outside `messages`. */
  block: number | null;
  /**
   * Which part changed, for people: `tools: the description of \`bash\` changed`, `system block 2
   * (rules AGENTS.md) changed`, `message 4 (user) block 0 (tool_result) changed`. Absent in snapshots
   * journalled before it existed: `cacheBreakWhere` derives it from the other fields.
   */
  where?: string;
  /** `where` and the evidence (the first differing characters, counts). */
  reason: string;
}

/** The zone and part a break names (`where`, or for an older snapshot, derived from zone/index/block). */
export function cacheBreakWhere(found: Pick<CacheBreak, 'zone' | 'index' | 'block' | 'where'>): string {
  if (found.where) return found.where;
  switch (found.zone) {
    case 'request':
      return 'request settings (model or thinking) changed';
    case 'tools':
      return `tools: tool definition ${found.index} changed`;
    case 'system':
      return `system block ${found.index} changed`;
    case 'messages':
      return found.block === null ? `message ${found.index} changed` : `message ${found.index} block ${found.block} changed`;
  }
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
  observe(encoding: RequestEncoding, generation: number, systemLabels: readonly string[] = []): CacheBreak | null {
    const next: Fingerprint = { ...encoding, generation, systemLabels };
    const found = this.previous && this.previous.generation === generation ? compare(this.previous, next) : null;
    if (found) this.breaks++;
    this.previous = next;
    return found;
  }

  /** Compares without remembering or counting (for a compaction request, a deliberate break). */
  peek(encoding: RequestEncoding, generation: number, systemLabels: readonly string[] = []): CacheBreak | null {
    if (!this.previous || this.previous.generation !== generation) return null;
    return compare(this.previous, { ...encoding, generation, systemLabels });
  }

  /** Forgets the previous request (a new generation starts from nothing). */
  reset(): void {
    this.previous = null;
  }

  /** The request remembered, to return to it (an undone compaction goes back to its generation's last request). */
  remembered(): RememberedRequest {
    return { fingerprint: this.previous };
  }

  rememberAgain(request: RememberedRequest): void {
    this.previous = request.fingerprint;
  }
}

/** A detector's remembered request, opaque to its holder. */
export interface RememberedRequest {
  readonly fingerprint: Fingerprint | null;
}

function compare(before: Fingerprint, after: Fingerprint): CacheBreak | null {
  if (before.model !== after.model) {
    return found('request', 0, null, 'the model changed', `from ${before.model} to ${after.model}`);
  }
  if (before.thinking !== after.thinking) {
    return found(
      'request',
      0,
      null,
      'the thinking settings (thinking, effort) changed',
      describeDifference(before.thinking, after.thinking),
    );
  }
  const tools = compareTools(before.tools, after.tools);
  if (tools) return tools;
  const system = firstListDifference(before.system, after.system);
  if (system !== null || before.system.length !== after.system.length) {
    const index = system?.index ?? Math.min(before.system.length, after.system.length);
    const label = after.systemLabels[index] ?? before.systemLabels[index];
    const named = `system block ${index}${label ? ` (${label})` : ''}`;
    if (system && !system.removed) {
      return found('system', index, null, `${named} changed`, describeDifference(before.system[index] ?? '', after.system[index] ?? ''));
    }
    const what = before.system.length > after.system.length ? `${named} removed` : `${named} added`;
    return found(
      'system',
      index,
      null,
      `system part changed: ${what}`,
      `${before.system.length} blocks before, ${after.system.length} now`,
    );
  }
  const lastBefore = before.messages.length - 1;
  for (let index = 0; index <= lastBefore; index++) {
    const old = before.messages[index];
    const now = after.messages[index];
    if (!old) continue;
    if (!now) {
      return found(
        'messages',
        index,
        null,
        `message ${index} (${old.role}) was dropped`,
        `${before.messages.length} messages before, ${after.messages.length} now`,
      );
    }
    if (old.role !== now.role) {
      return found('messages', index, 0, `message ${index} changed role`, `from ${old.role} to ${now.role}`);
    }
    // The composer reuses a message's encoded blocks while the message is unchanged: nothing to compare.
    if (old.blocks === now.blocks) continue;
    for (let block = 0; block < old.blocks.length; block++) {
      const was = old.blocks[block] ?? '';
      const is = now.blocks[block];
      if (is === undefined) {
        return found(
          'messages',
          index,
          block,
          `message ${index} (${old.role}) lost block ${block} (${blockLabel(was)})`,
          `${old.blocks.length} blocks before, ${now.blocks.length} now`,
        );
      }
      if (is !== was) {
        return found(
          'messages',
          index,
          block,
          `message ${index} (${old.role}) block ${block} (${blockLabel(was)}) changed`,
          describeDifference(was, is),
        );
      }
    }
    if (index < lastBefore && now.blocks.length !== old.blocks.length) {
      return found(
        'messages',
        index,
        old.blocks.length,
        `message ${index} (${old.role}) gained blocks after it was sent`,
        `${old.blocks.length} before, ${now.blocks.length} now`,
      );
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

function found(zone: CacheBreak['zone'], index: number, block: number | null, where: string, evidence: string): CacheBreak {
  return { zone, index, block, where, reason: `${where}: ${evidence}` };
}

interface ToolFields {
  name: string;
  fields: Map<string, string>;
}

/** A tool definition's name and each top-level field's encoding; null when the encoding is not an object with a name. */
function toolFields(encoded: string): ToolFields | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(encoded);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const record = parsed as Record<string, unknown>;
  if (typeof record.name !== 'string') return null;
  const fields = new Map<string, string>();
  for (const [key, value] of Object.entries(record)) fields.set(key, JSON.stringify(value));
  return { name: record.name, fields };
}

const FIELD_NAMES: Readonly<Record<string, string>> = { description: 'description', input_schema: 'input schema' };

/**
 * Tools compared by name: which were added or removed, and for each kept tool which fields changed
 * (a peer changing one tool's description mid-session breaks the whole cache; the report must say
 * which). Falls back to positions when a definition has no name.
 */
function compareTools(before: readonly string[], after: readonly string[]): CacheBreak | null {
  const first = firstListDifference(before, after);
  if (first === null && before.length === after.length) return null;
  const index = first?.index ?? before.length;
  const parsedBefore = before.map(toolFields);
  const parsedAfter = after.map(toolFields);
  const counts = `${before.length} tool definitions before, ${after.length} now`;
  if (parsedBefore.some((t) => t === null) || parsedAfter.some((t) => t === null)) {
    const evidence = first && !first.removed ? describeDifference(before[index] ?? '', after[index] ?? '') : counts;
    return found('tools', index, null, `tools: tool definition ${index} changed`, evidence);
  }
  const was = new Map((parsedBefore as ToolFields[]).map((t) => [t.name, t]));
  const now = new Map((parsedAfter as ToolFields[]).map((t) => [t.name, t]));
  const changes: string[] = [];
  let evidence = '';
  for (const tool of parsedAfter as ToolFields[]) {
    const old = was.get(tool.name);
    if (!old) {
      changes.push(`\`${tool.name}\` added`);
      continue;
    }
    const keys = [...new Set([...old.fields.keys(), ...tool.fields.keys()])].sort();
    for (const key of keys) {
      const a = old.fields.get(key);
      const b = tool.fields.get(key);
      if (a === b) continue;
      const field = FIELD_NAMES[key] ?? `\`${key}\``;
      changes.push(
        a === undefined
          ? `the ${field} of \`${tool.name}\` was added`
          : b === undefined
            ? `the ${field} of \`${tool.name}\` was removed`
            : `the ${field} of \`${tool.name}\` changed`,
      );
      if (!evidence && a !== undefined && b !== undefined) evidence = describeDifference(a, b);
    }
  }
  for (const tool of parsedBefore as ToolFields[]) if (!now.has(tool.name)) changes.push(`\`${tool.name}\` removed`);
  // Same definitions in another order: the prefix differs all the same.
  if (changes.length === 0) changes.push('the tools are in another order');
  return found('tools', index, null, `tools: ${changes.join('; ')}`, evidence || counts);
}
