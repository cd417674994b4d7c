/**
 * Child of the write-failure test, run under `ulimit -f` so the file system refuses to grow the journal
 * part-way through a record (EFBIG: what a full disk does to a write). It appends results until one
 * fails, tries once more, and reports: `acked <n>`, then `failed <error name> <size after>` per failure.
 */
import { promises as fs } from 'node:fs';
import { SessionJournal } from '../../../src/core/journal/node/sessionJournal';

async function main(): Promise<void> {
  const [dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: fileLimitWriter <dir>');
  const journal = await SessionJournal.create(dir, { workspace: dir, model: 'm', sessionId: 'limited' });
  let acked = 0;
  let failures = 0;
  for (let i = 0; failures < 2 && i < 1000; i++) {
    const id = `#${(0x1000 + i).toString(16)}`;
    try {
      await journal.put({ id, tool: 'bash', input: {}, bracket: `[${id}]`, body: `${i} `.repeat(3000), kind: 'full' });
      acked += 1;
      process.stdout.write(`acked ${acked}\n`);
    } catch (error) {
      failures += 1;
      const size = (await fs.stat(journal.path)).size;
      process.stdout.write(`failed ${(error as Error).name} ${size} ${journal.byteSize}\n`);
    }
  }
  await journal.close();
}

main().catch((error: unknown) => {
  process.stdout.write(`error ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
