import { spawn } from 'node:child_process';

/**
 * git run the way Cairn runs it in a repository that may be hostile (the same switches as
 * `src/node/nodeProjectContext.ts`'s `git status`, which explains each): no fsmonitor, no hooks, no pager,
 * no external diff, no transport, no submodules, every filter driver the repository defines emptied, the
 * overrides through GIT_CONFIG_COUNT (a driver's name may contain `=`). The base environment is the
 * commands' one (Cairn's credentials withheld), given by the caller.
 */
export const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.untrackedCache', 'false'],
  ['diff.external', ''],
  ['status.submoduleSummary', 'false'],
  ['protocol.allow', 'never'],
  ['core.sshCommand', 'false'],
  // Line-ending conversion would make a restored file differ from the bytes the command saw.
  ['core.autocrlf', 'false'],
  ['core.safecrlf', 'false'],
  // Never start a gc in the user's repository in the background.
  ['gc.auto', '0'],
];

export class GitFailedError extends Error {
  constructor(
    readonly args: readonly string[],
    readonly detail: string,
    readonly timedOut: boolean,
  ) {
    super(timedOut ? `git ${args[0] ?? ''} took too long` : `git ${args[0] ?? ''} failed: ${detail.trim().slice(0, 300)}`);
    this.name = 'GitFailedError';
  }
}

export interface GitRun {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly overrides: ReadonlyArray<readonly [string, string]>;
  /** When the whole snapshot must be done (ms since the epoch). */
  readonly deadline: number;
}

/** Runs git; resolves with stdout as bytes, rejects with `GitFailedError` (a non-zero exit, the deadline). */
export function runGit(run: GitRun, args: readonly string[], input?: Uint8Array, extraEnv: NodeJS.ProcessEnv = {}): Promise<Buffer> {
  const env: NodeJS.ProcessEnv = {
    ...run.env,
    ...extraEnv,
    GIT_OPTIONAL_LOCKS: '0',
    GIT_TERMINAL_PROMPT: '0',
    LC_ALL: 'C',
    GIT_CONFIG_COUNT: String(run.overrides.length),
  };
  run.overrides.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  const timeout = Math.max(1, run.deadline - Date.now());
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--no-pager', '-C', run.cwd, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeout);
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitFailedError(args, error.message, false));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) resolve(Buffer.concat(out));
      else reject(new GitFailedError(args, Buffer.concat(err).toString('utf8'), timedOut));
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ? Buffer.from(input) : undefined);
  });
}

/** Names of the filter drivers in `git config --null --list` output (`filter.<name>.<key>\nvalue\0`). */
export function filterDrivers(configList: string): Set<string> {
  const names = new Set<string>();
  for (const entry of configList.split('\0')) {
    const newline = entry.indexOf('\n');
    const key = newline < 0 ? entry : entry.slice(0, newline);
    // Section and key are case-insensitive (git prints them lower-cased); the name between is kept as is.
    if (!key.toLowerCase().startsWith('filter.')) continue;
    const lastDot = key.lastIndexOf('.');
    if (lastDot > 'filter.'.length) names.add(key.slice('filter.'.length, lastDot));
  }
  return names;
}

/** The hardening plus every filter driver of this repository emptied (listing config runs nothing). */
export async function hardenedOverrides(run: Omit<GitRun, 'overrides'>): Promise<Array<readonly [string, string]>> {
  const overrides: Array<readonly [string, string]> = [...HARDENING];
  const config = (await runGit({ ...run, overrides }, ['config', '--null', '--list'])).toString('utf8');
  for (const name of filterDrivers(config)) {
    overrides.push(
      [`filter.${name}.clean`, ''],
      [`filter.${name}.smudge`, ''],
      [`filter.${name}.process`, ''],
      [`filter.${name}.required`, 'false'],
    );
  }
  return overrides;
}
