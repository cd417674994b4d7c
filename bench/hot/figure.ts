/**
 * One hot-path figure: the measured work and the unavoidable work beside it, timed alternately in the
 * same run so a noisy shared machine slows both alike. Only the ratio is meant to be compared between runs.
 */
export interface HotFigure {
  readonly group: string;
  readonly name: string;
  /** Median milliseconds of the measured work (or the measured quantity in `unit`). */
  readonly measured: number;
  /** Median milliseconds of the baseline. */
  readonly baseline: number;
  readonly baselineLabel: string;
  /** measured / baseline. */
  readonly ratio: number;
  /** The goal, e.g. `≤ 1.5×`. */
  readonly goal?: string;
  readonly met?: boolean;
  /** Unit of `measured`/`baseline` when not milliseconds. */
  readonly unit?: string;
  readonly note?: string;
}

export interface Paired {
  readonly measured: number;
  readonly baseline: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Runs `measured` and `baseline` alternately `rounds` times after one warm-up each and returns their
 * medians. `setup` runs before each pair, untimed (fresh state for both).
 */
export async function paired(
  rounds: number,
  measured: () => Promise<unknown> | unknown,
  baseline: () => Promise<unknown> | unknown,
  setup?: () => Promise<void> | void,
): Promise<Paired> {
  const a: number[] = [];
  const b: number[] = [];
  for (let i = -1; i < rounds; i++) {
    if (setup) await setup();
    const firstA = i % 2 === 0;
    for (const which of firstA ? ['a', 'b'] : ['b', 'a']) {
      const start = performance.now();
      await (which === 'a' ? measured() : baseline());
      const elapsed = performance.now() - start;
      if (i >= 0) (which === 'a' ? a : b).push(elapsed);
    }
  }
  return { measured: median(a), baseline: median(b) };
}

/**
 * Like `paired`, but alternates blocks of `perBlock` calls of each side (the first call of each block
 * untimed) instead of single calls. For measured work thousands of times smaller than its baseline: with
 * single calls the baseline's garbage (a 10 MB buffer) is often collected inside the next measured call
 * and the figure times V8's collector, not the work. Blocks still interleave, so a machine that slows down
 * slows both sides.
 */
export async function inBlocks(
  blocks: number,
  perBlock: number,
  measured: () => Promise<unknown> | unknown,
  baseline: () => Promise<unknown> | unknown,
): Promise<Paired> {
  const a: number[] = [];
  const b: number[] = [];
  for (let block = 0; block < blocks; block++) {
    for (const [run, into] of block % 2 === 0
      ? ([
          [measured, a],
          [baseline, b],
        ] as const)
      : ([
          [baseline, b],
          [measured, a],
        ] as const)) {
      for (let i = -1; i < perBlock; i++) {
        const start = performance.now();
        await run();
        const elapsed = performance.now() - start;
        if (i >= 0) into.push(elapsed);
      }
    }
  }
  return { measured: median(a), baseline: median(b) };
}

export function figure(
  group: string,
  name: string,
  timing: Paired,
  baselineLabel: string,
  goal?: { readonly text: string; readonly max: number },
  note?: string,
): HotFigure {
  const ratio = timing.baseline > 0 ? timing.measured / timing.baseline : Number.POSITIVE_INFINITY;
  return {
    group,
    name,
    measured: timing.measured,
    baseline: timing.baseline,
    baselineLabel,
    ratio,
    ...(goal ? { goal: goal.text, met: ratio <= goal.max } : {}),
    ...(note ? { note } : {}),
  };
}
