/** The highest RSS seen while `work` runs, sampled every few milliseconds, above the RSS before it. */
export async function peakRssGrowth<T>(work: () => Promise<T>): Promise<{ value: T; growthBytes: number }> {
  const before = process.memoryUsage.rss();
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    const value = await work();
    peak = Math.max(peak, process.memoryUsage.rss());
    return { value, growthBytes: peak - before };
  } finally {
    clearInterval(timer);
  }
}

export const MB = 1024 * 1024;
