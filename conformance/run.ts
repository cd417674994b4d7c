/**
 * `npm run conformance -- [FILE ...]`: runs conformance files (default `conformance/*.json`) through
 * the real tools, ledger and NodeWorkspace, each case in a fresh temporary folder. Exits non-zero when
 * anything failed.
 */
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NodeWorkspace } from '../src/node/workspace/nodeWorkspace';
import { runFiles } from './runFiles';

async function main(argv: readonly string[]): Promise<number> {
  const here = dirname(fileURLToPath(import.meta.url));
  const files =
    argv.length > 0
      ? argv.map((f) => resolve(process.env.INIT_CWD ?? process.cwd(), f)) // npm runs scripts from the package root; paths are the caller's
      : readdirSync(here)
          .filter((f) => f.endsWith('.json'))
          .sort()
          .map((f) => join(here, f));
  if (files.length === 0) {
    console.error('No conformance files found. Give paths to .json files, or add them to conformance/.');
    return 2;
  }
  const totals = await runFiles(
    files,
    (root) => new NodeWorkspace(root),
    (line) => console.log(line),
  );
  return totals.failed > 0 || totals.passed === 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exitCode = 2;
  },
);
