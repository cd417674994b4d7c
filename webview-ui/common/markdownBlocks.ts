/**
 * Splits Markdown into top-level pieces that render on their own exactly as they render together, so a
 * streaming message re-renders only its growing last piece. A split is made only where CommonMark
 * starts a fresh block whatever came before: after a blank line, outside a fenced code block, at a line
 * that begins in column 0 and cannot continue a list or an indented block. Anything that can reach
 * across blocks (link reference definitions, carriage returns) keeps the source in one piece.
 */

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
/** A line that may belong to the block above it even after a blank line: indented, or a list item. */
const MAY_CONTINUE = /^(?:[ \t]|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;
const BLANK = /^[ \t]*$/;
/** `[label]: url` anywhere makes links in other blocks resolve, so pieces would not be independent. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]*\]:/m;

export function splitMarkdownBlocks(source: string): string[] {
  if (source.includes('\r') || source.includes('\0') || REFERENCE_DEFINITION.test(source)) return [source];
  const lines = source.split('\n');
  const pieces: string[] = [];
  let start = 0;
  let fence: { char: string; length: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (fence) {
      const close = new RegExp(`^ {0,3}${fence.char === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
      if (close.test(line)) fence = undefined;
      continue;
    }
    if (i > start && !BLANK.test(line) && !MAY_CONTINUE.test(line) && BLANK.test(lines[i - 1]!)) {
      pieces.push(`${lines.slice(start, i).join('\n')}\n`);
      start = i;
    }
    const open = FENCE_OPEN.exec(line);
    // A backtick fence's info string may not hold a backtick (then it is inline code, not a fence).
    if (open && !(open[1]![0] === '`' && open[2]!.includes('`'))) fence = { char: open[1]![0]!, length: open[1]!.length };
  }
  pieces.push(lines.slice(start).join('\n'));
  return pieces;
}
