import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodePath from 'node:path';
import type * as WorkerThreads from 'node:worker_threads';
import type { Worker } from 'node:worker_threads';
import { SearchCancelledError, SearchThreadError, type SearchBound } from './searchBound';
import { reviveError, type ProgressReply, type SearchReply, type SearchRequest } from './searchProtocol';

/** Searches running at once; more wait for a free thread (a model may ask for many in one turn). */
const MAX_THREADS = 4;
/** Threads kept started between searches (each holds a V8 heap; one saves the start of the next search). */
const KEEP_IDLE = 1;
/**
 * The thread's young generation: its garbage is short-lived (each line's string, each batch), so a
 * small one keeps the process's memory where it was when grep ran on the editor's thread (a million
 * matching lines: about 280 MB of peak growth either way; 15 to 30 MB more with V8's default).
 */
const YOUNG_GENERATION_MB = 4;
/** A thread that has not loaded by then will not: a broken install, not a costly pattern. */
const START_TIMEOUT_MS = 60_000;

/**
 * `node:worker_threads`, loaded when the first search starts a thread rather than with this module:
 * a process built from a V8 startup snapshot (the crash suite's child) cannot start threads if the
 * module was loaded while the snapshot was made.
 */
function workerThreads(): typeof WorkerThreads {
  return createRequire(__filename)('node:worker_threads') as typeof WorkerThreads;
}

/** The worker's file, and the Node options it needs to load. */
export interface WorkerScript {
  readonly file: string;
  readonly execArgv: readonly string[];
}

/**
 * Where the search thread's entry is: `searchWorker.js` beside this code in the bundle (`dist/`, and
 * a test's bundled child), else the TypeScript source beside it, loaded through tsx (tests and the
 * headless runner run from sources; a worker does not inherit `--import tsx`, so tsx's require hook
 * is given to it by path).
 */
export function searchWorkerScript(dir: string = __dirname): WorkerScript {
  const bundled = nodePath.join(dir, 'searchWorker.js');
  if (existsSync(bundled)) return { file: bundled, execArgv: [] };
  const source = nodePath.join(dir, 'searchWorker.ts');
  if (existsSync(source)) return { file: source, execArgv: ['--require', createRequire(__filename).resolve('tsx/cjs')] };
  throw new SearchThreadError(
    `Cairn's search thread (searchWorker.js) is missing from ${dir}, so glob and grep cannot run. ` +
      'Reinstall the extension (in a checkout of Cairn, run `node esbuild.mjs`).',
  );
}

export interface SearchRun {
  /** The search's time bound: its clock starts when the request reaches a started thread. */
  readonly bound: SearchBound;
  /** The error a search past its bound fails with (it names the pattern and what to do). */
  readonly timedOut: () => Error;
  readonly what: 'glob' | 'grep';
  readonly signal?: AbortSignal;
  readonly onReply: (reply: ProgressReply) => void;
}

/** How one request ended on its thread, and whether the thread can take the next one. */
interface Outcome {
  readonly error?: unknown;
  readonly reusable: boolean;
}

/**
 * The search threads: started lazily, one per running search (so stopping one stops no other), at
 * most `MAX_THREADS`, one kept idle and unref'd (it never keeps a process alive). A search past its
 * bound, or cancelled, has its thread terminated (V8 stops it mid-loop) and the next search gets a
 * fresh one.
 */
export class SearchThreads {
  private script: WorkerScript | undefined;
  private readonly idle: Worker[] = [];
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly locate: () => WorkerScript = searchWorkerScript) {}

  async run(request: SearchRequest, run: SearchRun): Promise<void> {
    if (run.signal?.aborted) throw new SearchCancelledError(run.what);
    await this.turn(run);
    let worker: Worker | undefined;
    let outcome: Outcome = { reusable: false };
    try {
      worker = this.idle.pop() ?? (await this.start(run));
      worker.ref();
      outcome = await exchange(worker, request, run);
    } finally {
      if (worker) this.release(worker, outcome.reusable);
      this.running--;
      this.waiting.shift()?.();
    }
    if ('error' in outcome) throw outcome.error;
  }

  /** Waits for a free place (a cancel while waiting ends the wait). */
  private async turn(run: SearchRun): Promise<void> {
    while (this.running >= MAX_THREADS) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(new SearchCancelledError(run.what));
        };
        const wake = (): void => {
          run.signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiting.push(wake);
        run.signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
    this.running++;
  }

  private start(run: SearchRun): Promise<Worker> {
    this.script ??= this.locate();
    const script = this.script;
    const broken = (why: string): SearchThreadError =>
      new SearchThreadError(`Cairn could not start its search thread (${script.file}): ${why}. Reinstall the extension.`);
    let worker: Worker;
    try {
      worker = new (workerThreads().Worker)(script.file, {
        execArgv: [...script.execArgv],
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      });
    } catch (error) {
      throw broken(error instanceof Error ? error.message : String(error));
    }
    // Always listened to: an 'error' with no listener would be thrown on this thread. A thread that
    // ends while idle leaves the idle list.
    worker.on('error', () => {});
    worker.on('exit', () => {
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
    });
    return new Promise<Worker>((resolve, reject) => {
      let settled = false;
      const finish = (error?: Error): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        run.signal?.removeEventListener('abort', onAbort);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
        if (!error) return resolve(worker);
        void worker.terminate();
        reject(error);
      };
      const onMessage = (reply: SearchReply): void => {
        if (reply.kind === 'ready') finish();
      };
      const onError = (error: Error): void => finish(broken(error.message));
      const onExit = (code: number): void => finish(broken(`it stopped at once (exit ${code})`));
      const onAbort = (): void => finish(new SearchCancelledError(run.what));
      const timer = setTimeout(() => finish(broken(`it did not load within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      run.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(worker: Worker, reusable: boolean): void {
    if (reusable && this.idle.length < KEEP_IDLE) {
      worker.unref();
      this.idle.push(worker);
    } else void worker.terminate();
  }
}

/** Sends one request and follows it to its end: done, failed, the bound, a cancel, or the thread dying. */
function exchange(worker: Worker, request: SearchRequest, run: SearchRun): Promise<Outcome> {
  if (run.signal?.aborted) return Promise.resolve({ error: new SearchCancelledError(run.what), reusable: true });
  return new Promise<Outcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Outcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      // A thread stopped mid-search is terminated, wherever it was (V8 interrupts even a tight loop).
      if (!outcome.reusable) void worker.terminate();
      resolve(outcome);
    };
    const onMessage = (reply: SearchReply): void => {
      if (reply.kind === 'done') return finish({ reusable: true });
      if (reply.kind === 'failed') return finish({ error: reviveError(reply), reusable: true });
      if (reply.kind === 'ready') return;
      try {
        run.onReply(reply);
      } catch (error) {
        finish({ error, reusable: false });
      }
    };
    const onError = (error: Error): void =>
      finish({ error: new SearchThreadError(`The search thread failed: ${error.message}`), reusable: false });
    const onExit = (code: number): void =>
      finish({ error: new SearchThreadError(`The search thread stopped (exit ${code}) before the ${run.what} ended.`), reusable: false });
    const onAbort = (): void => finish({ error: new SearchCancelledError(run.what), reusable: false });
    const timer = setTimeout(() => finish({ error: run.timedOut(), reusable: false }), run.bound.start());
    worker.on('message', onMessage).on('error', onError).on('exit', onExit);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(request);
  });
}

/** The threads every workspace of this process shares (one extension host, one runner). */
export const sharedSearchThreads = new SearchThreads();
