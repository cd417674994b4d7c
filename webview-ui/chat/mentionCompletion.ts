/** The `@` mention being typed at the end of the input, and the input once a file is picked (pure). */

/** `@` at the start or after a space, then path characters, up to the end of the text before the caret. */
const TYPING_MENTION = /(^|\s)@([\w./-]*)$/;

export function mentionQuery(beforeCaret: string): string | undefined {
  return TYPING_MENTION.exec(beforeCaret)?.[2];
}

/** Replaces the mention being typed with the picked path and a space. */
export function completeMention(beforeCaret: string, afterCaret: string, path: string): string {
  const match = TYPING_MENTION.exec(beforeCaret);
  if (!match) return beforeCaret + afterCaret;
  const start = match.index + match[1]!.length;
  return `${beforeCaret.slice(0, start)}@${path} ${afterCaret.replace(/^ /, '')}`;
}

/** The file URIs a drop carries (VS Code's explorer gives `application/vnd.code.uri-list` or `text/uri-list`). */
export function droppedUris(list: string): string[] {
  return list
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#') && line.startsWith('file:'));
}
