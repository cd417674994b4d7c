/**
 * The environment every agent's commands start from, so the same command prints the same thing whichever
 * agent runs it. A peer CLI is started with it (and passes it on to the commands it runs, adding its own
 * variables); Cairn runs in this process, so its run swaps this process's environment for it while the
 * session runs (`withAgentEnvironment`) and its commands inherit it as a user's Cairn would inherit VS Code's.
 *
 * What it holds and why:
 * - the few variables a shell needs from the machine (`PATH`, `LANG`, `TERM`, `TMPDIR`, `USER`, `SHELL`), and
 *   nothing else of it: neither `npm run bench`'s own `npm_config_*` (which tell npm and npx that the project
 *   is this repository, and how loudly to log) nor the machine's `RUST_BACKTRACE` reach one agent's commands
 *   and not another's;
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
import { join } from 'node:path';

const KEPT = ['PATH', 'LANG', 'TERM', 'TMPDIR', 'USER', 'SHELL'] as const;

export function agentEnvironment(home: string, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of KEPT) if (from[key] !== undefined) env[key] = from[key]!;
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
