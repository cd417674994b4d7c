import fc from 'fast-check';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveHygiene } from '../../src/core/config/hygiene';
import { HashCache } from '../../src/core/tools/hashCache';
import { splitLines } from '../../src/core/text/lines';
import { MemoryResultStore } from '../support/ledger/memoryResultStore';
import { ResultLedger } from '../../src/core/ledger/resultLedger';
import { sha256Hex } from '../../src/core/text/sha';
import type { LedgerResult } from '../../src/core/ledger/types';
import type { ExecOptions, ExecResult, Workspace } from '../../src/core/ports';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { startLedgerRig } from './support/ledgerRig';

/**
 * Issue 9, property tests on the ledger (fast-check), on real files. Small cap limits so that short
 * generated outputs exercise the cap. Runs: CAP_RUNS + RECALL_RUNS + ID_RUNS + STUB_RUNS.
 */
export const CAP_RUNS = 400;
export const RECALL_RUNS = 300;
export const ID_RUNS = 60;
export const STUB_RUNS = 120;

const SMALL_CAP = {
  'cap.max_lines': 12,
  'cap.max_chars': 600,
  'cap.head_lines': 5,
  'cap.head_chars': 300,
  'cap.tail_lines': 3,
  'cap.tail_chars': 150,
} as const;
const SEED = Number(process.env.CAIRN_FUZZ_SEED ?? 4242);

const lineArb = fc.oneof(
  { weight: 5, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', ' ', '\t', 'x'.repeat(400), '\u{1F600}'.repeat(200), '[3 lines elided, full output #beef]', '\r'),
  },
);
/** Text as a command would print it: lines joined by \n or \r\n, with or without a final newline. */
const outputArb = fc
  .record({
    lines: fc.array(
      lineArb.map((l) => l.replace(/[\r\n]/g, '')),
      { maxLength: 60, size: 'large' },
    ),
    crlf: fc.boolean(),
    finalNewline: fc.boolean(),
  })
  .map(({ lines, crlf, finalNewline }) => lines.join(crlf ? '\r\n' : '\n') + (finalNewline && lines.length > 0 ? '\n' : ''));

/** Exec answers with whatever the test set last: the property is about the ledger, not processes. */
function scriptedExec(real: NodeWorkspace, next: { output: string }): Workspace {
  return new Proxy(real, {
    get(target, key, receiver) {
      if (key === 'exec')
        return async (_c: string, _o: ExecOptions): Promise<ExecResult> => ({
          output: next.output,
          exitCode: 0,
          timedOut: false,
          cancelled: false,
        });
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** The lines of a command's output as the model sees them, which the store gives back exactly. */
function storedLines(output: string): string[] {
  return output === '' ? ['(no output)'] : splitLines(output);
}

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

describe('ledger properties', () => {
  it(`head + elided + tail accounts for every line (${CAP_RUNS} outputs)`, async () => {
    const next = { output: '' };
    const rig = await startLedgerRig({ wrap: (real) => scriptedExec(real, next), hygiene: SMALL_CAP });
    let capped = 0;
    try {
      await fc.assert(
        fc.asyncProperty(outputArb, async (output) => {
          next.output = output;
          const r = await rig.ledger.execute({ callId: 'b', name: 'bash', input: { command: 'x' } });
          const stored = await rig.store.readLines(r.id, 1, Number.MAX_SAFE_INTEGER);
          const full = output === '' ? ['(no output)'] : splitLines(output);
          // The store holds every line, unchanged (an empty last line included).
          expect(stored!.lines).toEqual(storedLines(output));
          const [bracket, ...shown] = r.text.split('\n');
          expect(bracket).toBe(`[${r.id}]`);
          const marker = shown.findIndex((l) => /^\[\d+ lines elided, full output #[0-9a-f]+\]$/.test(l) && l.endsWith(`${r.id}]`));
          if (marker < 0) {
            expect(shown).toEqual(full);
            return;
          }
          capped++;
          const elided = Number(/^\[(\d+)/.exec(shown[marker]!)![1]);
          const head = shown.slice(0, marker);
          const tail = shown.slice(marker + 1);
          expect(head.length + elided + tail.length).toBe(full.length);
          head.forEach((line, i) => {
            if (line.endsWith(' […cut]') && i === 0 && line !== full[0])
              expect(full[0]!.startsWith(line.slice(0, -' […cut]'.length))).toBe(true);
            else expect(line).toBe(full[i]);
          });
          expect(tail).toEqual(full.slice(full.length - tail.length));
          expect(hasLoneSurrogate(r.text) && !hasLoneSurrogate(output)).toBe(false);
        }),
        { numRuns: CAP_RUNS, seed: SEED },
      );
    } finally {
      await rig.close();
    }
    expect(capped).toBeGreaterThan(CAP_RUNS / 10);
  }, 120_000);

  it(`recall returns exactly the stored text, any offset and limit (${RECALL_RUNS} recalls)`, async () => {
    const next = { output: '' };
    const rig = await startLedgerRig({ wrap: (real) => scriptedExec(real, next), hygiene: SMALL_CAP });
    try {
      await fc.assert(
        fc.asyncProperty(
          outputArb,
          fc.integer({ min: 1, max: 80 }),
          fc.option(fc.integer({ min: 1, max: 80 })),
          fc.boolean(),
          async (output, offset, limit, hash) => {
            next.output = output;
            const r = await rig.ledger.execute({ callId: 'b', name: 'bash', input: { command: 'x' } });
            const full = storedLines(output);
            const id = hash ? r.id : r.id.slice(1).toUpperCase();
            const recall = await rig.ledger.execute({
              callId: 'r',
              name: 'recall',
              input: { id, offset, ...(limit === null ? {} : { limit }) },
            });
            if (full.length === 0) {
              expect(recall.text).toBe(`[${recall.id} recall ${r.id} empty]`);
              return;
            }
            if (offset > full.length) {
              expect(recall.isError).toBe(true);
              expect(recall.text).toContain(String(full.length));
              return;
            }
            const wanted = full.slice(offset - 1, offset - 1 + (limit ?? 2000));
            const [bracket, ...body] = recall.text.split('\n');
            expect(bracket).toBe(`[${recall.id} recall ${r.id} lines ${offset}-${offset - 1 + wanted.length} of ${full.length}]`);
            expect(body).toEqual(wanted);
          },
        ),
        { numRuns: RECALL_RUNS, seed: SEED },
      );
    } finally {
      await rig.close();
    }
  }, 120_000);

  it(`ids never repeat, across state restores and reopens over the same store (${ID_RUNS} sessions)`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 6 }), fc.integer(), async (bursts, seed) => {
        const store = new MemoryResultStore();
        const dir = await fs.mkdtemp(join((await import('node:os')).tmpdir(), 'cairn-rel-ids-'));
        try {
          const workspace = new NodeWorkspace(dir, { ripgrepPath: null });
          const config = resolveHygiene({});
          let ledger = new ResultLedger({ workspace, store, config, hashCache: new HashCache() });
          const seen = new Set<string>();
          for (const [i, n] of bursts.entries()) {
            for (let k = 0; k < n; k++) {
              const r: LedgerResult = await ledger.execute({ callId: `c${i}-${k}`, name: k % 3 === 0 ? 'nope' : 'list', input: {} });
              expect(seen.has(r.id), `${r.id} given twice`).toBe(false);
              seen.add(r.id);
            }
            // Alternate a restore from the checkpointed state and a bare reopen over the store.
            ledger =
              i % 2 === 0
                ? ResultLedger.restore(ledger.state(), { workspace, store, config })
                : new ResultLedger({ workspace, store, config });
            if (seed % 5 === 0) ledger.clearDedupe();
          }
          expect(seen.size).toBe(bursts.reduce((a, b) => a + b, 0));
        } finally {
          await fs.rm(dir, { recursive: true, force: true });
        }
      }),
      { numRuns: ID_RUNS, seed: SEED },
    );
  }, 120_000);

  it(`a stub always names a full read of the same file whose hash is the file's (${STUB_RUNS} sequences on real files)`, async () => {
    const files = ['a.txt', 'b.txt', 'dir/c.txt'];
    const contentArb = fc
      .array(fc.constantFrom('alpha', 'beta', '', 'gamma delta', '\u00e9\u00e8', 'x'.repeat(30)), { maxLength: 12 })
      .map((ls) => ls.join('\n') + '\n');
    const op = fc.oneof(
      {
        weight: 5,
        arbitrary: fc.record({
          kind: fc.constant('read' as const),
          file: fc.constantFrom(...files),
          spelling: fc.constantFrom('', './', 'dir/../'),
          offset: fc.option(fc.integer({ min: 1, max: 14 })),
          limit: fc.option(fc.integer({ min: 1, max: 14 })),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({ kind: fc.constant('outside-write' as const), file: fc.constantFrom(...files), content: contentArb }),
      },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('tool-write' as const), file: fc.constantFrom(...files), content: contentArb }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), file: fc.constantFrom(...files) }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
    );
    let stubs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const rig = await startLedgerRig({ files: { 'a.txt': 'alpha\nbeta\n', 'b.txt': 'one\n', 'dir/c.txt': 'c\nc\nc\n' } });
        const fullReads = new Map<string, { path: string; sha: string; from: number; to: number }>();
        try {
          for (const o of ops) {
            if (o.kind === 'outside-write') await fs.writeFile(join(rig.root, o.file), o.content);
            else if (o.kind === 'delete') await fs.rm(join(rig.root, o.file), { force: true });
            else if (o.kind === 'clear') rig.ledger.clearDedupe();
            else if (o.kind === 'tool-write')
              await rig.ledger.execute({ callId: 'w', name: 'write', input: { path: o.file, content: o.content } });
            else {
              const path = o.spelling === 'dir/../' ? `dir/../${o.file}` : `${o.spelling}${o.file}`;
              const input = { path, ...(o.offset === null ? {} : { offset: o.offset }), ...(o.limit === null ? {} : { limit: o.limit }) };
              const r = await rig.ledger.execute({ callId: 'r', name: 'read', input });
              const m = /^\[#[0-9a-f]+ .* lines (\d+)-(\d+) of \d+ sha ([0-9a-f]{8})\]/.exec(r.text);
              if (r.kind === 'full' && m) fullReads.set(r.id, { path: o.file, sha: m[3]!, from: Number(m[1]), to: Number(m[2]) });
              if (r.kind === 'read-stub') {
                stubs++;
                const bytes = await fs.readFile(join(rig.root, o.file));
                const sha = sha256Hex(bytes).slice(0, 8);
                expect(m?.[3], 'the stub bracket carries the file hash').toBe(sha);
                const named = fullReads.get(r.refersTo![0]!);
                expect(named, 'a stub names a full read').toBeDefined();
                expect(named!.path).toBe(o.file);
                expect(named!.sha).toBe(sha);
                expect(named!.from).toBeLessThanOrEqual(Number(m![1]));
                expect(named!.to).toBeGreaterThanOrEqual(Number(m![2]));
                expect(r.text).toContain(`Unchanged since ${r.refersTo![0]}, which already shows lines ${named!.from}-${named!.to}.`);
              }
            }
          }
        } finally {
          await rig.close();
        }
      }),
      { numRuns: STUB_RUNS, seed: SEED },
    );
    expect(stubs).toBeGreaterThan(0);
    console.info(`ledger properties: ${stubs} stubs checked against the file on disk`);
  }, 180_000);
});
