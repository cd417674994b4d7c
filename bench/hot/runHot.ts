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
  /** Run only these groups (`ledger`, `diff`, `compose`, `journal`, `webview`); all when absent. */
  readonly only?: ReadonlySet<string>;
}

export async function runHot(options: HotOptions): Promise<HotFigure[]> {
  const say = options.progress ?? (() => undefined);
  const out: HotFigure[] = [];
  const step = async (label: string, run: () => Promise<HotFigure | HotFigure[]>, group: string) => {
    if (options.only && !options.only.has(group)) return;
    say(`hot: ${label} …`);
    const got = await run();
    out.push(...(Array.isArray(got) ? got : [got]));
  };
  await step('ledger per result', () => ledgerPerResult([1024, 2 ** 20, 10 * 2 ** 20], 7), 'ledger');
  await step('unchanged re-read', () => unchangedReread(9), 'ledger');
  await step('diff reply', () => diffReply(5), 'diff');
  await step('compose', () => composeScaling([10, 100, 1_000, 5_000], 7), 'compose');
  await step('journal appends', () => journalAppends(400), 'journal');
  await step('recall latency', () => recallLatency(options.heavy ? 100_000 : 5_000, 200), 'journal');
  await step('heap after storing', () => heapAfterStoring(options.heavy ? 1024 : 256), 'journal');
  await step('webview', () => webviewRender(), 'webview');
  return out;
}
