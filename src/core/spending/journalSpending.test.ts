import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../journal/records';
import { spentInJournal } from './journalSpending';

/** A journal's records as `readAll` gives them, filtered by type as the real journal filters them. */
function journal(records: readonly unknown[]) {
  return {
    async *readAll(options: { types?: readonly string[] }): AsyncIterable<JournalRecord> {
      for (const record of records as JournalRecord[]) if (!options.types || options.types.includes(record.type)) yield record;
    },
  };
}

describe("what a reopened session had spent (the session cap's starting point)", () => {
  it("adds every request's cost, its sub-agents' included; a request without a price adds nothing", async () => {
    const spent = await spentInJournal(
      journal([
        { type: 'snapshot', snapshot: { cost: { usd: 0.25 } } },
        { type: 'snapshot', snapshot: { cost: null } },
        { type: 'subagent_record', agent: 'explore-1', record: { type: 'snapshot', snapshot: { cost: { usd: 0.5 } } } },
        { type: 'subagent_record', agent: 'explore-1', record: { type: 'notice', level: 'info', kind: 'x', message: 'y' } },
        { type: 'user_message', text: 'cost: { usd: 9 }' },
      ]),
    );
    expect(spent).toBeCloseTo(0.75, 10);
  });
});
