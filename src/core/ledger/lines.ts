/**
 * How results and files are cut into lines. `\n` ends a line, `\r\n` is one ending, and a final
 * ending closes the last line without opening an empty one, so "a\nb\n" and "a\nb" both have two
 * lines and "" has none. A lone `\r` is ordinary text (old Mac endings are not worth a guess).
 */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
  }
  return lines;
}

/** The line ending a file mostly uses, so edits keep it. */
export function dominantEol(text: string): '\n' | '\r\n' {
  const crlf = text.split('\r\n').length - 1;
  const lf = text.split('\n').length - 1 - crlf;
  return crlf > lf ? '\r\n' : '\n';
}

/** Cuts a line longer than `max` characters to exactly `max` and marks it. */
export function cutLine(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max)} […cut]` : line;
}
