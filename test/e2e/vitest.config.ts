// The real-editor suite: one code-server + Chromium per test file, files run one after another in a
// single fork (two editors at once would starve a 2-core machine), long timeouts for cold starts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/e2e/**/*.e2e.test.ts'],
    globalSetup: ['test/e2e/globalSetup.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
    maxWorkers: 1,
  },
});
