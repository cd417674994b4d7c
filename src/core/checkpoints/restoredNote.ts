/** Most paths named in the note; more are counted. */
const MAX_NAMED = 50;

/**
 * The Cairn-written block the next user message carries after a restore: the files went back to an earlier
 * state, so what the model read or wrote of them before is no longer true.
 */
export function restoredFilesNote(paths: readonly string[]): string {
  const named = paths.slice(0, MAX_NAMED).map((p) => `- ${p}`);
  if (paths.length > MAX_NAMED) named.push(`- … and ${paths.length - MAX_NAMED} more`);
  return [
    '<cairn-note kind="files_restored">',
    `The user restored ${paths.length === 1 ? 'this file' : `these ${paths.length} files`} to an earlier checkpoint. Their content is no longer what you read or wrote before; read them again before relying on them or editing them.`,
    ...named,
    '</cairn-note>',
  ].join('\n');
}
