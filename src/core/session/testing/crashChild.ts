import { spawn, type ChildProcess } from 'node:child_process';
import { build } from 'esbuild';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CrashOrders } from './crashWriter';

/**
 * The parent's side of the crash test: builds the writer child once into a single file (Node starts it
 * far faster than through a TypeScript loader), and drives one child per kill over stdin/stdout lines.
 */
export async function buildCrashWriter(outDir: string): Promise<string> {
  return buildTestChild('crashWriter', outDir);
}

/** Bundles `testing/<name>.ts` into `<outDir>/<name>.mjs` for a child process to run. */
export async function buildTestChild(name: string, outDir: string): Promise<string> {
  const outfile = join(outDir, `${name}.mjs`);
  await build({
    entryPoints: [join(dirname(fileURLToPath(import.meta.url)), `${name}.ts`)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
  });
  return outfile;
}

export class CrashChild {
  private readonly lines: string[] = [];
  private waiting: (() => void) | undefined;
  private ended = false;
  private buffered = '';
  readonly exited: Promise<void>;
  private readonly child: ChildProcess;

  constructor(script: string) {
    this.child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (chunk: string) => {
      this.buffered += chunk;
      let newline;
      while ((newline = this.buffered.indexOf('\n')) >= 0) {
        this.lines.push(this.buffered.slice(0, newline));
        this.buffered = this.buffered.slice(newline + 1);
      }
      this.wake();
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', () => {
        this.ended = true;
        this.wake();
        resolve();
      });
    });
    // A write to a child that was just killed must not crash the parent.
    this.child.stdin!.on('error', () => undefined);
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.();
  }

  /** The next line the child printed, or undefined once it is gone and every line was read. */
  async nextLine(): Promise<string | undefined> {
    while (this.lines.length === 0) {
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.waiting = resolve));
    }
    return this.lines.shift();
  }

  send(orders: CrashOrders): void {
    this.child.stdin!.write(`${JSON.stringify(orders)}\n`);
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/**
 * Where process-crash and heap tests keep their files: a RAM file system when there is room. A SIGKILL
 * loses the process, not the page cache, so these tests are about process crashes, and fsync is not what
 * they measure; on tmpfs disk flushes stay off the clock.
 */
export async function scratchRoot(): Promise<string> {
  try {
    const stats = await fs.statfs('/dev/shm');
    if (stats.bavail * stats.bsize > 512 * 1024 * 1024) return '/dev/shm';
  } catch {
    // No /dev/shm here.
  }
  return tmpdir();
}
