/** JSON with comments and trailing commas, as VS Code reads mcp.json and settings files. */

export type JsoncResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

/**
 * Parses JSON with `//` and `/* *\/` comments and trailing commas, as VS Code's own mcp.json and settings
 * files allow. Comments and trailing commas are blanked out (same length, so positions stay true), outside
 * strings only; then `JSON.parse` does the rest.
 */
export function parseJsonc(text: string): JsoncResult {
  const out = text.split('');
  if (out[0] === '\uFEFF') out[0] = ' ';
  let pendingComma = -1;
  let i = 0;
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to; k++) if (out[k] !== '\n' && out[k] !== '\r') out[k] = ' ';
  };
  while (i < out.length) {
    const c = out[i]!;
    if (c === '"') {
      pendingComma = -1;
      i++;
      while (i < out.length && out[i] !== '"' && out[i] !== '\n') i += out[i] === '\\' ? 2 : 1;
      i++;
      continue;
    }
    if (c === '/' && out[i + 1] === '/') {
      const end = out.indexOf('\n', i);
      const stop = end === -1 ? out.length : end;
      blank(i, stop);
      i = stop;
      continue;
    }
    if (c === '/' && out[i + 1] === '*') {
      let end = i + 2;
      while (end < out.length && !(out[end] === '*' && out[end + 1] === '/')) end++;
      if (end >= out.length) return { ok: false, error: `a /* comment is not closed (${lineColumn(text, i)})` };
      blank(i, end + 2);
      i = end + 2;
      continue;
    }
    if (c === ',') pendingComma = i;
    else if (c === '}' || c === ']') {
      if (pendingComma !== -1) out[pendingComma] = ' ';
      pendingComma = -1;
    } else if (!/\s/.test(c)) pendingComma = -1;
    i++;
  }
  const cleaned = out.join('');
  if (cleaned.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(cleaned) as unknown };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const position = /at position (\d+)/.exec(message);
    const where = position ? ` (${lineColumn(text, Number(position[1]))})` : '';
    // V8 sometimes quotes the text around the error: left out, since a file may hold a token written in it.
    const what = message
      .replace(/\s*in JSON at position \d+.*$/s, '')
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/, .*is not valid JSON$/s, '');
    return { ok: false, error: `${what}${where}` };
  }
}

/** `line L, column C` of a UTF-16 offset. */
function lineColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const lines = before.split('\n');
  return `line ${lines.length}, column ${lines[lines.length - 1]!.length + 1}`;
}
