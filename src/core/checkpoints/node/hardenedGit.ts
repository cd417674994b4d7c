import { spawn } from 'node:child_process';

/**
 * git run the way Cairn runs it in a repository that may be hostile (written by the model, or shipped in
 * a downloaded archive): its `.git/config` can name programs git would run, so every one Cairn's git
 * commands could reach is switched off from the command line, which wins over any config file.
 *
 * - `core.fsmonitor` (run on every index read) is off; hooks point at /dev/null (`post-index-change`); no
 *   pager; no external diff; submodules are not entered (their own config would apply there).
 * - Filter drivers: a stat-dirty file is re-hashed through its `clean` (or `process`) filter, chosen by
 *   in-tree `.gitattributes` or `.git/info/attributes`, which no option turns off (`--attr-source` needs
 *   git 2.40 and still reads info/attributes). So the drivers the repository defines are first listed
 *   (`git config --list` runs nothing) and each is emptied: an empty command means no filter
 *   (`hardenedOverrides`). The overrides go through GIT_CONFIG_COUNT/KEY/VALUE, never `-c name=value`,
 *   because a driver's name may itself contain `=`.
 * - No transport (`protocol.allow=never`): a partial clone would otherwise fetch a missing object through
 *   the repository's remote and `core.sshCommand`.
 * - The environment is the commands' one (Cairn's credentials withheld), given by the caller.
 *
 * These are what a read-only command needs (the project context's `git status`); `HARDENING` adds what
 * the checkpoints' writes need.
 */
export const READ_HARDENING: ReadonlyArray<readonly [string, string]> = [
  ['core.fsmonitor', 'false'],
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.untrackedCache', 'false'],
  ['diff.external', ''],
  ['status.submoduleSummary', 'false'],
  ['protocol.allow', 'never'],
  ['core.sshCommand', 'false'],
];

export const HARDENING: ReadonlyArray<readonly [string, string]> = [
  ...READ_HARDENING,
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
  /** Most bytes of output kept: past it git is stopped and the run fails (default: no limit). */
  readonly maxBytes?: number;
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
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (run.maxBytes !== undefined && bytes > run.maxBytes) {
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new GitFailedError(args, error.message, false));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const tooLong = run.maxBytes !== undefined && bytes > run.maxBytes;
      if (code === 0 && !timedOut && !tooLong) resolve(Buffer.concat(out));
      else
        reject(
          new GitFailedError(args, tooLong ? `more than ${run.maxBytes} bytes of output` : Buffer.concat(err).toString('utf8'), timedOut),
        );
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
export async function hardenedOverrides(
  run: Omit<GitRun, 'overrides'>,
  hardening: ReadonlyArray<readonly [string, string]> = HARDENING,
): Promise<Array<readonly [string, string]>> {
  const overrides: Array<readonly [string, string]> = [...hardening];
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
