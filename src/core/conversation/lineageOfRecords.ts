import type { JournalRecord, LoadedRecord } from '../journal/records';
import { isElisionDetail, isGenerationDetail } from './generationDetail';
import { GenerationLineage } from './lineage';
import { isRewindDetail } from './rewind';

/** Every generation's origin, from a journal's `generation_started` records (undone ones included). */
export function lineageOfRecords(records: Iterable<LoadedRecord | JournalRecord>): GenerationLineage {
  const lineage = new GenerationLineage();
  for (const record of records) {
    if (record.type !== 'generation_started') continue;
    const detail = record.detail;
    if (isGenerationDetail(detail)) lineage.note(record.generation, { kind: 'compaction', parent: detail.previousGeneration });
    else if (isElisionDetail(detail)) {
      lineage.note(record.generation, { kind: 'elision', parent: detail.previousGeneration, kept: detail.entries.length });
    } else if (isRewindDetail(detail)) {
      lineage.note(record.generation, { kind: 'rewind', parent: detail.previousGeneration, kept: detail.fromIndex });
    }
  }
  return lineage;
}
