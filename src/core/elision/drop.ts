import { isOneLine, type ResultFact } from './resultFacts';

/** A drop the user asked for that cannot be made as asked; the message says what to do instead. */
export class DropError extends Error {
  override readonly name = 'DropError';
}

/**
 * The results a drop of `ids` takes out of the context (issue 35): the ones asked for, plus every kept result
 * that names one of them (a stub "Unchanged since #id", a "Same result as #id"), since no kept result may point
 * at text that is no longer in front of the model (the history invariants). Those are one line already, so
 * taking them too costs nothing and loses nothing: every id still recalls.
 *
 * Refused, with what to do: an id that is not a result the next request carries in full (unknown here, from an
 * earlier generation, or already one line).
 */
export function droppedResults(facts: readonly ResultFact[], ids: readonly string[]): Set<string> {
  if (ids.length === 0) throw new DropError('Choose at least one result to drop from the context.');
  const byId = new Map(facts.map((fact) => [fact.id, fact]));
  for (const id of ids) {
    const fact = byId.get(id);
    if (!fact)
      throw new DropError(
        `${id} is not in the context the next request carries (it left with a compaction, or is not a result of this session); nothing was dropped.`,
      );
    if (isOneLine(fact.text.split('\n', 1)[0] ?? ''))
      throw new DropError(`${id} is already one line in the context (elided or dropped before); nothing was dropped.`);
  }
  const dropped = new Set(ids);
  let changed = true;
  while (changed) {
    changed = false;
    for (const fact of facts) {
      if (dropped.has(fact.id)) continue;
      if (namedBy(fact).some((target) => dropped.has(target))) {
        dropped.add(fact.id);
        changed = true;
      }
    }
  }
  return dropped;
}

/** The ids a result's text depends on: a stub's earlier read, a same-result answer's first result. */
export function namedBy(fact: ResultFact): readonly string[] {
  return fact.type === 'read' && fact.stubOf ? [fact.stubOf] : fact.type === 'other' ? fact.refersTo : [];
}
