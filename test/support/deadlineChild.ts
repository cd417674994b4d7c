import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as nodePath from 'node:path';
import { build } from 'esbuild';
import { bundleSearchWorker } from './searchWorkerBundle';

export interface DeadlineChildOptions {
  /**
   * The child's standard input: `ignore` (the default, /dev/null) or `held`, a pipe the parent keeps open
   * and never writes to, as a terminal or an editor's pipe would be: reading it waits for ever.
   */
  readonly stdin?: 'ignore' | 'held';
}

/**
 * Runs a snippet of TypeScript in a child Node and kills it after `deadlineMs`. A synchronous hang (a
 * backtracking regex) blocks the test runner's own timers, and a blocked file read holds one of the
 * process's few file-system threads, so a test that must fail on a hang runs the risky call here, where
 * the hang is observable. The snippet's relative imports resolve from `importsFrom` (the calling test's
 * folder, `__dirname`). The search thread's entry is bundled beside the snippet, so glob and grep run as
 * in the extension.
 */
export async function runWithDeadline(
  source: string,
  deadlineMs: number,
  importsFrom: string,
  options: DeadlineChildOptions = {},
): Promise<{ timedOut: boolean; stdout: string; stderr: string }> {
  const bundled = await build({
    stdin: { contents: source, resolveDir: importsFrom, loader: 'ts', sourcefile: 'deadline-snippet.ts' },
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
  });
  const dir = mkdtempSync(nodePath.join(tmpdir(), 'cairn-deadline-'));
  const script = nodePath.join(dir, 'snippet.cjs');
  writeFileSync(script, bundled.outputFiles[0]!.contents);
  await bundleSearchWorker(dir);
  try {
    return await new Promise((resolve) => {
      const child =
        options.stdin === 'held'
          ? spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] })
          : spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      let timedOut = false;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
      const timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, deadlineMs);
      child.on('close', () => {
        clearTimeout(timer);
        child.stdin?.destroy();
        resolve({ timedOut, stdout, stderr });
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
