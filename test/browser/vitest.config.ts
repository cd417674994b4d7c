import { defineConfig } from 'vitest/config';

/** The webview's browser tests: real Chromium, one file at a time (the machine is small and shared). */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.browser.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
