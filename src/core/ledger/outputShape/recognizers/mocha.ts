/**
 * Mocha's spec reporter: the `5 passing (14ms)` / `2 failing` / `1 pending` summary, and after it each
 * failure numbered, `  1) parse` with the test's name, the error and its stack indented under it. The
 * numbered lines are read as failures only in an output that has mocha's summary (a numbered list is
 * otherwise just a list).
 */
import { indentedBlock } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const SUMMARY = /^\s+\d+ (?:passing|failing|pending)\b/;
const NUMBERED = /^\s+\d+\) \S/;

export const mocha: OutputRecognizer = {
  name: 'Mocha',
  find(lines: readonly string[]): readonly Finding[] {
    const summaries: Finding[] = [];
    lines.forEach((line, i) => {
      if (SUMMARY.test(line)) summaries.push(finding('summary', i));
    });
    if (summaries.length === 0) return [];
    const found: Finding[] = [...summaries];
    lines.forEach((line, i) => {
      if (NUMBERED.test(line)) found.push(finding('failure', i, indentedBlock(lines, i)));
    });
    return found;
  },
};
