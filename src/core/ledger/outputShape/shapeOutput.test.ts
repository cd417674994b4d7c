import { describe, expect, it } from 'vitest';
import { DEFAULT_HYGIENE } from '../../config/hygiene';
import { capText } from '../cap';
import { cutForModel } from '../cutForModel';

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

type Limits = typeof DEFAULT_HYGIENE;
const FAILURES: Limits = { ...DEFAULT_HYGIENE, 'cap.command_output': 'failures' };
const RANGE = /^\[lines (\d+)-(\d+) elided, full output #ab12\]$/;

/** The shaped lines of `text` as the ledger shows them (a command's output, `failures`). */
function shape(text: string, limits: Limits = FAILURES): readonly string[] {
  return cutForModel(text, '#ab12', { ...limits, 'cap.command_output': 'failures' }, true)!;
}

/** What the spec's head-and-tail cut shows of `text`. */
function specCut(text: string, limits: Limits = FAILURES): readonly string[] {
  return capText(text, '#ab12', limits).lines!;
}

describe('the failures shape', () => {
  it('keeps every failure with its detail and the summary, and names each gap by its lines', () => {
    const text = tapRun(300, failures(5, 150, 290));
    const shown = shape(text);
    const joined = shown.join('\n');
    for (const i of [5, 150, 290]) {
      expect(joined).toContain(`    not ok ${i + 1} - case ${i}`);
      expect(joined).toContain(`        ${i + 1} !== ${i}`);
      expect(joined).toContain(`      actual: ${i + 1}`);
    }
    expect(joined).toContain('# fail 3');
    expect(joined).toContain('TAP version 13');
    // Every gap names the lines it stands for, and they are the lines between what is shown around it.
    const all = text.split('\n');
    let next = 1;
    for (const line of shown) {
      const gap = RANGE.exec(line);
      if (gap) {
        expect(Number(gap[1])).toBe(next);
        next = Number(gap[2]) + 1;
      } else {
        expect(line).toBe(all[next - 1]);
        next++;
      }
    }
    expect(next).toBe(all.length + 1);
    expect(shown.length).toBeLessThan(specCut(text).length);
    expect(joined.length).toBeLessThanOrEqual(specCut(text).join('\n').length);
  });

  it('shows a passing run as its first lines, its summary and its last lines, far fewer than head and tail', () => {
    const text = tapRun(300, failures());
    const shown = shape(text);
    expect(specCut(text).length).toBe(301);
    expect(shown.length).toBeLessThanOrEqual(10 + 1 + 30);
    expect(shown.join('\n')).toContain('# pass 300');
  });

  it('names failures, in order, before it shows any detail, as many as the spec cut has room for', () => {
    const many = Array.from({ length: 120 }, (_, i) => i * 2);
    const text = tapRun(240, new Set(many));
    const shown = shape(text);
    const named = many.filter((i) => shown.includes(`    not ok ${i + 1} - case ${i}`));
    // Passes between the failures cost a gap line each: fewer than all 120 fit the spec cut's characters.
    expect(named).toEqual(many.slice(0, named.length));
    expect(named.length).toBeGreaterThan(60);
    const specNames = specCut(text).filter((line) => line.startsWith('    not ok')).length;
    expect(named.length).toBeGreaterThan(2 * specNames);
    if (named.length < many.length) expect(shown.join('\n')).not.toContain('!==');
  });

  it('recognises the failure lines of other runners and tools among passing noise', () => {
    const noise = (block: string): string[] => Array.from({ length: 50 }, (_, i) => `PASS src/${block}${i}.test.ts`);
    const reports = [
      'FAIL src/parse.test.ts',
      '  ● parse › rejects tabs',
      '    expect(received).toThrow()',
      'src/app.ts(3,7): error TS2322: Type "string" is not assignable to type "number".',
      'src/app.c:12:3: error: expected ";"',
      "TypeError: Cannot read properties of undefined (reading 'x')",
      '    at run (src/app.ts:3:7)',
      'error[E0308]: mismatched types',
      'npm ERR! code ELIFECYCLE',
    ];
    const text = [...noise('a'), ...reports.slice(0, 3), ...noise('b'), ...reports.slice(3), ...noise('c')].join('\n');
    const limits = { ...FAILURES, 'cap.max_lines': 60, 'cap.head_lines': 40, 'cap.tail_lines': 20 };
    const shown = shape(text, limits).join('\n');
    for (const report of reports) expect(shown).toContain(report);
    expect(shown).not.toContain('PASS src/b25.test.ts');
    expect(shown).not.toContain('PASS src/a25.test.ts');
  });

  it('cuts a failure line too long for the budget to what is left of it rather than dropping it', () => {
    const text = ['start', `not ok 1 - ${'x'.repeat(30_000)}`, ...Array.from({ length: 500 }, (_, i) => `ok ${i + 2}`), '# fail 1'].join(
      '\n',
    );
    const shown = shape(text);
    const long = shown.find((l) => l.startsWith('not ok 1'))!;
    expect(long.endsWith(' […cut]')).toBe(true);
    expect(long.length).toBeGreaterThan(100);
    expect(shown.join('\n').length).toBeLessThanOrEqual(specCut(text).join('\n').length);
  });

  it('is the spec cut exactly where nothing in the output is recognized', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`).join('\n');
    expect(shape(text)).toEqual(specCut(text));
    expect(shape(`${text}\n[exit code 1]`)).toEqual(specCut(`${text}\n[exit code 1]`));
  });

  it('leaves the spec cut alone when the setting is head-tail, and any body within the cap', () => {
    const text = tapRun(300, failures(5));
    expect(cutForModel(text, '#ab12', DEFAULT_HYGIENE, true)).toEqual(specCut(text));
    expect(cutForModel(tapRun(3, failures(1)), '#ab12', FAILURES, true)).toBeUndefined();
    // Only a command's output is shaped (an MCP tool's text has no status line and keeps the spec's cut).
    expect(cutForModel(text, '#ab12', FAILURES, false)).toEqual(specCut(text));
  });
});
