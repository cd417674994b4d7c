import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import type { Secret } from '../../core/ledger/redactor';
import type { ExecOptions, ExecResult } from '../../core/ports';
import { BoundedOutput } from './boundedOutput';
import { CAIRN_CREDENTIAL_VARIABLES, isCairnCredentialVariable } from '../../core/config/withheldEnvironment';
import { bwrapArguments, type CommandIsolation, type Confinement } from './commandSandbox';
import { sandboxDenialLine } from './sandboxDenial';

/** Where a command isolated in a namespace is confined (absent: `cairn.sandbox` "off", only the namespace). */
export interface CommandConfinement {
  readonly confine: Confinement;
  /** The home folder, to name hidden paths as `~/…` in the sandbox's line. */
  readonly home: string;
}

export interface CommandLimits {
  /** Most output characters kept in memory; beyond it the middle is dropped and counted. */
  readonly maxOutputChars: number;
  /** Time between SIGTERM and SIGKILL when a command is stopped. */
  readonly killGraceMs: number;
  /** How long the output may stay open after bash itself has exited (see `runCommand`). */
  readonly backgroundDrainMs: number;
}

export const DEFAULT_COMMAND_LIMITS: CommandLimits = {
  // 16 Mi characters is far more than any log a person reads and keeps a runaway command's memory small;
  // the model sees the capped head and tail, and recall shows what was kept.
  maxOutputChars: 16 * 1024 * 1024,
  killGraceMs: 2000,
  backgroundDrainMs: 250,
};

export interface CommandResult extends ExecResult {
  /** Characters of output dropped from the middle to keep memory bounded (0 when none). */
  readonly omittedChars: number;
}

/**
 * Runs `bash -c command` in `cwd` as the leader of a new process group; with `isolation` a namespace,
 * inside bubblewrap (`commandSandbox.ts`: its own PID namespace, so neither the editor's environment nor
 * its memory is in reach). bubblewrap leads the group then, and the points below hold as they are, but
 * one: bubblewrap reports a command that died by signal N as exit code 128 + N (as bash's `$?` does), so
 * `exitCode` is null inside it only for a timeout or a cancel.
 *
 * - stderr is joined to stdout *inside* the child (`exec bash -c "$1" 2>&1`), so both reach us
 *   through one pipe in exactly the order they were written; two pipes would only be ordered as
 *   our event loop happened to read them.
 * - stdin is /dev/null: a command that waits for input gets end-of-file instead of hanging.
 * - Timeout and abort signal the whole group: SIGTERM, then SIGKILL after `killGraceMs`, so
 *   grandchildren (`make` → `cc`, `sleep &`) die with it. `exitCode` is then null.
 * - A child that backgrounds a grandchild which keeps the output pipe open (`server &`) must not
 *   hold the result forever: once bash itself has exited we wait `backgroundDrainMs` for the pipe
 *   to close, then stop reading and resolve. The background process is not killed (a user may
 *   have started a server on purpose), but its later output is not captured and a write to the
 *   closed pipe may end it (SIGPIPE); to keep one running, redirect its output
 *   (`server > server.log 2>&1 &`).
 * - A death by a signal we did not send leaves `exitCode` null as well.
 */
/**
 * Cairn's own credentials (`withheldEnvironment.ts`: the key, auth and OAuth tokens, custom headers that
 * may carry `x-api-key`, every `ANTHROPIC_*`) never reach the commands the model runs: a command such as
 * `env` would print them into a tool result. The user's other credentials pass, because the commands the
 * user approves need them (`git push`, `npm publish`). What the parent process holds is another matter:
 * where commands are not isolated a command can read it (`/proc/$PPID/environ`), and a file may hold a
 * key, so the ledger redacts every secret Cairn holds from every result (`environmentSecrets` gives it
 * these variables' values).
 */

/**
 * Set for every command, so output is plain text: no colours, no pager waiting for a key (stdin is
 * empty anyway), no cursor tricks. What still arrives is cleaned by the bash tool (terminalText.ts).
 */
export const COMMAND_TERMINAL_ENV: Readonly<Record<string, string>> = { NO_COLOR: '1', TERM: 'dumb', GIT_PAGER: 'cat', PAGER: 'cat' };

/** Variables that would force colours back on despite NO_COLOR. */
const COLOR_FORCING = ['FORCE_COLOR', 'CLICOLOR_FORCE'] as const;

export function commandEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of Object.keys(copy)) if (isCairnCredentialVariable(name)) delete copy[name];
  for (const name of COLOR_FORCING) delete copy[name];
  return { ...copy, ...COMMAND_TERMINAL_ENV };
}

/**
 * A confined command's temporary folder is its private `/tmp`: a `TMPDIR` elsewhere is read-only inside.
 */
function sandboxedEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, TMPDIR: '/tmp' };
}

/**
 * The values of the withheld variables, for the redactor: a command not isolated can still read them from
 * the parent (`/proc/$PPID/environ`), and any command from a file. Custom headers are split into their
 * values (`x-api-key: sk-…`).
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): Secret[] {
  const secrets: Secret[] = [];
  for (const name of CAIRN_CREDENTIAL_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (name === 'ANTHROPIC_CUSTOM_HEADERS') {
      for (const line of value.split(/\r?\n/)) {
        const headerValue = line.slice(line.indexOf(':') + 1).trim();
        if (line.includes(':') && headerValue) secrets.push({ value: headerValue, label: `${name} header` });
      }
    } else {
      secrets.push({ value, label: name === 'ANTHROPIC_API_KEY' || name === 'CLAUDE_API_KEY' ? 'API key' : name });
    }
  }
  return secrets;
}

export function runCommand(
  command: string,
  cwd: string,
  options: ExecOptions,
  limits: CommandLimits,
  isolation: CommandIsolation,
  confinement?: CommandConfinement,
): Promise<CommandResult> {
  const output = new BoundedOutput(limits.maxOutputChars);
  if (options.signal?.aborted) {
    return Promise.resolve({ output: '', exitCode: null, timedOut: false, cancelled: true, omittedChars: 0 });
  }
  const bash = ['bash', '-c', 'exec bash -c "$1" 2>&1', 'bash', command];
  const confined = isolation.kind === 'namespace' ? confinement : undefined;
  const [file, ...args] =
    isolation.kind === 'namespace'
      ? [isolation.bwrap, ...bwrapArguments({ cwd, ...(confined ? { confine: confined.confine } : {}) }, bash)]
      : bash;

  return new Promise<CommandResult>((resolve, reject) => {
    const child = spawn(file!, args, {
      cwd,
      env: confined ? sandboxedEnvironment(commandEnvironment(process.env)) : commandEnvironment(process.env),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const pid = child.pid;
    let timedOut = false;
    let cancelled = false;
    let exitCode: number | null = null;
    let exited = false;
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const decoders = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };

    // A consumer that returns a promise (the store writing a part) pauses reading until it settles: the
    // pipe fills and the command waits, so memory stays bounded whatever it prints.
    let waiting = 0;
    const emit = (text: string): void => {
      if (text.length === 0) return;
      output.append(text);
      const pending = options.onOutput?.(text);
      if (!(pending instanceof Promise)) return;
      waiting++;
      child.stdout.pause();
      child.stderr.pause();
      const resume = (): void => {
        waiting--;
        if (waiting > 0 || settled) return;
        child.stdout.resume();
        child.stderr.resume();
        if (drainDue) {
          drainDue = false;
          timers.push(setTimeout(finish, limits.backgroundDrainMs));
        }
      };
      pending.then(resume, resume);
    };
    let drainDue = false;
    child.stdout.on('data', (chunk: Buffer) => emit(decoders.stdout.write(chunk)));
    child.stderr.on('data', (chunk: Buffer) => emit(decoders.stderr.write(chunk)));

    const signalGroup = (signal: NodeJS.Signals): void => {
      if (pid === undefined) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // ESRCH: the whole group is already gone.
      }
    };
    const stop = (): void => {
      signalGroup('SIGTERM');
      const kill = setTimeout(() => signalGroup('SIGKILL'), limits.killGraceMs);
      // The SIGKILL may land after we resolved (a grandchild ignoring SIGTERM); it must not keep Node alive.
      kill.unref();
    };
    // Once bash has exited its result stands; a stop during the short drain would mislabel it.
    const onAbort = (): void => {
      if (settled || exited || timedOut || cancelled) return;
      cancelled = true;
      stop();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    timers.push(
      setTimeout(() => {
        if (settled || exited || cancelled) return;
        timedOut = true;
        stop();
      }, timerDelay(options.timeoutMs)),
    );

    const finish = (): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      emit(decoders.stdout.end());
      emit(decoders.stderr.end());
      // A confined command that failed on what the sandbox withholds says so, in its result (one line).
      const failed = !timedOut && !cancelled && exitCode !== 0;
      const denial = confined && failed ? sandboxDenialLine(output.text(), confined.confine, confined.home) : undefined;
      if (denial) emit(`${output.text().endsWith('\n') || output.text() === '' ? '' : '\n'}${denial}\n`);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({
        output: output.text(),
        exitCode: timedOut || cancelled ? null : exitCode,
        timedOut,
        cancelled,
        omittedChars: output.omittedChars,
      });
    };

    child.on('error', (error) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const what = isolation.kind === 'namespace' ? `bash under bubblewrap (${isolation.bwrap})` : 'bash';
      reject(new Error(`Could not start ${what} in ${cwd}: ${error.message}. Check that it is installed and the folder exists.`));
    });
    child.on('exit', (code) => {
      exited = true;
      exitCode = code;
      // While reading is paused the drain cannot happen; it starts when reading resumes.
      if (waiting > 0) drainDue = true;
      else timers.push(setTimeout(finish, limits.backgroundDrainMs));
    });
    child.on('close', () => {
      if (exited) finish();
    });
  });
}

/** Longest delay a Node timer takes; a larger one would fire at once, killing the command on start. */
const MAX_TIMER_MS = 2_147_483_647;

function timerDelay(timeoutMs: number): number {
  if (Number.isNaN(timeoutMs)) return MAX_TIMER_MS;
  return Math.min(Math.max(timeoutMs, 0), MAX_TIMER_MS);
}
