import { createWriteStream, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerRig, type LedgerRig } from './support/ledgerRig';
import { MB, peakRssGrowth } from './support/memoryPeak';
import { ResultLedger } from '../../src/core/ledger/resultLedger';
import { SessionJournal } from '../../src/core/journal/node/sessionJournal';
import { DEFAULT_COMMAND_LIMITS } from '../../src/node/workspace/commandRunner';

/**
 * Issue 9, content: a 100 MB file read in windows, a command printing a huge output (256 MB here; 1 GB
 * with CAIRN_BIG_OUTPUT_MB=1024) stored in full in the session journal as it streams, a million-line grep, binary files, invalid UTF-8, CRLF files. Memory
 * is measured (peak RSS growth while the call runs), never time.
 */

export const BIG_FILE_MB = 100;
export const BIG_OUTPUT_MB = Number(process.env.CAIRN_BIG_OUTPUT_MB ?? 256);
export const GREP_LINES = 1_000_000;

let rig: LedgerRig;
beforeAll(async () => {
  rig = await startLedgerRig({
    files: {
      'bin.dat': new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3, 0xff]),
      'latin1.txt': new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b, 0x0a]),
      'crlf.txt': 'first\r\nsecond\r\nthird\r\n',
    },
  });
  // Written in chunks, so the test itself never holds the file in memory.
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(join(rig.root, 'big.log'));
    const line = (n: number) => `${String(n).padStart(9, '0')} ${'lorem ipsum dolor sit amet '.repeat(3)}\n`;
    const perLine = line(0).length;
    const lines = Math.floor((BIG_FILE_MB * MB) / perLine);
    let n = 0;
    const write = (): void => {
      let ok = true;
      while (n < lines && ok) {
        let chunk = '';
        for (let k = 0; k < 2000 && n < lines; k++) chunk += line(++n);
        ok = out.write(chunk);
      }
      if (n < lines) out.once('drain', write);
      else out.end(resolve);
    };
    out.on('error', reject);
    write();
  });
  await fs.writeFile(join(rig.root, 'million.txt'), Array.from({ length: GREP_LINES }, (_, i) => `row ${i + 1} needle`).join('\n') + '\n');
}, 120_000);
afterAll(async () => rig?.close());

describe('content', () => {
  it(`a ${BIG_FILE_MB} MB file is read in windows, first and last, with its full hash`, async () => {
    const size = (await fs.stat(join(rig.root, 'big.log'))).size;
    const { value: first, growthBytes } = await peakRssGrowth(() =>
      rig.ledger.execute({ callId: 'b1', name: 'read', input: { path: 'big.log' } }),
    );
    const m = /^\[#[0-9a-f]+ big\.log lines 1-2000 of (\d+) sha [0-9a-f]{8}\]\n1: 000000001 /.exec(first.text);
    expect(m, first.text.slice(0, 100)).not.toBeNull();
    const total = Number(m![1]);
    expect(first.text.split('\n')).toHaveLength(2001);
    const last = await rig.ledger.execute({ callId: 'b2', name: 'read', input: { path: 'big.log', offset: total - 1 } });
    expect(last.text).toMatch(new RegExp(`lines ${total - 1}-${total} of ${total} sha`));
    expect(last.text).toContain(`${total}: ${String(total).padStart(9, '0')}`);
    // read hashes the whole file (it refuses over 256 MiB); what it keeps is the file, not copies of it.
    expect(growthBytes).toBeLessThan(8 * size);
    console.info(
      `content: ${Math.round(size / MB)} MB file read in windows (${total} lines), peak RSS growth ${Math.round(growthBytes / MB)} MB`,
    );
  }, 120_000);

  it(`a command printing ${BIG_OUTPUT_MB} MB: capped for the model, stored in full as it streams, memory bounded`, async () => {
    const bytes = BIG_OUTPUT_MB * MB;
    let streamed = 0;
    // The session journal as the store: the output goes to disk in parts while the command runs.
    const journal = await SessionJournal.create(join(rig.dir, 'sessions'), { workspace: rig.root, model: 'm' });
    const ledger = new ResultLedger({ workspace: rig.workspace, store: journal });
    try {
      const { value: r, growthBytes } = await peakRssGrowth(() =>
        ledger.execute(
          {
            callId: 'big',
            name: 'bash',
            input: { command: `yes 'a line of output that goes on and on' | head -c ${bytes}; echo; echo THE END`, timeout_ms: 600_000 },
          },
          { onOutput: (chunk) => void (streamed += chunk.length) },
        ),
      );
      // Every byte went past the stream to the chat, the model sees head and tail.
      expect(streamed).toBeGreaterThanOrEqual(bytes);
      expect(r.kind).toBe('capped');
      expect(r.text.length).toBeLessThan(45_000);
      expect(r.text).toMatch(/\[\d+ lines elided, full output #[0-9a-f]+\]/);
      expect(r.text).toMatch(/THE END\n\[exit code 0\]$|THE END$/);
      // Stored in full (not the runner's head and tail): recall reaches every line, the middle included.
      expect(r.fullChars).toBeGreaterThanOrEqual(bytes);
      const first = await journal.readLines(r.id, 1, 1);
      const lineChars = 'a line of output that goes on and on\n'.length;
      expect(first!.total).toBe(Math.ceil(bytes / lineChars) + 1);
      const middle = await journal.readLines(r.id, Math.floor(first!.total / 2), 1);
      expect(middle!.lines).toEqual(['a line of output that goes on and on']);
      expect((await journal.readLines(r.id, first!.total, 1))!.lines).toEqual(['THE END']);
      // The command runner keeps at most `maxOutputChars` (head and tail) in memory, the store one part.
      const kept = Math.min(bytes, DEFAULT_COMMAND_LIMITS.maxOutputChars);
      // The fixed part (the test's own buffers, GC slack under a loaded machine) is measured at 140-200 MB;
      // an unbounded runner at 256 MB would be well over 500 MB.
      expect(growthBytes).toBeLessThan(kept * 4 + 300 * MB);
      console.info(
        `content: a command printed ${Math.round(streamed / MB)} MB, all stored; ${r.text.length} chars shown; peak RSS growth ${Math.round(growthBytes / MB)} MB`,
      );
    } finally {
      await journal.close();
    }
  }, 600_000);

  it(`a grep matching ${GREP_LINES.toLocaleString('en')} lines is capped, and recall reaches its last match`, async () => {
    const { value: r, growthBytes } = await peakRssGrowth(() =>
      rig.ledger.execute({ callId: 'g', name: 'grep', input: { pattern: 'needle', path: 'million.txt' } }),
    );
    expect(r.kind).toBe('capped');
    const elided = Number(/\[(\d+) lines elided/.exec(r.text)![1]);
    const shown = r.text.split('\n').length - 2;
    expect(elided + shown).toBeGreaterThanOrEqual(GREP_LINES);
    const stored = await rig.store.readLines(r.id, 1, 1);
    const recall = await rig.ledger.execute({ callId: 'rc', name: 'recall', input: { id: r.id, offset: stored!.total, limit: 1 } });
    expect(recall.text).toContain(`row ${GREP_LINES} needle`);
    console.info(
      `content: grep with ${GREP_LINES} matches capped to ${r.text.length} chars; peak RSS growth ${Math.round(growthBytes / MB)} MB`,
    );
  }, 300_000);

  it('binary files: read names the size, grep skips them, edits refuse them', async () => {
    const r = await rig.ledger.execute({ callId: 'bin', name: 'read', input: { path: 'bin.dat' } });
    expect(r.text).toMatch(/^\[#[0-9a-f]+ bin\.dat binary, 10 bytes sha [0-9a-f]{8}\]$/);
    const g = await rig.ledger.execute({ callId: 'bg', name: 'grep', input: { pattern: 'ELF', path: 'bin.dat' } });
    expect(g.text).not.toContain('bin.dat:');
    const e = await rig.ledger.execute({ callId: 'be', name: 'edit', input: { path: 'bin.dat', old_string: 'ELF', new_string: 'FLE' } });
    expect(e.isError).toBe(true);
    expect(e.text).toMatch(/binary/i);
  });

  it('invalid UTF-8 is shown with replacement characters and never written back by an edit', async () => {
    const r = await rig.ledger.execute({ callId: 'l1', name: 'read', input: { path: 'latin1.txt' } });
    expect(r.text).toContain('1: caf\uFFFD');
    const e = await rig.ledger.execute({ callId: 'l2', name: 'edit', input: { path: 'latin1.txt', old_string: 'ok', new_string: 'OK' } });
    expect(e.isError).toBe(true);
    expect(e.text).toMatch(/UTF-8/);
    expect([...(await fs.readFile(join(rig.root, 'latin1.txt')))]).toEqual([0x63, 0x61, 0x66, 0xe9, 0x0a, 0x6f, 0x6b, 0x0a]);
  });

  it('CRLF files: lines are read without \\r, an edit keeps \\r\\n everywhere', async () => {
    const r = await rig.ledger.execute({ callId: 'c1', name: 'read', input: { path: 'crlf.txt' } });
    expect(r.text.split('\n').slice(1)).toEqual(['1: first', '2: second', '3: third']);
    const e = await rig.ledger.execute({
      callId: 'c2',
      name: 'edit',
      input: { path: 'crlf.txt', old_string: 'second\nthird', new_string: 'SECOND\nTHIRD\nfourth' },
    });
    expect(e.isError, e.text).toBe(false);
    expect(await fs.readFile(join(rig.root, 'crlf.txt'), 'utf8')).toBe('first\r\nSECOND\r\nTHIRD\r\nfourth\r\n');
  });
});
