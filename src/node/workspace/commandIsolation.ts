import { execFile } from 'node:child_process';
import { readlink } from 'node:fs/promises';
import { bwrapArguments, type CommandIsolation } from './commandSandbox';
import { commandEnvironment } from './commandRunner';

/**
 * The probe of whether commands can be isolated here (see `CommandIsolation` in `commandSandbox.ts`), run
 * once per process and cached: the runner asks before every command, the host to tell the user once.
 */
export interface IsolationProbeOptions {
  readonly platform?: NodeJS.Platform;
  /** The bubblewrap executable (default `bwrap`, found on PATH). */
  readonly bwrap?: string;
  readonly timeoutMs?: number;
}

export type { CommandIsolation } from './commandSandbox';

let probed: Promise<CommandIsolation> | undefined;

/** This machine's answer, probed once per process (a bubblewrap installed later counts after a restart). */
export function commandIsolation(): Promise<CommandIsolation> {
  return (probed ??= probeIsolation());
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * Runs bubblewrap once with the very arguments commands get, and checks that what ran is really in another
 * PID namespace (its `/proc/self/ns/pid` differs from ours): a `bwrap` on PATH that is not bubblewrap, or
 * one that cannot make namespaces here, is found now rather than trusted.
 */
export async function probeIsolation(options: IsolationProbeOptions = {}): Promise<CommandIsolation> {
  const platform = options.platform ?? process.platform;
  if (platform !== 'linux') {
    return none(
      `commands are isolated only on Linux (with bubblewrap); on ${platformName(platform)} they run as plain child processes of the editor`,
    );
  }
  const bwrap = options.bwrap ?? 'bwrap';
  let ours: string;
  try {
    ours = await readlink('/proc/self/ns/pid');
  } catch {
    return none('this system has no /proc/self/ns/pid, so PID namespaces cannot be checked');
  }
  // Confined as commands are by default (read-only, a private /tmp and /dev, no network), so a system that
  // cannot make those mounts or a network namespace is found here too.
  const confine = { writable: [], readOnly: [], hidden: [], network: false };
  const run = await execute(
    bwrap,
    bwrapArguments({ cwd: '/', confine }, ['readlink', '/proc/self/ns/pid']),
    options.timeoutMs ?? PROBE_TIMEOUT_MS,
  );
  if (run.error === 'ENOENT') {
    return none(
      'bubblewrap is not installed: install it (Debian, Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap) and start Cairn again',
    );
  }
  if (run.error !== undefined) return none(`bubblewrap (${bwrap}) could not be started: ${run.error}`);
  if (run.timedOut) return none(`bubblewrap (${bwrap}) did not answer within ${(options.timeoutMs ?? PROBE_TIMEOUT_MS) / 1000} s`);
  if (run.code !== 0) {
    const said = firstLine(run.stderr) || `exit code ${run.code}`;
    return none(`bubblewrap could not make a sandbox here (${said}); the system may not allow unprivileged user namespaces`);
  }
  const theirs = run.stdout.trim();
  if (!/^pid:\[\d+\]$/.test(theirs) || theirs === ours) return none(`${bwrap} did not run the command in a PID namespace of its own`);
  return { kind: 'namespace', bwrap };
}

function none(reason: string): CommandIsolation {
  return { kind: 'none', reason };
}

function platformName(platform: NodeJS.Platform): string {
  return platform === 'darwin' ? 'macOS' : platform === 'win32' ? 'Windows' : platform;
}

function firstLine(text: string): string {
  return text.trim().split('\n')[0]?.slice(0, 300) ?? '';
}

interface Execution {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  readonly error?: string;
}

function execute(file: string, args: readonly string[], timeoutMs: number): Promise<Execution> {
  return new Promise((resolve) => {
    // The commands' environment: the probe is a command like any other, and gets no key either.
    execFile(
      file,
      args,
      { env: commandEnvironment(process.env), timeout: timeoutMs, killSignal: 'SIGKILL', encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve({ code: 0, stdout, stderr, timedOut: false });
        const code = (error as NodeJS.ErrnoException).code;
        if (typeof code === 'string') return resolve({ code: null, stdout, stderr, timedOut: false, error: code });
        resolve({
          code: typeof code === 'number' ? code : null,
          stdout,
          stderr,
          timedOut: error.killed === true && error.signal === 'SIGKILL',
        });
      },
    );
  });
}
