import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../config/hygiene';
import { capText } from './cap';
import { shapeFailuresFirst } from './outputShape';

/** A `node --test` run as Node 20 prints it: a suite of `cases` tests, the ones in `failing` failing. */
function tapRun(cases: number, failing: ReadonlySet<number>): string {
  const lines = ['TAP version 13', '# Subtest: round trips'];
  for (let i = 0; i < cases; i++) {
    lines.push(`    # Subtest: case ${i}`);
    if (failing.has(i)) {
      lines.push(
        `    not ok ${i + 1} - case ${i}`,
        '      ---',
        '      duration_ms: 0.5',
        "      failureType: 'testCodeFailure'",
        '      error: |-',
        '        Expected values to be strictly equal:',
        `        ${i + 1} !== ${i}`,
        `      expected: ${i}`,
        `      actual: ${i + 1}`,
        '      stack: |-',
        '        TestContext.<anonymous> (file:///w/test/suite.test.mjs:4:64)',
        '      ...',
      );
    } else {
      lines.push(`    ok ${i + 1} - case ${i}`, '      ---', '      duration_ms: 0.1', '      ...');
    }
  }
  lines.push(`    1..${cases}`, `${failing.size > 0 ? 'not ok' : 'ok'} 1 - round trips`, '  ---', "  type: 'suite'", '  ...', '1..1');
  lines.push(`# tests ${cases}`, '# suites 1', `# pass ${cases - failing.size}`, `# fail ${failing.size}`, '# cancelled 0');
  lines.push('# skipped 0', '# todo 0', '# duration_ms 41.5');
  return lines.join('\n');
}

const failures = (...at: number[]): Set<number> => new Set(at);

describe('shapeFailuresFirst', () => {
  it('keeps every failure with its detail and the summary, and marks each gap with the id', () => {
    const text = tapRun(300, failures(5, 150, 290));
    const shaped = shapeFailuresFirst(text, '#ab12', DEFAULT_HYGIENE);
    const shown = shaped.lines.join('\n');
    for (const i of [5, 150, 290]) {
      expect(shown).toContain(`    not ok ${i + 1} - case ${i}`);
      expect(shown).toContain(`        ${i + 1} !== ${i}`);
      expect(shown).toContain(`      actual: ${i + 1}`);
    }
    expect(shown).toContain('# fail 3');
    expect(shown).toContain('TAP version 13');
    expect(shaped.lines.filter((l) => l.startsWith('[')).every((l) => /^\[\d+ lines elided, full output #ab12\]$/.test(l))).toBe(true);
    // Kept lines keep their order and the gaps add up to what was left out.
    const kept = shaped.lines.filter((l) => !/^\[\d+ lines elided/.test(l));
    const all = text.split('\n');
    let from = 0;
    for (const line of kept) {
      from = all.indexOf(line, from) + 1;
      expect(from).toBeGreaterThan(0);
    }
    const gaps = shaped.lines.map((l) => /^\[(\d+) lines elided/.exec(l)?.[1]).filter(Boolean);
    expect(gaps.reduce((sum, n) => sum + Number(n), 0)).toBe(shaped.elided);
    expect(kept.length + shaped.elided).toBe(all.length);
  });

  it('shows a passing run as its first and last lines, far fewer than head and tail', () => {
    const text = tapRun(300, failures());
    const shaped = shapeFailuresFirst(text, '#ab12', DEFAULT_HYGIENE);
    const headTail = capText(text, '#ab12', DEFAULT_HYGIENE).lines!;
    expect(shaped.lines.length).toBeLessThanOrEqual(10 + 1 + 30);
    expect(headTail.length).toBe(301);
    expect(shaped.lines.join('\n')).toContain('# pass 300');
  });

  it('shows every failure line before any detail when there are too many for the budget', () => {
    const many = new Set(Array.from({ length: 120 }, (_, i) => i * 2));
    const text = tapRun(240, many);
    const shaped = shapeFailuresFirst(text, '#ab12', DEFAULT_HYGIENE);
    const shown = shaped.lines.join('\n');
    for (const i of many) expect(shown).toContain(`    not ok ${i + 1} - case ${i}\n`);
    expect(shown).toContain('        1 !== 0');
    const keptLines = shaped.lines.filter((l) => !/^\[\d+ lines elided/.test(l));
    expect(keptLines.length).toBe(DEFAULT_HYGIENE['cap.head_lines'] + DEFAULT_HYGIENE['cap.tail_lines']);
    expect(keptLines.join('\n').length).toBeLessThanOrEqual(DEFAULT_HYGIENE['cap.head_chars'] + DEFAULT_HYGIENE['cap.tail_chars']);
  });

  it('recognises the failure lines of other runners and tools', () => {
    const noise = (block: string): string[] => Array.from({ length: 50 }, (_, i) => `PASS src/${block}${i}.test.ts`);
    const reports = [
      'FAIL src/parse.test.ts',
      '  ● parse › rejects tabs',
      '    expect(received).toThrow()',
      'src/app.ts(3,7): error TS2322: Type "string" is not assignable to type "number".',
      'src/app.c:12:3: error: expected ";"',
      '   4:10  error  "x" is defined but never used  no-unused-vars',
      "TypeError: Cannot read properties of undefined (reading 'x')",
      '    at run (src/app.ts:3:7)',
      'E       assert 2 == 3',
      'error[E0308]: mismatched types',
      'npm ERR! code ELIFECYCLE',
    ];
    const text = [...noise('a'), ...reports.slice(0, 3), ...noise('b'), ...reports.slice(3), ...noise('c')].join('\n');
    const limits = { ...DEFAULT_HYGIENE, 'cap.max_lines': 60, 'cap.head_lines': 40, 'cap.tail_lines': 20 };
    const shown = shapeFailuresFirst(text, '#ab12', limits).lines.join('\n');
    for (const report of reports) expect(shown).toContain(report);
    expect(shown).not.toContain('PASS src/b25.test.ts');
    expect(shown).not.toContain('PASS src/a25.test.ts');
  });

  it('cuts a line longer than the head budget rather than dropping it', () => {
    const text = ['start', `not ok 1 - ${'x'.repeat(30_000)}`, ...Array.from({ length: 500 }, (_, i) => `ok ${i + 2}`)].join('\n');
    const shaped = shapeFailuresFirst(text, '#ab12', DEFAULT_HYGIENE);
    const long = shaped.lines.find((l) => l.startsWith('not ok 1'))!;
    expect(long.endsWith(' […cut]')).toBe(true);
    expect(long.length).toBeLessThanOrEqual(DEFAULT_HYGIENE['cap.head_chars'] + 8);
  });
});
