import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The host tests: `vscode` is the typed shim. The test files also `vi.mock('vscode', …)` themselves, so
 * they run the same under the project's main vitest config.
 */
export default defineConfig({
  resolve: { alias: { vscode: fileURLToPath(new URL('./vscodeShim.ts', import.meta.url)) } },
  test: {
    include: ['test/host/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
});
