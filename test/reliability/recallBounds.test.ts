import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionJournal } from '../../src/core/journal/node/sessionJournal';
import { ResultLedger } from '../../src/core/ledger/resultLedger';
import type { LedgerResult } from '../../src/core/ledger/types';
import { resultViewOf } from '../../src/host/resultView';
import { recallPage, type RequestSources } from '../../src/host/webviewRequests';
import { MB, peakRssGrowth } from './support/memoryPeak';
import { startLedgerRig, type LedgerRig } from './support/ledgerRig';

/**
 * Issue 28, case 13: `recall` with `limit: 1e9` on a 60 MB output sent one 60-million-character result to
 * the model and one 60 MB message to the chat (+690 MB of memory). Here through the session journal, as
 * in a session: the output is stored in parts as it streams, and recalled from disk.
 */

const LINE_MB = 60;
let rig: LedgerRig;
let journal: SessionJournal;
let ledger: ResultLedger;
let oneLine: LedgerResult;
let manyLines: LedgerResult;

beforeAll(async () => {
  rig = await startLedgerRig();
  journal = await SessionJournal.create(join(rig.dir, 'sessions'), { workspace: rig.root, model: 'm' });
  ledger = new ResultLedger({ workspace: rig.workspace, store: journal });
  const bash = (callId: string, command: string) => ledger.execute({ callId, name: 'bash', input: { command, timeout_ms: 300_000 } });
  oneLine = await bash('one', `head -c ${LINE_MB * 1_000_000} /dev/zero | tr '\\0' x; echo; echo END`);
  manyLines = await bash('many', 'seq 1 3000000');
}, 300_000);
afterAll(async () => {
  await journal?.close();
  await rig?.close();
});

/** The chat's sources for a recall page: the journal, as the session controller gives it. */
const sources = (): RequestSources =>
  ({
    readResult: (id: string) => journal.readResult(id),
    readLines: (id: string, offset: number, limit: number, maxChars?: number) => journal.readLines(id, offset, limit, maxChars),
    readBracket: (id: string) => journal.readBracket(id),
  }) as unknown as RequestSources;

describe('recall of a huge output', () => {
  it(`limit 1e9 on a ${LINE_MB} MB line: a bounded answer that names the line's length and the next offset; bounded memory`, async () => {
    const { value: r, growthBytes } = await peakRssGrowth(() =>
      ledger.execute({ callId: 'r1', name: 'recall', input: { id: oneLine.id, limit: 1e9 } }),
    );
    expect(r.text.length).toBeLessThan(101_000);
    expect(r.text.split('\n')[0]).toBe(`[${r.id} recall ${oneLine.id} lines 1-1 of 2]`);
    expect(r.text).toContain(`Line 1 has ${LINE_MB * 1_000_000} characters; only its first 100000 are shown`);
    expect(r.text).toContain(`Recall ${oneLine.id} with offset 2 for the rest.`);
    // What the chat is sent for this result.
    expect(JSON.stringify(resultViewOf(r)).length).toBeLessThan(102_000);
    console.info(
      `recall: ${LINE_MB} MB line recalled with limit 1e9 as ${r.text.length} characters; peak RSS growth ${Math.round(growthBytes / MB)} MB`,
    );
    expect(growthBytes).toBeLessThan(200 * MB);

    const end = await ledger.execute({ callId: 'r2', name: 'recall', input: { id: oneLine.id, offset: 2 } });
    expect(end.text).toBe(`[${end.id} recall ${oneLine.id} lines 2-2 of 2]\nEND`);
  }, 120_000);

  it('limit 1e9 on 3,000,000 lines: the spec window of 2000 lines, and where to go on', async () => {
    const r = await ledger.execute({ callId: 'r3', name: 'recall', input: { id: manyLines.id, limit: 1e9 } });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe(`[${r.id} recall ${manyLines.id} lines 1-2000 of 3000000]`);
    expect(lines).toHaveLength(2002);
    expect(lines.at(-1)).toMatch(
      new RegExp(`^\\[Lines 1-2000 of 3000000 shown .*recall ${manyLines.id} with offset 2001 for the rest\\.\\]$`),
    );
  }, 120_000);

  it(`the chat's recall page of the ${LINE_MB} MB line is bounded too, from the journal without the whole body`, async () => {
    const { value: page, growthBytes } = await peakRssGrowth(() => recallPage(sources(), oneLine.id, 1, 200));
    expect(page.bracket).toBe(oneLine.bracket);
    expect(page.from).toBe(1);
    expect(page.total).toBe(2);
    expect(page.lines.join('\n').length).toBeLessThan(101_000);
    expect(page.lines[0]).toMatch(new RegExp(`\\[…cut: line 1 has ${LINE_MB * 1_000_000} characters; Open in editor shows all of it\\]$`));
    // The page stops at the line it cut: Next asks for line 2.
    expect(page.to).toBe(1);
    console.info(`recall page: ${page.lines.join('\n').length} characters; peak RSS growth ${Math.round(growthBytes / MB)} MB`);
    expect(growthBytes).toBeLessThan(200 * MB);
  }, 120_000);
});
