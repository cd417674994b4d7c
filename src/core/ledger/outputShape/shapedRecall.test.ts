import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveHygiene } from '../../config/hygiene';
import { parseElidedLine } from '../../text/elidedLine';
import { HashCache } from '../../tools/hashCache';
import { FakeWorkspace } from '../../../../test/support/workspace/fakeWorkspace';
import { MemoryResultStore } from '../../../../test/support/ledger/memoryResultStore';
import { IdAllocator } from '../ids';
import { ResultLedger } from '../resultLedger';

/**
 * Through the ledger, as the model meets it: a long test run under `cap.command_output: "failures"` is shown
 * with several gaps, and recalling each gap's range (its first line as `offset`, its length as `limit`)
 * answers exactly the lines that gap left out, for the second gap and every later one as for the first.
 */

const PYTEST = readFileSync(join(__dirname, '../../../../test/fixtures/commandOutput/pytest-verbose.txt'), 'utf8');

function ledgerRunning(output: string) {
  const workspace = new FakeWorkspace({}, () => ({ output, exitCode: 1, timedOut: false, cancelled: false }));
  const config = resolveHygiene({ 'cap.command_output': 'failures', 'cap.max_lines': 100, 'cap.head_lines': 60, 'cap.tail_lines': 30 });
  const hashCache = new HashCache({ clock: { now: () => 10 ** 12 } });
  return new ResultLedger({ workspace, store: new MemoryResultStore(), config, hashCache, ids: new IdAllocator({ digits: 4, seed: 7 }) });
}

describe('a shaped output recalled gap by gap', () => {
  it('answers each gap’s recall with exactly the lines the gap stands for', async () => {
    const ledger = ledgerRunning(`${PYTEST}\n`);
    const run = await ledger.execute({ callId: 'c1', name: 'bash', input: { command: 'python3 -m pytest -v' } });
    const stored = `${PYTEST}\n[exit code 1]`.split('\n');
    const gaps = run.text
      .split('\n')
      .map(parseElidedLine)
      .filter((gap) => gap !== undefined);
    expect(gaps.length).toBeGreaterThan(2);
    for (const gap of gaps) {
      expect(gap.resultId).toBe(run.id);
      const { from, to } = gap.range!;
      const recalled = await ledger.execute({
        callId: `r${from}`,
        name: 'recall',
        input: { id: run.id, offset: from, limit: to - from + 1 },
      });
      const [bracket, ...lines] = recalled.text.split('\n');
      expect(bracket).toBe(`[${recalled.id} recall ${run.id} lines ${from}-${to} of ${stored.length}]`);
      expect(lines).toEqual(stored.slice(from - 1, to));
    }
  });
});
