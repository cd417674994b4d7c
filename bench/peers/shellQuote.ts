/** One POSIX shell word: single-quoted, with embedded single quotes closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
