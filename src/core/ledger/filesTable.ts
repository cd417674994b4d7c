import type { ReadEntry } from './readTable';

/**
 * The table the harness adds after a compaction summary (spec §7): the newest full read of each path
 * still in the dedupe table, newest last. Empty string when there were no reads.
 */
export function renderFilesTable(rows: readonly ReadEntry[], shaDigits: number): string {
  if (rows.length === 0) return '';
  const out = [
    '## Files read before this summary',
    '',
    'Read a file again for its content; recall shows a result by its id.',
    '',
    '| Path | Lines | sha | Result |',
    '|---|---|---|---|',
  ];
  for (const row of rows) {
    out.push(`| ${cell(row.path)} | ${linesCell(row)} | ${row.sha.slice(0, shaDigits)} | ${row.id} |`);
  }
  return out.join('\n');
}

function linesCell(row: ReadEntry): string {
  if (row.binary) return 'binary';
  if (row.total === 0) return 'empty';
  return `${row.from}-${row.to} of ${row.total}`;
}

/** A `|` in a path would end the cell. */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}
