/**
 * npm's own errors and warnings: `npm error …` (npm 9 and later) or `npm ERR! …` (before), one run of them
 * per failure, its first line the finding and the rest its detail (`npm error code ENOTCACHED`, then what
 * was asked and where the log is); `npm warn …` / `npm WARN …` lines as warnings.
 */
import { DETAIL_SCAN } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const ERROR = /^npm (?:error|ERR!)(?: |$)/;
const WARN = /^npm (?:warn|WARN)(?: |$)/;

export const npm: OutputRecognizer = {
  name: 'npm',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    let i = 0;
    while (i < lines.length) {
      const line = lines[i]!;
      if (ERROR.test(line)) {
        // The run goes on across blank lines between npm's error lines (`npm ERR!` … blank … `npm ERR! A complete log…`).
        const detail: number[] = [];
        let next = i + 1;
        while (next < lines.length && next <= i + DETAIL_SCAN) {
          if (ERROR.test(lines[next]!)) detail.push(next);
          else if (lines[next]!.trim() !== '' || !ERROR.test(lines[next + 1] ?? '')) break;
          next++;
        }
        found.push(finding('failure', i, detail));
        i = next;
        continue;
      }
      if (WARN.test(line)) found.push(finding('warning', i));
      i++;
    }
    return found;
  },
};
