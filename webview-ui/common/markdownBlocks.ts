/**
 * Splits Markdown into top-level pieces that render on their own exactly as they render together, so a
 * streaming message re-renders only its growing last piece. A split is made only where markdown-it's
 * block parser starts a top-level block right after a blank line: such a block does not depend on what
 * came before. Anything that can reach across blocks (link reference definitions) or that the parser
 * rewrites first (carriage returns, NUL) keeps the source in one piece.
 */
import { topLevelBlockLines } from './renderMarkdown';

const BLANK = /^[ \t]*$/;
/** `[label]: url` anywhere makes links in other blocks resolve, so pieces would not be independent. */
const REFERENCE_DEFINITION = /^ {0,3}\[[^\]]*\]:/m;

export function splitMarkdownBlocks(source: string): string[] {
  if (source.includes('\r') || source.includes('\0') || REFERENCE_DEFINITION.test(source)) return [source];
  const lines = source.split('\n');
  const pieces: string[] = [];
  let start = 0;
  for (const line of topLevelBlockLines(source)) {
    if (line <= start || !BLANK.test(lines[line - 1] ?? '')) continue;
    pieces.push(`${lines.slice(start, line).join('\n')}\n`);
    start = line;
  }
  pieces.push(lines.slice(start).join('\n'));
  return pieces;
}
