/**
 * Deterministic tool-result bodies for the crash test: the writing child and the checking parent derive
 * the same body from (session seed, index), so only ids and seqs cross the pipe. Sizes are mostly small
 * with some large ones, so kills land both between records and in the middle of long writes.
 */

import { seededRandom } from '../seededRandom';

export { seededRandom };

/** The id of the `index`-th result of a crash-test session: `#` and five or more hex digits. */
export function crashResultId(index: number): string {
  return `#${(0x10000 + index).toString(16)}`;
}

/** Characters of the `index`-th body: 90% up to 4 KB, 7% up to 100 KB, 3% up to 1 MB. */
function bodySize(random: () => number): number {
  const roll = random();
  if (roll < 0.9) return 1 + Math.floor(random() * 4_000);
  if (roll < 0.97) return 4_000 + Math.floor(random() * 96_000);
  return 100_000 + Math.floor(random() * 900_000);
}

export function crashBody(seed: number, index: number): string {
  const random = seededRandom((seed * 0x9e3779b1 + index * 0x85ebca6b) >>> 0);
  const size = bodySize(random);
  // One distinct line repeated keeps generation cheap while each body still differs from the others.
  const line = `result ${index} of session ${seed}: ${Math.floor(random() * 1e9).toString(36)} "quoted" \\ tab\there é ✓`;
  const lines: string[] = [];
  let chars = 0;
  for (let n = 1; chars < size; n++) {
    const text = `${n} ${line}`;
    lines.push(text);
    chars += text.length + 1;
  }
  return lines.join('\n');
}
