import type { HookCommand } from './hookConfig';

/** What one hook command did. */
export interface HookRun {
  /** null when it was killed (the bound, a cancel). */
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** Killed at its time bound. */
  readonly timedOut: boolean;
}

/** Port: runs one hook command with `stdin`, killed at `timeoutMs` (`node/commandHookRunner.ts`). */
export interface HookCommandRunner {
  run(
    command: string,
    options: { readonly stdin: string; readonly cwd: string; readonly timeoutMs: number; readonly signal?: AbortSignal },
  ): Promise<HookRun>;
}

/** The hooks that may run now: the user's, and the workspace's once trusted and approved (the root decides). */
export interface HookProvider {
  hooks(): Promise<readonly HookCommand[]>;
}
