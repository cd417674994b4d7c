import { isSyntheticBlock, type ConversationEntry } from '../conversation/conversation';

const OPENING = '<cairn-note kind="files_restored">';

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
    OPENING,
    `The user restored ${paths.length === 1 ? 'this file' : `these ${paths.length} files`} to an earlier checkpoint. Their content is no longer what you read or wrote before; read them again before relying on them or editing them.`,
    ...named,
    '</cairn-note>',
  ].join('\n');
}

/**
 * The files the restore notes Cairn wrote into `entries` name: when a rewind drops the message that carried a
 * note (edit and resend, regenerate), the model was never told, so the note is due again.
 */
export function restoredPathsIn(entries: readonly ConversationEntry[]): string[] {
  const paths = new Set<string>();
  for (const entry of entries) {
    if (entry.message.role !== 'user') continue;
    entry.message.content.forEach((block, index) => {
      if (block.type !== 'text' || !block.text.startsWith(OPENING) || !isSyntheticBlock(entry, index)) return;
      for (const line of block.text.split('\n')) {
        if (line.startsWith('- ') && !/^- … and \d+ more$/.test(line)) paths.add(line.slice(2));
      }
    });
  }
  return [...paths].sort();
}
