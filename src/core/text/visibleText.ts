/**
 * Characters that change what text looks like without showing themselves: C0 controls (a `\r` returns
 * to the start of the line and hides what came before), DEL, C1 controls, the Unicode line and paragraph
 * separators (a line break to some splitters, not to others), bidi embeddings, overrides and isolates
 * (they reorder what is shown), and the zero-width and invisible formatting characters.
 *
 * What the user approves must show them (`⟨U+000D⟩`), and a path that holds one is refused by every
 * tool that writes: its name would not read as what it is. The chat and the tools use this one list.
 */
const INVISIBLE_CLASS =
  '\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff';

/** One invisible character; `\n` and `\t` are not in it (they show as what they are in a command). */
export const INVISIBLE_CHAR = new RegExp(`[${INVISIBLE_CLASS}]`);

/** In a path even `\n` and `\t` are hostile. */
const PATH_HIDDEN_CHAR = new RegExp(`[\\n\\t${INVISIBLE_CLASS}]`);

/** The visible stand-in for one hidden character, e.g. `⟨U+202E⟩`. */
export function visibleCodePoint(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}⟩`;
}

export type VisibleSegment =
  { readonly kind: 'text'; readonly text: string } | { readonly kind: 'hidden'; readonly char: string; readonly shown: string };

/** Splits text into plain runs and hidden characters, in order (the chat styles the hidden ones apart). */
export function splitHidden(text: string): VisibleSegment[] {
  const segments: VisibleSegment[] = [];
  const pattern = new RegExp(INVISIBLE_CHAR.source, 'g');
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) segments.push({ kind: 'text', text: text.slice(last, match.index) });
    segments.push({ kind: 'hidden', char: match[0], shown: visibleCodePoint(match[0]) });
    last = match.index + 1;
  }
  if (last < text.length) segments.push({ kind: 'text', text: text.slice(last) });
  return segments;
}

/** The text with every hidden character replaced by its visible stand-in. */
export function showHidden(text: string): string {
  return text.replace(new RegExp(INVISIBLE_CHAR.source, 'g'), visibleCodePoint);
}

/**
 * Why a path cannot be used by a writing tool, or undefined when it can. The message names the character,
 * so the model can see what it sent.
 */
export function hiddenCharProblem(path: string): string | undefined {
  const match = PATH_HIDDEN_CHAR.exec(path);
  if (!match) return undefined;
  const shown = path.replace(new RegExp(PATH_HIDDEN_CHAR.source, 'g'), visibleCodePoint);
  const what = match[0] === '\0' ? 'a NUL byte (⟨U+0000⟩)' : visibleCodePoint(match[0]);
  return `The path "${shown}" contains ${what}, a control, line-separator, bidi or zero-width character. Cairn does not write paths with such characters (their names do not read as what they are); use a plain name.`;
}
