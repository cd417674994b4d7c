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

/**
 * Lines as a result's body is stored: joined by `\n`, plus one more `\n` when the last line is empty.
 * `splitLines` reads a final `\n` as the end of the last line, so without it a body whose last line is
 * empty (a file ending in a blank line) would be recalled a line short. `splitLines` of this is `lines`.
 */
export function storedText(lines: readonly string[]): string {
  const joined = lines.join('\n');
  return lines.length > 0 && lines[lines.length - 1] === '' ? `${joined}\n` : joined;
}

/**
 * `storedText` of lines already joined, whose lines are `joined.split('\n')` (a command's output as the bash
 * tool hands it over): the empty text is one empty line, and a final `\n` means an empty last line.
 */
export function storedTextOfJoined(joined: string): string {
  return joined === '' || joined.endsWith('\n') ? `${joined}\n` : joined;
}

/**
 * `splitLines(text).join('\n')` without building the lines: the text in the form results are stored in
 * (`\r\n` as `\n`, no final ending). A command's 10 MB output is normalised in one pass, not split into
 * 100,000 strings and joined again.
 */
export function joinedLines(text: string): string {
  let body = text.endsWith('\n') ? text.slice(0, -1) : text;
  if (body.indexOf('\r') === -1) return body;
  // Only the \r right before an ending belongs to it; a lone \r (or the second of \r\r\n) is text.
  body = body.replace(/\r\n/g, '\n');
  return body.endsWith('\r') ? body.slice(0, -1) : body;
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
