/**
 * The environment every agent's commands run in during a bench run, the same for all of them. Cairn runs
 * in the bench's own process, so its commands inherit `process.env` (less the credentials it withholds);
 * each peer CLI is started with `peerEnvironment` and hands that to its commands. A variable one agent's
 * commands see and another's do not changes what the tools print, and so what each model reads: pytest
 * cuts long assertion diffs unless `CI` is set, `PYTHONDONTWRITEBYTECODE` decides whether `__pycache__`
 * folders show up in listings and searches, `PYTHONUNBUFFERED` the order of a script's output and its
 * warnings, `RUST_BACKTRACE` whether a panic prints its backtrace, `RUSTUP_HOME` whether cargo runs at all.
 */
import { join } from 'node:path';
import { isCairnCredentialVariable } from '../../src/core/config/withheldEnvironment';

/**
 * Set for every agent's commands. The peers' CLIs have always been started with CI=1 (so that none of
 * them waits for an answer at a prompt), and a CLI passes it on to its commands; Cairn's commands get it
 * too, through `applyBenchVariables` on the bench's process.
 */
export const BENCH_VARIABLES: Readonly<Record<string, string>> = { CI: '1' };

/** Sets the bench's variables on an environment (the bench's `process.env`, which Cairn's commands inherit). */
export function applyBenchVariables(env: NodeJS.ProcessEnv = process.env): void {
  Object.assign(env, BENCH_VARIABLES);
}

/** The shell's bookkeeping of the bench's own process: wrong in a CLI started elsewhere. */
const SHELL_STATE = new Set(['PWD', 'OLDPWD', 'SHLVL', '_']);

/**
 * Never handed to a peer from the machine: credentials (Cairn withholds the same from its commands), the
 * peers' own settings (`CLAUDE_CONFIG_DIR` when the bench runs inside Claude Code would point it away from
 * its scratch HOME; the harness writes each peer's settings itself) and the shell's bookkeeping.
 */
function withheldFromPeers(name: string): boolean {
  return isCairnCredentialVariable(name) || /^(CLAUDE|OPENCODE|KILO|CLINE)/i.test(name) || SHELL_STATE.has(name);
}

/**
 * The environment a peer CLI is started with: the machine's variables, as Cairn's commands see them, with
 * a scratch HOME (and XDG folders in it) holding the CLI's configuration, and the bench's variables.
 */
export function peerEnvironment(machine: NodeJS.ProcessEnv, home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(machine)) if (value !== undefined && !withheldFromPeers(name)) env[name] = value;
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    ...BENCH_VARIABLES,
  };
}
