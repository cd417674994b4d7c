import type { Decision } from './decisions';

/** How much a pack matters: required packs are always sent; the others by priority while the budget lasts. */
export type PackPriority = 'required' | 'high' | 'medium' | 'low';

/** One optional (or required) source of context, in two sizes (seed 004, "Context packs and budgeting"). */
export interface Pack {
  /** Stable name, shown in the report: `skills catalog`, `active file`, `todo`. */
  readonly label: string;
  readonly priority: PackPriority;
  readonly full: string;
  /** A shorter text saying the same in less (names only, a count); none: the pack is full or nothing. */
  readonly compact?: string;
}

export type PackVariant = 'full' | 'compact' | 'skipped' | 'truncated';

/** What the builder chose for one pack: the snapshot's and the report's row. */
export interface PackChoice {
  readonly label: string;
  readonly priority: PackPriority;
  readonly variant: PackVariant;
  /** Estimated tokens of what is sent (0 when skipped). */
  readonly tokens: number;
  /** Estimated tokens of the full text, before any choice. */
  readonly fullTokens: number;
  /** What is sent ('' when skipped). */
  readonly text: string;
}

export interface PackBudget {
  /** Tokens the optional packs may take together (required packs count against it but are never dropped for it). */
  readonly tokens: number;
  /** The defensive last guard on the characters of everything chosen (seed 004: 500,000). */
  readonly maxChars?: number;
}

export const DEFAULT_MAX_PACK_CHARS = 500_000;

const ORDER: Record<PackPriority, number> = { required: 0, high: 1, medium: 2, low: 3 };

/** Seed 004's estimate: characters / 4, rounded up. Cheap and the same everywhere a pack is measured. */
export function packTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * Selects packs under a budget (seed 004): required packs first, then by priority (stable within a
 * priority), each full if it fits, else compact if it fits, else skipped. Then the max-characters
 * guard: optional packs are compacted, then dropped (lowest priority first), and only then are
 * required packs truncated, with a marker saying so. Returns the choices in the packs' input order.
 */
export function selectPacks(packs: readonly Pack[], budget: PackBudget): PackChoice[] {
  const maxChars = budget.maxChars ?? DEFAULT_MAX_PACK_CHARS;
  const order = packs
    .map((pack, index) => ({ pack, index }))
    .sort((a, b) => ORDER[a.pack.priority] - ORDER[b.pack.priority] || a.index - b.index);
  const chosen: Array<{ pack: Pack; variant: PackVariant; text: string } | undefined> = new Array(packs.length);
  let used = 0;
  for (const { pack, index } of order) {
    if (pack.full.length === 0) {
      chosen[index] = { pack, variant: 'skipped', text: '' };
      continue;
    }
    if (pack.priority === 'required') {
      chosen[index] = { pack, variant: 'full', text: pack.full };
      used += packTokens(pack.full);
    } else if (used + packTokens(pack.full) <= budget.tokens) {
      chosen[index] = { pack, variant: 'full', text: pack.full };
      used += packTokens(pack.full);
    } else if (pack.compact !== undefined && pack.compact.length > 0 && used + packTokens(pack.compact) <= budget.tokens) {
      chosen[index] = { pack, variant: 'compact', text: pack.compact };
      used += packTokens(pack.compact);
    } else {
      chosen[index] = { pack, variant: 'skipped', text: '' };
    }
  }
  const total = (): number => chosen.reduce((sum, c) => sum + (c?.text.length ?? 0), 0);
  // The guard, least important first: compact the optional packs, then drop them, then cut the required ones.
  const byLeastImportant = [...order].reverse();
  for (const { pack, index } of byLeastImportant) {
    if (total() <= maxChars) break;
    const current = chosen[index]!;
    if (pack.priority === 'required' || current.variant !== 'full' || pack.compact === undefined || pack.compact.length === 0) continue;
    chosen[index] = { pack, variant: 'compact', text: pack.compact };
  }
  for (const { pack, index } of byLeastImportant) {
    if (total() <= maxChars) break;
    if (pack.priority === 'required') continue;
    chosen[index] = { pack, variant: 'skipped', text: '' };
  }
  for (const { pack, index } of byLeastImportant) {
    const excess = total() - maxChars;
    if (excess <= 0) break;
    const current = chosen[index]!;
    if (current.text.length === 0) continue;
    const marker = `\n[truncated: ${pack.label} exceeded the ${maxChars}-character context guard]`;
    const keep = Math.max(0, current.text.length - excess - marker.length);
    // Cut on a code-point boundary: a lone surrogate half would be invalid UTF-8 on the wire.
    const cut = current.text.slice(0, keep).replace(/[\uD800-\uDBFF]$/, '');
    chosen[index] = { pack, variant: 'truncated', text: cut + marker };
  }
  return chosen.map((c) => {
    const { pack, variant, text } = c!;
    return { label: pack.label, priority: pack.priority, variant, tokens: packTokens(text), fullTokens: packTokens(pack.full), text };
  });
}

/** One line per choice for the snapshot's decisions: `pack skills catalog (medium): compact, 12 of 80 tokens`. */
export function packDecision(choice: PackChoice, where: string): Decision {
  const how = choice.variant === 'skipped' ? 'skipped' : `${choice.variant}, ${choice.tokens} of ${choice.fullTokens} tokens`;
  return { kind: 'pack', detail: `pack ${choice.label} (${choice.priority}, ${where}): ${how}`, resultIds: [] };
}
