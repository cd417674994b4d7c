import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'conformance/**/*.test.ts', 'webview-ui/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['test/browser/**', 'test/e2e/**', 'test/host/**', 'node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
