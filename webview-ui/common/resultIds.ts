/**
 * Finds result ids (`#` and 4+ lowercase hex at a word boundary) in any text the webview shows, so each
 * can be rendered as a link that recalls the stored result. Only ids the session gave become links: text
 * quoted from a file or written by the model can hold `#beef` without there being any such result.
 */
import { RESULT_ID_PATTERN } from '../../src/shared/protocol';

export type TextSegment = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'id'; readonly id: string };

/** The ids the session gave (see knownIds.ts); anything with `has` (tests may know every id). */
export type KnownIds = Pick<ReadonlySet<string>, 'has'>;

/** Splits text into plain runs and known ids, in order; joining the segments gives the text back. */
export function splitResultIds(text: string, known: KnownIds): TextSegment[] {
  const segments: TextSegment[] = [];
  const pattern = new RegExp(RESULT_ID_PATTERN.source, 'g');
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (!known.has(match[0])) continue;
    if (match.index > last) segments.push({ kind: 'text', text: text.slice(last, match.index) });
    segments.push({ kind: 'id', id: match[0] });
    last = match.index + match[0].length;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

/** The markup of one recall link; activated by click or Enter (it is a button), handled by delegation. */
export function recallLinkHtml(id: string): string {
  return `<button type="button" class="recall-link" data-recall-id="${id}" title="Show stored result ${id}">${id}</button>`;
}

/** Escapes text for HTML and turns every known id in it into a recall link. */
export function linkifyIdsHtml(text: string, known: KnownIds): string {
  return splitResultIds(text, known)
    .map((s) => (s.kind === 'id' ? recallLinkHtml(s.id) : escapeHtml(s.text)))
    .join('');
}
