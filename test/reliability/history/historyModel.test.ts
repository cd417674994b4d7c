/**
 * The model-based history suite in `npm test` (README.md beside this file): a fixed seed, 200 sequences of up
 * to 40 moves, every check after every step. `CAIRN_HISTORY_SEED` / `CAIRN_HISTORY_RUNS` replay or widen a run;
 * the long run is `npm run bench -- history --runs N --seed S`.
 */
import { describe, expect, it } from 'vitest';
import { runHistory } from './run';

const SEED = Number(process.env.CAIRN_HISTORY_SEED ?? 2929);
const RUNS = Number(process.env.CAIRN_HISTORY_RUNS ?? 200);

describe('one history: random sequences of moves against the real session and the local server', () => {
  it(`${RUNS} sequences of up to 40 moves keep every invariant after every step (seed ${SEED})`, { timeout: 900_000 }, async () => {
    const path = process.env.CAIRN_HISTORY_PATH;
    const result = await runHistory({ runs: RUNS, seed: SEED, ...(path ? { path } : {}) });
    expect(result.failures.map((f) => f.report)).toEqual([]);
    expect(result.sequences).toBe(RUNS);
    const { stats } = result;
    // The sequences must reach every move and every automatic change, or the suite proves less than it says.
    for (const move of ['send', 'retry', 'compact', 'undo', 'edit and resend', 'restore', 'idle', 'reopen', 'crash', 'move while busy']) {
      expect(stats.moves.get(move) ?? 0, move).toBeGreaterThan(0);
    }
    expect(stats.autoCompactions).toBeGreaterThan(0);
    expect(stats.elisions).toBeGreaterThan(0);
    expect(stats.undos).toBeGreaterThan(0);
    expect(stats.conversationRestores).toBeGreaterThan(0);
    expect(stats.crashes).toBeGreaterThan(0);
    expect(stats.children).toBeGreaterThan(0);
  });
});
