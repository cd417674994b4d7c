/**
 * How a generation started from the one before it. An elision opens with every message of its parent (the
 * same indexes, some results shortened); a rewind with the parent's messages before `kept` (the message at
 * `kept` is the one returned to, replaced by whatever the new branch puts there); a compaction with a summary,
 * so its indexes say nothing about its parent's.
 */
export type GenerationOrigin =
  | { readonly kind: 'compaction'; readonly parent: number }
  | { readonly kind: 'elision' | 'rewind'; readonly parent: number; readonly kept: number };

/** Where a message place sits on the branch that leads to a generation (`GenerationLineage.position`). */
export interface BranchPosition {
  /** Compactions between the place's generation and the branch's end: fewer is later. */
  readonly compactionsAfter: number;
  /** Its index in the last generation before the next compaction (or the branch's end) that carries it. */
  readonly index: number;
}

/**
 * The generations of a session as a tree (issue 29): which one each started from and how, so a place
 * written in one generation (a checkpoint's turn, a message's place in the chat) can be found again in a
 * later one. Elision and rewinds keep indexes; only a compaction loses them. Owned by `ActiveGeneration`,
 * which notes every new generation's origin as it begins it; a reopen reads them from the journal
 * (`lineageOfRecords`).
 */
export class GenerationLineage {
  private readonly origins = new Map<number, GenerationOrigin>();

  note(generation: number, origin: GenerationOrigin): void {
    this.origins.set(generation, origin);
  }

  origin(generation: number): GenerationOrigin | undefined {
    return this.origins.get(generation);
  }

  /**
   * A place's position on the branch that ends at `current`, comparable with `isBefore`; undefined when its
   * generation is not on that branch. A message a rewind dropped sits at the message returned to (its branch
   * hangs there), so everything of an abandoned branch is after what the new branch kept before it.
   */
  position(place: { readonly generation: number; readonly index: number }, current: number): BranchPosition | undefined {
    const chain = this.chain(current);
    let at = chain.indexOf(place.generation);
    if (at < 0) return undefined;
    let index = place.index;
    let compactionsAfter = 0;
    let mapping = true;
    for (; at > 0; at--) {
      const origin = this.origins.get(chain[at - 1]!)!;
      if (origin.kind === 'compaction') {
        compactionsAfter++;
        mapping = false;
      } else if (mapping) {
        index = Math.min(index, origin.kept);
      }
    }
    return { compactionsAfter, index };
  }

  /**
   * The index in `current` of the message at `place`, when the branch still holds it (elisions and rewinds
   * that kept it; at a rewind's own message, the place the new branch put there); undefined when a
   * compaction summarized it or a rewind dropped it.
   */
  indexIn(place: { readonly generation: number; readonly index: number }, current: number): number | undefined {
    const chain = this.chain(current);
    let at = chain.indexOf(place.generation);
    if (at < 0) return undefined;
    for (; at > 0; at--) {
      const origin = this.origins.get(chain[at - 1]!)!;
      if (origin.kind === 'compaction' || place.index > origin.kept) return undefined;
    }
    return place.index;
  }

  /** The generations from `current` up to the first one: [current, its parent, …]. */
  private chain(current: number): number[] {
    const chain = [current];
    const seen = new Set(chain);
    for (let origin = this.origins.get(current); origin && !seen.has(origin.parent); origin = this.origins.get(origin.parent)) {
      chain.push(origin.parent);
      seen.add(origin.parent);
    }
    return chain;
  }
}

/** Whether `a` comes before `b` on the branch (an earlier compaction epoch, or an earlier index in the same one). */
export function isBefore(a: BranchPosition, b: BranchPosition): boolean {
  return a.compactionsAfter > b.compactionsAfter || (a.compactionsAfter === b.compactionsAfter && a.index < b.index);
}
