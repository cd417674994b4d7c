import type { ChangeFact, ReadFact, ResultFact } from './resultFacts';

/**
 * The superseded set (defined in `src/core/ledger/README.md`, "What elision may remove"): results whose
 * information a later result in the same generation carries, so showing them again on every request only
 * costs. Maps each superseded id to the first later result that supersedes it.
 *
 * - A read (full or stub) is superseded by a later change to its file (an edit, write or patch that changed
 *   it), by a later read of the file with other content (it changed outside Cairn), or by a later full read
 *   of the same content that shows all of its lines.
 * - A command's output is superseded by a later output of exactly the same command line.
 * - An edit's diff is superseded once every file it shows has been read in full later (lines 1 to the end):
 *   the file as it now is is in the context (an edit in between changes nothing: the full read shows it too).
 * - Nothing else (searches, recalls, MCP tools, errors) is ever superseded. The first result of a search
 *   later answered "Same result as" is a search, so it stays.
 * - No stub or same-result answer may point at elided text: a result that a kept result names is kept
 *   (so a stub's target is elided only together with the stub).
 */
export function supersededResults(facts: readonly ResultFact[]): Map<string, string> {
  const superseded = new Map<string, string>();
  facts.forEach((fact, index) => {
    const later = facts.slice(index + 1);
    const by =
      fact.type === 'read'
        ? later.find((next) => supersedesRead(fact, next))
        : fact.type === 'command'
          ? later.find((next) => next.type === 'command' && next.command === fact.command)
          : fact.type === 'change'
            ? changeSupersededBy(fact, later)
            : undefined;
    if (by) superseded.set(fact.id, by.id);
  });
  return keepNamedTargets(facts, superseded);
}

function supersedesRead(read: ReadFact, next: ResultFact): boolean {
  if (next.type === 'change') return next.paths.includes(read.path);
  if (next.type !== 'read' || next.path !== read.path) return false;
  if (next.sha !== read.sha) return true;
  return next.stubOf === undefined && next.from <= read.from && read.to <= next.to;
}

/** The full read that completes the set of full reads covering every file the change shows, if any. */
function changeSupersededBy(change: ChangeFact, later: readonly ResultFact[]): ResultFact | undefined {
  const pending = new Set(change.shownPaths);
  for (const next of later) {
    if (next.type === 'read' && next.stubOf === undefined && next.from === 1 && next.to === next.total && pending.delete(next.path)) {
      if (pending.size === 0) return next;
    }
  }
  return undefined;
}

/** Drops from the set every result a kept result names, until nothing kept names an elided one. */
function keepNamedTargets(facts: readonly ResultFact[], superseded: Map<string, string>): Map<string, string> {
  const namedBy = (fact: ResultFact): readonly string[] =>
    fact.type === 'read' && fact.stubOf ? [fact.stubOf] : fact.type === 'other' ? fact.refersTo : [];
  let changed = true;
  while (changed) {
    changed = false;
    for (const fact of facts) {
      if (superseded.has(fact.id)) continue;
      for (const target of namedBy(fact)) {
        if (superseded.delete(target)) changed = true;
      }
    }
  }
  return superseded;
}
