/**
 * The environment every agent's commands start from, so the same command prints the same thing whichever
 * agent runs it. A peer CLI is started with it (and passes it on to the commands it runs, adding its own
 * variables); Cairn runs in this process, so its run swaps this process's environment for it while the
 * session runs (`withAgentEnvironment`) and its commands inherit it as a user's Cairn would inherit VS Code's.
 *
 * What it holds and why:
 * - the few variables a shell needs from the machine (`PATH`, `LANG`, `TERM`, `TMPDIR`, `USER`, `SHELL`), the
 *   toolchains' homes and the toolchain variables that change what they print (below), and nothing else of it: neither `npm run bench`'s own `npm_config_*` (which tell npm and npx that the project
 *   is this repository, and how loudly to log) reach one agent's commands and not another's;
 * - a scratch `HOME` and XDG folders, so no agent reads or writes the user's caches and settings;
 * - `CI=1`, which the peers have always had (their CLIs run headless) and which tools read: vitest does not
 *   write a new snapshot under it, npm prints no update notice;
 * - `NO_COLOR=1`: Cairn's own commands always have it, and without it a tool that sees `CI` colours its
 *   output (vitest does), so a peer's model would read escape codes Cairn's never does.
 *
 * What it cannot hold: the variables a peer's CLI adds for its own commands (`CLAUDECODE`, `AI_AGENT`,
 * `OPENCODE`, …), by which some tools pick another output for agents (vitest 4's `agent` reporter). A day
 * whose tool does that names its output in the project's own configuration (bench/README.md).
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const KEPT = ['PATH', 'LANG', 'TERM', 'TMPDIR', 'USER', 'SHELL'] as const;

/**
 * Toolchain variables passed on as the machine has them (unset stays unset, for every agent alike): what a
 * compiled day's tools print depends on them (RUST_BACKTRACE turns every test panic into a stack trace,
 * RUSTFLAGS can turn warnings into errors).
 */
const TOOLCHAIN_PASSED = [
  'RUSTUP_TOOLCHAIN',
  'RUSTUP_AUTO_INSTALL',
  'RUST_BACKTRACE',
  'RUST_LIB_BACKTRACE',
  'RUSTFLAGS',
  'RUSTDOCFLAGS',
  'CARGO_TARGET_DIR',
  'CARGO_BUILD_JOBS',
  'CARGO_INCREMENTAL',
] as const;

/**
 * Where version managers keep their toolchains: `cargo`, `rustc` and `python3` on PATH may be rustup's or
 * pyenv's shims, which look under `$HOME` unless these say where; under the scratch HOME they would find
 * nothing. Each defaults to the real home's folder when it exists there.
 */
const TOOLCHAIN_HOMES = [
  ['RUSTUP_HOME', '.rustup'],
  ['CARGO_HOME', '.cargo'],
  ['PYENV_ROOT', '.pyenv'],
] as const;

export function agentEnvironment(home: string, from: NodeJS.ProcessEnv = process.env, realHome = homedir()): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of KEPT) if (from[key] !== undefined) env[key] = from[key]!;
  for (const key of TOOLCHAIN_PASSED) if (from[key] !== undefined) env[key] = from[key]!;
  for (const [key, folder] of TOOLCHAIN_HOMES) {
    const given = from[key];
    if (given !== undefined && given !== '') env[key] = given;
    else if (existsSync(join(realHome, folder))) env[key] = join(realHome, folder);
  }
  return {
    ...env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    CI: '1',
    NO_COLOR: '1',
  };
}

/**
 * Runs `work` (an in-process agent's session) with this process's environment replaced by
 * `agentEnvironment(home)`, and puts the environment back afterwards, whatever happened.
 * Nothing else may run in this process meanwhile (the bench runs one agent at a time).
 */
export async function withAgentEnvironment<T>(home: string, work: () => Promise<T>): Promise<T> {
  const saved = { ...process.env };
  const replacement = agentEnvironment(home, saved);
  replaceEnvironment(replacement);
  try {
    return await work();
  } finally {
    replaceEnvironment(saved);
  }
}

function replaceEnvironment(next: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env)) if (!(key in next)) delete process.env[key];
  for (const [key, value] of Object.entries(next)) if (value !== undefined) process.env[key] = value;
}
