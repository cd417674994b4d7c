import { spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import { dirname } from 'node:path';
import { bundleSearchWorker } from './searchWorkerBundle';

/**
 * Bundles one TypeScript entry into a single script a child Node starts quickly (no TypeScript
 * loader), with the search thread's entry beside it (a child's workspace greps as the extension does).
 */
export async function bundleChild(entry: string, outfile: string): Promise<string> {
  await build({ entryPoints: [entry], outfile, bundle: true, platform: 'node', format: 'iife', target: 'node20', logLevel: 'error' });
  await bundleSearchWorker(dirname(outfile));
  return outfile;
}

/**
 * Builds a V8 startup snapshot of a bundled child (`node --build-snapshot`): a child whose entry warms
 * expensive state while the snapshot is built starts with it already in the heap.
 */
export async function snapshotChild(bundle: string, blob: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const builder = spawn(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', bundle], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    builder.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    builder.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`building the snapshot failed (${code}): ${stderr.slice(-1000)}`)),
    );
  });
  return blob;
}

/** A test's child process (crash and kill suites) spoken to in JSON lines on stdin and read line by line on stdout, with timeouts. */
export class LineChild {
  private readonly lines: string[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private buffered = '';
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;

  /** `script` is a bundled .cjs, or a `.blob` startup snapshot. */
  constructor(script: string) {
    const args = script.endsWith('.blob') ? ['--snapshot-blob', script] : [script];
    this.child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.buffered += chunk;
      for (let nl = this.buffered.indexOf('\n'); nl >= 0; nl = this.buffered.indexOf('\n')) {
        this.lines.push(this.buffered.slice(0, nl));
        this.buffered = this.buffered.slice(nl + 1);
      }
      this.wake();
    });
    // stderr is drained so a chatty child never blocks; its last words are kept for messages.
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => (this.stderr = (this.stderr + chunk).slice(-2000)));
    this.exited = new Promise((resolve) => {
      this.child.on('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      });
    });
    this.child.stdin!.on('error', () => undefined);
  }

  stderr = '';

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  /** The next line, or undefined when the child is gone (all read) or `timeoutMs` passed. */
  async nextLine(timeoutMs = Infinity): Promise<string | undefined> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.ended) return undefined;
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = Number.isFinite(left) ? setTimeout(resolve, left) : undefined;
        this.waiting = () => {
          if (timer) clearTimeout(timer);
          resolve();
        };
      });
    }
    return this.lines.shift();
  }

  send(orders: unknown): void {
    this.child.stdin!.write(`${JSON.stringify(orders)}\n`);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}
