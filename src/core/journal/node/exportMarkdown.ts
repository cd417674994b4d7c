import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { JournalRecord } from '../records';
import { EXPORTED_TYPES, renderSessionMarkdown } from '../sessionMarkdown';
import type { SessionJournal } from './sessionJournal';

export interface SessionExport {
  readonly markdownPath: string;
  readonly jsonlPath: string;
}

/** Writes `<sessionId>.md` and the raw journal `<sessionId>.jsonl` into `outDir`. */
export async function exportSessionMarkdown(journal: SessionJournal, outDir: string): Promise<SessionExport> {
  await fs.mkdir(outDir, { recursive: true });
  const records: JournalRecord[] = [];
  for await (const record of journal.readAll({ types: EXPORTED_TYPES })) records.push(record);
  const markdownPath = join(outDir, `${journal.sessionId}.md`);
  const jsonlPath = join(outDir, `${journal.sessionId}.jsonl`);
  await fs.writeFile(markdownPath, renderSessionMarkdown(records));
  await journal.copyTo(jsonlPath);
  return { markdownPath, jsonlPath };
}
