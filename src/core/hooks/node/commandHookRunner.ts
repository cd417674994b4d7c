import { spawn } from 'node:child_process';
import type { HookCommandRunner, HookRun } from '../ports';

/** Most bytes of each stream kept from a hook (the rest is read and dropped, so the hook never blocks on a full pipe). */
const STREAM_MAX_BYTES = 256 * 1024;

/**
 * Runs a hook as Claude Code does: the user's shell command (`sh -c` on POSIX, `cmd` on Windows) in the
 * workspace folder, the event's JSON on stdin. It is killed at its bound, with everything it started (its
 * own process group), so a hook that never exits, or leaves a child holding its pipes, cannot hold the turn.
 * `env`: the environment hooks get (the root passes the commands' own, without Anthropic credentials).
 */
export class CommandHookRunner implements HookCommandRunner {
  constructor(private readonly env: NodeJS.ProcessEnv) {}

  run(command: string, options: { stdin: string; cwd: string; timeoutMs: number; signal?: AbortSignal }): Promise<HookRun> {
    return new Promise((resolve) => {
      const posix = process.platform !== 'win32';
      const child = posix
        ? spawn('/bin/sh', ['-c', command], { cwd: options.cwd, env: this.env, detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn(command, { cwd: options.cwd, env: this.env, shell: true, stdio: ['pipe', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const keep = (into: Buffer[]) => (chunk: Buffer) => {
        const size = into.reduce((n, b) => n + b.length, 0);
        if (size < STREAM_MAX_BYTES) into.push(chunk.subarray(0, STREAM_MAX_BYTES - size));
      };
      child.stdout.on('data', keep(out));
      child.stderr.on('data', keep(err));
      let timedOut = false;
      let settled = false;
      const kill = (): void => {
        try {
          if (posix && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          else child.kill('SIGKILL');
        } catch {
          // Already gone.
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, options.timeoutMs);
      const onAbort = (): void => kill();
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const finish = (exitCode: number | null): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        resolve({
          exitCode: timedOut ? null : exitCode,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(err).toString('utf8'),
          timedOut,
        });
      };
      child.on('error', (error) => {
        err.push(Buffer.from(error.message));
        finish(127);
      });
      // At its exit whatever it left running is killed, so a grandchild holding the pipes cannot hold the
      // turn; 'close' then comes once the pipes are drained (nothing of its output is lost).
      let exitCode: number | null = null;
      child.on('exit', (code) => {
        exitCode = code;
        if (posix) kill();
      });
      child.on('close', (code) => finish(exitCode ?? code));
      child.stdin.on('error', () => undefined);
      child.stdin.end(options.stdin);
    });
  }
}
