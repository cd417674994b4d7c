import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SEARCH_WORKER = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src', 'node', 'workspace', 'searchWorker.ts');

/**
 * Bundles the search thread's entry as `<outDir>/searchWorker.js`. A test that bundles code using
 * `NodeWorkspace` into a child script must put it beside that script: glob and grep start their
 * thread from `searchWorker.js` next to the running bundle, as `dist/` holds it beside `extension.js`
 * (`searchThreads.ts`).
 */
export async function bundleSearchWorker(outDir: string): Promise<void> {
  await build({
    entryPoints: [SEARCH_WORKER],
    outfile: join(outDir, 'searchWorker.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
}
