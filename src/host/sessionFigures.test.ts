import { expect, it } from 'vitest';
import { fakeChildSnapshot } from '../../test/support/subagents/fakeChildRun';
import type { HostNotification } from '../shared/protocol';
import { SessionFigures } from './sessionFigures';
import { UsageMeter } from './usageMeter';

// Issue 29 item 8: a turn's usage line counted a child's compaction requests but not the parent's own, so a
// turn that compacted automatically showed less than it cost.
it("counts the session agent's own compaction requests in the turn's usage line, as a child's are", () => {
  const posted: HostNotification[] = [];
  const figures = new SessionFigures({
    usage: new UsageMeter(),
    turn: () => 3,
    broadcast: (message) => void posted.push(message),
    refreshMeter: () => undefined,
    restoredSummary: async () => null,
  });
  const main = fakeChildSnapshot(0, { input: 100, cacheRead: 0, output: 10, usd: 0.01 });
  const compaction = { ...fakeChildSnapshot(1, { input: 500, cacheRead: 0, output: 50, usd: 0.05 }), purpose: 'compaction' as const };
  figures.observe({ type: 'request_finished', requestIndex: 0, snapshot: main });
  figures.observe({ type: 'request_finished', requestIndex: 1, snapshot: compaction });
  const lines = posted.filter((m): m is Extract<HostNotification, { type: 'turnUsage' }> => m.type === 'turnUsage');
  expect(lines.map((l) => [l.turn, l.inputTokens, l.outputTokens])).toEqual([
    [3, 100, 10],
    [3, 500, 50],
  ]);
});
