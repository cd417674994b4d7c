/**
 * Child of the heap test: run with a small `--max-old-space-size`, it reopens a session whose results
 * together are far larger than that heap and reads every one back through `readLines`. It can only
 * succeed if the journal keeps offsets, not bodies. Prints `ok <results> <lines>` or `error <message>`.
 */
import { SessionJournal } from '../../../src/core/journal/node/sessionJournal';

async function main(): Promise<void> {
  const [dir, sessionId] = process.argv.slice(2);
  if (!dir || !sessionId) throw new Error('usage: heapReader <dir> <sessionId>');
  const opened = await SessionJournal.open(dir, sessionId, { readOnly: true });
  if (opened.corruption) throw opened.corruption;
  let lines = 0;
  for (const id of opened.journal.ids()) {
    const slice = await opened.journal.readLines(id, 1, Number.MAX_SAFE_INTEGER);
    lines += slice?.lines.length ?? 0;
  }
  await opened.journal.close();
  process.stdout.write(`ok ${opened.journal.ids().length} ${lines}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
