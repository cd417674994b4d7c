import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkArgs, TOOL_NAMES } from '../../src/core/tools/args';
import type { LedgerResult } from '../../src/core/ledger/types';
import { startLedgerRig, withFakeExec, type LedgerRig } from './support/ledgerRig';

/**
 * Issue 9: at least 10,000 generated tool calls with wrong, missing, huge or strange arguments go
 * through the real ledger on a real folder. None may throw; each gets an id and a result; a call the
 * argument check refuses is an error result that names what was wrong and how the tool is called.
 * `exec` is faked here (the suite is about arguments; 10,000 processes would be about the machine):
 * commands are counted, and the bash suites elsewhere run real processes.
 */

export const GENERATED_CALLS = 10_000;

let rig: LedgerRig;
const commands: string[] = [];

beforeAll(async () => {
  rig = await startLedgerRig({
    files: {
      'a.txt': 'one\ntwo\nthree\n',
      'src/b.ts': 'export const b = 1;\r\nexport const c = 2;\r\n',
      'bin.dat': new Uint8Array([0, 1, 2, 255]),
    },
    wrap: (real) => withFakeExec(real, commands),
  });
});
afterAll(async () => rig?.close());

const huge = fc.constantFrom('x'.repeat(200_000), 'line\n'.repeat(50_000), '\u{1F600}'.repeat(30_000));
const strangeString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    ' ',
    '\0',
    'a\0b',
    '..',
    '../../etc/passwd',
    '/etc/passwd',
    'C:\\Windows\\win.ini',
    '\\\\server\\share',
    '~',
    '$HOME',
    '\ud800',
    '\udfff',
    '\u202e',
    'NaN',
    '#',
    '#zzzz',
    '#0000',
    '__proto__',
    'constructor',
    '*** Begin Patch',
    '*** Begin Patch\n*** End Patch',
  ),
  huge,
);
const strangeNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0, 1e308, -1, 2 ** 53, Number.MAX_SAFE_INTEGER + 2),
);
const strangeValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: strangeString },
  { weight: 2, arbitrary: strangeNumber },
  { weight: 1, arbitrary: fc.constantFrom(null, undefined, true, false, [], {}, [[]], { nested: { deeper: [1, 'a'] } }) },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
);

/** Arguments shaped like the tool's own, with fields missing, of the wrong kind, extra or huge. */
function shapedInput(tool: string): fc.Arbitrary<unknown> {
  const fields: Record<string, string[]> = {
    read: ['path', 'offset', 'limit'],
    write: ['path', 'content'],
    edit: ['path', 'old_string', 'new_string', 'replace_all'],
    multiedit: ['path', 'edits'],
    apply_patch: ['patch'],
    list: ['path'],
    glob: ['pattern', 'path'],
    grep: ['pattern', 'path', 'glob', 'ignore_case'],
    bash: ['command', 'timeout_ms'],
    recall: ['id', 'offset', 'limit'],
  };
  const own = fields[tool] ?? ['path'];
  const key = fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(...own) },
    { weight: 1, arbitrary: fc.constantFrom('toString', 'constructor', 'hasOwnProperty', 'extra', '', 'PATH', 'valueOf') },
    { weight: 1, arbitrary: fc.string() },
  );
  const editsValue = fc.array(
    fc.dictionary(fc.constantFrom('old_string', 'new_string', 'replace_all', 'x'), strangeValue, { maxKeys: 4 }),
    { maxLength: 3 },
  );
  return fc.dictionary(key, fc.oneof(strangeValue, editsValue), { maxKeys: 5 });
}

const callArb = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(...TOOL_NAMES).chain((name) => fc.record({ name: fc.constant<string>(name), input: shapedInput(name) })),
  },
  { weight: 2, arbitrary: fc.record({ name: fc.constantFrom<string>(...TOOL_NAMES), input: strangeValue }) },
  {
    weight: 1,
    arbitrary: fc.record({
      name: fc.oneof(strangeString, fc.constantFrom('Read', 'READ', 'read ', ' bash', 'hasOwnProperty', 'toString', '__proto__')),
      input: strangeValue,
    }),
  },
);

it(`${GENERATED_CALLS} generated calls with bad arguments: none throws, each is answered and says what was wrong`, async () => {
  const seen = new Set<string>();
  const tally = { refused: 0, unknownTool: 0, ranAnyway: 0, errorsFromTools: 0 };
  let n = 0;
  await fc.assert(
    fc.asyncProperty(callArb, async ({ name, input }) => {
      n++;
      const callId = `toolu_${n}`;
      const check = checkArgs(name, input);
      let result: LedgerResult;
      try {
        result = await rig.ledger.execute({ callId, name, input });
      } catch (error) {
        throw new Error(`execute threw for ${name.slice(0, 40)}: ${String(error)}`, { cause: error });
      }
      expect(result.id).toMatch(/^#[0-9a-f]{4,}$/);
      expect(seen.has(result.id), `id ${result.id} given twice`).toBe(false);
      seen.add(result.id);
      expect(result.text.startsWith(`[${result.id}`)).toBe(true);
      expect(rig.store.has(result.id)).toBe(true);
      if (!check.ok) {
        tally.refused++;
        if (check.message.startsWith('Unknown tool')) tally.unknownTool++;
        expect(result.isError).toBe(true);
        expect(result.kind).toBe('error');
        // The message says what was wrong: the unknown tool (with the list), or the bad argument and the usage.
        expect(result.text).toMatch(/Unknown tool .*The tools are: |Bad arguments for [a-z_]+: .*takes \{/s);
      } else {
        tally.ranAnyway++;
        if (result.isError) {
          tally.errorsFromTools++;
          expect(result.text.length).toBeGreaterThan(`[${result.id}] `.length);
        }
      }
      // What the model sees stays bounded however huge the arguments (the cap, or a short error).
      expect(result.text.length).toBeLessThan(41_000);
    }),
    { numRuns: GENERATED_CALLS, seed: Number(process.env.CAIRN_FUZZ_SEED ?? 9009), endOnFailure: true },
  );
  expect(n).toBeGreaterThanOrEqual(GENERATED_CALLS);
  expect(seen.size).toBe(n);
  console.info(
    `generated tool calls: ${n} calls, ${tally.refused} refused by the argument check (${tally.unknownTool} unknown tools), ${tally.ranAnyway} valid and run (${tally.errorsFromTools} of them tool errors), ${commands.length} fake execs`,
  );
}, 240_000);

it('an error never echoes a huge argument back in full (found by this suite: 60 KB and 200 KB errors)', async () => {
  const wrongType = await rig.ledger.execute({ callId: 'big-1', name: 'bash', input: '\u{1F600}'.repeat(30_000) });
  expect(wrongType.isError).toBe(true);
  expect(wrongType.text).toMatch(/the arguments must be an object, got string "(\u{1F600})+…" \(60002 characters\)/u);
  expect(wrongType.text).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  expect(wrongType.text.length).toBeLessThan(1_000);
  const unknownTool = await rig.ledger.execute({ callId: 'big-2', name: 'x'.repeat(100_000), input: {} });
  expect(unknownTool.text).toMatch(/Unknown tool "x+…" \(100002 characters\)\. The tools are: /);
  // grep's refusal quotes the pattern in full (glob's refuses a long pattern without quoting it all).
  const hugePattern = await rig.ledger.execute({ callId: 'big-3', name: 'grep', input: { pattern: `${'x'.repeat(200_000)}(` } });
  expect(hugePattern.isError).toBe(true);
  expect(hugePattern.text.length).toBeLessThan(2_100);
  expect(hugePattern.text.endsWith(' […cut]')).toBe(true);
  // The store keeps the whole message: recall shows what was cut.
  const stored = await rig.store.readLines(hugePattern.id, 1, 5);
  expect(stored!.lines.join('\n').length).toBeGreaterThan(200_000);
});

it('keys from Object.prototype are unknown arguments, not silently accepted', async () => {
  for (const key of ['constructor', 'toString', 'hasOwnProperty']) {
    const r = await rig.ledger.execute({ callId: `proto-${key}`, name: 'read', input: { path: 'a.txt', [key]: 1 } });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`Unknown argument "${key}"`);
  }
});
