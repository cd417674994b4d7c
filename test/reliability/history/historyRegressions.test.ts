/**
 * Every failure the model-based history suite found (README.md beside this file), shrunk and kept as a named
 * test: the very sequence of moves, replayed with every check after every step.
 */
import fc from 'fast-check';
import { afterEach, describe, it } from 'vitest';
import type { Behaviour } from './behaviour';
import { Compact, Send, type HistoryCommand } from './commands';
import { HistoryModel } from './model';
import { HistoryRig } from './rig';

let rig: HistoryRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/** Replays `moves` on a fresh session, checking everything after each. */
async function replay(moves: readonly HistoryCommand[]): Promise<void> {
  rig = await HistoryRig.start();
  const real = rig;
  await fc.asyncModelRun(() => ({ model: new HistoryModel(), real }), moves);
}

const answer = (...steps: Behaviour['steps']): Behaviour => ({ steps, end: 'answer' });
const readA = [{ tool: 'read', file: 0 }] as const;

describe('found by the model-based history suite', () => {
  it('a compaction keeps no stub naming a read it summarized (seed 2929: two reads of one file, then Compact)', async () => {
    await replay([new Send(answer(readA)), new Send(answer(readA)), new Compact()]);
  });
});
