/**
 * A source's identity across requests and its colour. The host names a source `kind: label`, and for the
 * conversation and the tools the label is a count (`conversation: 12 messages`), which changes with every
 * request: compared by name, one conversation became two rows. The kind is the identity; a label that is
 * a path (a rules file) stays part of it, as two rules files are two sources.
 */

const COUNT_LABEL = /: \d+ [a-z ]+$/;

export function sourceKey(name: string): string {
  return COUNT_LABEL.test(name) ? name.replace(COUNT_LABEL, '') : name;
}

/**
 * A fixed colour per kind of source, so a source keeps its colour from one request to the next and no
 * two kinds share one (the chat's meter uses the same: system purple, conversation blue, summary green).
 * The slots are the theme's chart colours, then two of its terminal colours (SourceBar.css `.seg-N`).
 */
const KIND_SLOT: Readonly<Record<string, number>> = {
  preamble: 0,
  system: 0,
  conversation: 1,
  history: 1,
  project_context: 2,
  summary: 2,
  mcp_tools: 3,
  'files table': 3,
  tools: 4,
  rules: 5,
  session_date: 6,
  // The model's thinking, web_fetch's pages and images (issue 33) each their own: past the theme's eight chart
  // colours, the terminal's cyan and magenta (every theme defines them, high contrast ones included).
  thinking: 7,
  web_pages: 8,
  images: 9,
};
export const SLOT_COUNT = 10;

/** Colour slots for a request's sources: known kinds their own, others the slots left over, in order. */
export function sourceSlots(names: readonly string[]): number[] {
  const kindOf = (name: string) => sourceKey(name).split(':')[0]!.trim();
  const used = new Set(names.map((n) => KIND_SLOT[kindOf(n)]).filter((slot): slot is number => slot !== undefined));
  let next = 0;
  return names.map((name) => {
    const known = KIND_SLOT[kindOf(name)];
    if (known !== undefined) return known;
    while (used.has(next) && next < SLOT_COUNT - 1) next++;
    used.add(next);
    return next;
  });
}
