import { expect, it } from 'vitest';
import { checkpointMarkdown, measureShape, SMOKE_SHAPE } from './checkpointCost';

/** The smoke of the checkpoint bench (`npm run bench -- checkpoints` measures the real sizes). */
it('measures a checkpointed turn on a small git workspace and covers its changes', async () => {
  const row = await measureShape(SMOKE_SHAPE, 2);
  expect(row.covered).toBe(true);
  expect(row.toolMs).toBeGreaterThan(0);
  expect(checkpointMarkdown([row])).toContain('200 files (smoke)');
}, 60_000);
