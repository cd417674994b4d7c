/**
 * `npm run bench -- hot`: every hot path as a ratio against the unavoidable work beside it, in one run.
 * Default sizes keep the run to a few minutes on 2 shared cores; `--heavy` runs the full sizes
 * (100,000 stored results for recall, 1 GB of outputs for the heap), which take several minutes more
 * because every journal append is durable (one fdatasync each).
 */
import { composeScaling } from './composeCost';
import type { HotFigure } from './figure';
import { journalAppends, recallLatency, heapAfterStoring } from './journalCost';
import { diffReply, ledgerPerResult, unchangedReread } from './ledgerCost';
import { webviewRender } from './webviewCost';

export type { HotFigure } from './figure';

export interface HotOptions {
  readonly heavy: boolean;
  readonly progress?: ((line: string) => void) | undefined;
}

export async function runHot(options: HotOptions): Promise<HotFigure[]> {
  const say = options.progress ?? (() => undefined);
  const out: HotFigure[] = [];
  const step = async (label: string, run: () => Promise<HotFigure | HotFigure[]>) => {
    say(`hot: ${label} …`);
    const got = await run();
    out.push(...(Array.isArray(got) ? got : [got]));
  };
  await step('ledger per result', () => ledgerPerResult([1024, 2 ** 20, 10 * 2 ** 20], 7));
  await step('unchanged re-read', () => unchangedReread(9));
  await step('diff reply', () => diffReply(5));
  await step('compose', () => composeScaling([10, 100, 1_000, 5_000], 7));
  await step('journal appends', () => journalAppends(400));
  await step('recall latency', () => recallLatency(options.heavy ? 100_000 : 5_000, 200));
  await step('heap after storing', () => heapAfterStoring(options.heavy ? 1024 : 256));
  await step('webview', () => webviewRender());
  return out;
}
