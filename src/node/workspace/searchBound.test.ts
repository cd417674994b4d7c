import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NodeWorkspace } from './nodeWorkspace';
import { seededRandom } from '../../../test/support/seededRandom';
import { makeTestTree, type TestTree } from '../../../test/support/workspace/testTree';

/**
 * Security round 3, item 16: grep's JavaScript engine and glob's matcher ran on the extension host's
 * thread, so a costly pattern froze the editor (grep on `(a?){5000}a{5000}`: 11.2 s per line, 50 s in
 * all; glob's costliest accepted pattern: seconds on one folder). They now run in a worker thread with
 * a time bound, and ripgrep (a child process) gets the same bound.
 *
 * "Responsive" is observed as a timer that keeps firing while the search runs: on the old code the
 * thread was busy matching and the timer could not fire at all until the search was over. No test
 * here asserts a duration; the small bound only makes the costly searches end quickly.
 */

const ripgrepInstalled = spawnSync('rg', ['--version']).status === 0;
const BOUND_MS = 700;
/**
 * Ticks of a 10 ms interval a free loop gets in the 700 ms bound: about 70. The old code gave 2 or 3
 * (while the walk awaited the disk) and none while it matched.
 */
const RESPONSIVE_TICKS = 15;

/**
 * Runs `search` while a 10 ms interval counts how often the event loop got to run it. The outcome is
 * `Name: message` for an error, else the start of the answer (a failure must not print 27,000 a's).
 */
async function withTicks(search: () => Promise<unknown>): Promise<{ outcome: string; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  try {
    const outcome = await search().then(
      (answer) => `answered ${JSON.stringify(answer).slice(0, 120)}`,
      (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error)),
    );
    return { outcome, ticks };
  } finally {
    clearInterval(timer);
  }
}

let tree: TestTree;
/** A folder of 301 files, 100 folders deep, where glob's costliest accepted pattern takes seconds. */
const DEEP = Array.from({ length: 100 }, () => 'a'.repeat(30)).join('/');
/** 256 brace alternatives (the most accepted), each retrying `**` over 100 folders: about 2 s in one go on the old matcher. */
const COSTLY_GLOB = `**/${'{a,*}/'.repeat(8)}*a*a*b`;
/** About 15,000 automaton steps per character: 0.6 to 1.5 s for each of the 9,000-character lines here. */
const COSTLY_GREP = '(a?){5000}a{5000}';

beforeAll(() => {
  const files: Record<string, string> = {
    'grep/a.txt': `${'a'.repeat(9000)}\n`.repeat(4),
    'grep/other.txt': 'plain line\n',
  };
  for (let n = 0; n < 301; n++) files[`glob/${DEEP}/${String(n).padStart(3, '0')}${'a'.repeat(200)}`] = '';
  // Random a/b lines: ripgrep's lazy DFA thrashes on `a[ab]{30}b$` (17 s over 10 MB here).
  const random = seededRandom(7);
  const abLine = (): string => Array.from({ length: 5000 }, () => (random() < 0.5 ? 'a' : 'b')).join('');
  files['rg/ab.txt'] = Array.from({ length: 600 }, abLine).join('\n');
  tree = makeTestTree(files);
});
afterAll(() => tree.remove());

describe('a costly search does not freeze the thread and ends at the time bound (security item 16)', () => {
  it('grep without ripgrep on (a?){5000}a{5000}: the loop keeps running, the search ends with the time-bound error', async () => {
    const ws = new NodeWorkspace(tree.root, { ripgrepPath: null, searchTimeoutMs: BOUND_MS });
    const { outcome, ticks } = await withTicks(() => ws.grep({ pattern: COSTLY_GREP, path: 'grep' }));
    expect(ticks).toBeGreaterThanOrEqual(RESPONSIVE_TICKS);
    expect(outcome).toMatch(/^SearchTimeoutError: .*simpler pattern.*narrower path.*install ripgrep/s);
    // The next search gets a fresh thread and answers as before.
    expect(await ws.grep({ pattern: 'plain', path: 'grep' })).toEqual([{ path: 'grep/other.txt', line: 1, text: 'plain line' }]);
  }, 60_000);

  it("glob's costliest accepted pattern over a folder of 301 files: the loop keeps running, the search ends with the time-bound error", async () => {
    const ws = new NodeWorkspace(tree.root, { searchTimeoutMs: BOUND_MS });
    const { outcome, ticks } = await withTicks(() => ws.glob(COSTLY_GLOB, 'glob'));
    expect(ticks).toBeGreaterThanOrEqual(RESPONSIVE_TICKS);
    expect(outcome).toMatch(/^SearchTimeoutError: .*simpler pattern.*narrower path/s);
    expect(await ws.glob('*.txt', 'grep')).toEqual(['grep/a.txt', 'grep/other.txt']);
  }, 60_000);

  it.skipIf(!ripgrepInstalled)(
    'ripgrep on a pattern its engine is slow on is stopped at the same bound',
    async () => {
      const ws = new NodeWorkspace(tree.root, { searchTimeoutMs: BOUND_MS });
      expect(await ws.grepEngine()).toBe('ripgrep');
      const { outcome, ticks } = await withTicks(() => ws.grep({ pattern: 'a[ab]{30}b$', path: 'rg' }));
      expect(ticks).toBeGreaterThanOrEqual(RESPONSIVE_TICKS);
      expect(outcome).toMatch(/^SearchTimeoutError: .*simpler pattern.*narrower path/s);
      // ripgrep was stopped, not found unusable: the next search still runs on it.
      expect(await ws.grepEngine()).toBe('ripgrep');
      expect(await ws.grep({ pattern: 'plain', path: 'grep' })).toEqual([{ path: 'grep/other.txt', line: 1, text: 'plain line' }]);
    },
    60_000,
  );

  it("a cancel (the tool's AbortSignal) stops grep and glob at once, and the next search answers", async () => {
    const ws = new NodeWorkspace(tree.root, { ripgrepPath: null });
    const grepCancel = new AbortController();
    const grep = withTicks(() => ws.grep({ pattern: COSTLY_GREP, path: 'grep', signal: grepCancel.signal }));
    setTimeout(() => grepCancel.abort(), 500);
    const globCancel = new AbortController();
    const glob = withTicks(() => ws.glob(COSTLY_GLOB, 'glob', { signal: globCancel.signal }));
    setTimeout(() => globCancel.abort(), 500);
    for (const { outcome, ticks } of [await grep, await glob]) {
      expect(ticks).toBeGreaterThanOrEqual(RESPONSIVE_TICKS);
      expect(outcome).toMatch(/^SearchCancelledError: /);
    }
    const already = new AbortController();
    already.abort();
    await expect(ws.grep({ pattern: 'plain', signal: already.signal })).rejects.toMatchObject({ name: 'SearchCancelledError' });
    expect(await ws.grep({ pattern: 'plain', path: 'grep' })).toEqual([{ path: 'grep/other.txt', line: 1, text: 'plain line' }]);
  }, 60_000);
});
