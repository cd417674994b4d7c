/**
 * gcc, clang and the tools a C or C++ build runs: a located diagnostic `parse.c:8:5: error: expected ‘;’`
 * with its code frame (`    8 |     for (…`, `      |     ^~~`) and its notes up to the next diagnostic,
 * kept with the `parse.c: In function ‘count_orders’:` line above it; `gcc: error: …` and `collect2:
 * error: ld returned 1 exit status` without a location; the linker's `undefined reference to`; make's
 * `make: *** [Makefile:4: all] Error 1`; and clang's `1 warning and 3 errors generated.` as the summary.
 */
import { blockUntil } from './detail';
import { finding, type Finding, type OutputRecognizer } from './finding';

const LOCATED = /^\S.*?:\d+(?::\d+)?: (fatal error|error|warning): /;
const NOTE = /^\S.*?:\d+(?::\d+)?: note: /;
const TOOL = /^(?:\S*\/)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+|cc1|cc1plus|ld|ld\.\w+|collect2|as)(?:-\d+)?: (fatal error|error|warning): /;
const LINKER = /: undefined reference to /;
const MAKE = /^make(?:\[\d+\])?: \*\*\* /;
/** The line naming the function (or file) the diagnostics under it are in. */
const CONTEXT =
  /^\S.*?: (?:In (?:function|member function|constructor|destructor|static member function|instantiation of|lambda function)\b.*|At top level):$|^In file included from |^\S.*: in function [`'‘].*:$/;
/** A line of a diagnostic's code frame: `    8 |     for (…`, `      |     ^~~`, clang's fix-it under it. */
const FRAME = /^\s*\d*\s*\|/;
const GENERATED = /^\d+ (?:warnings?|errors?)(?: and \d+ (?:warnings?|errors?))? generated\.$/;

/** Whether `line` names the function or file the diagnostics under it are in (the cheap test first: most lines are not). */
function namesContext(line: string): boolean {
  const may =
    line.includes(': In ') ||
    line.includes(': At top level:') ||
    line.startsWith('In file included from ') ||
    line.includes(': in function ');
  return may && CONTEXT.test(line);
}

export const gcc: OutputRecognizer = {
  name: 'gcc / clang',
  find(lines: readonly string[]): readonly Finding[] {
    const found: Finding[] = [];
    let context: number | undefined;
    lines.forEach((line, i) => {
      // A diagnostic says what it is (`error:`, `warning:`); most lines of a long output do not, and skip the scans.
      const diagnostic = line.includes('error: ') || line.includes('warning: ');
      const located = diagnostic ? (LOCATED.exec(line) ?? TOOL.exec(line)) : null;
      if (namesContext(line)) context = i;
      else if (located) {
        // Its code frame and its notes (each with its own frame) belong to it.
        const detail = blockUntil(lines, i, (next) => !FRAME.test(next) && !NOTE.test(next));
        found.push(finding(located[1] === 'warning' ? 'warning' : 'failure', i, detail, context));
      } else if (LINKER.test(line)) found.push(finding('failure', i, [], context));
      else if (MAKE.test(line)) found.push(finding('failure', i));
      else if (GENERATED.test(line)) found.push(finding('summary', i));
    });
    return found;
  },
};
