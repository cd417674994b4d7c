/**
 * Plays a scenario to a peer CLI: the local server answers its model requests (through the agent's
 * hooks), the refusing proxy counts every other connection it tries, and each user turn of the script
 * becomes one headless invocation of the CLI, continuing the session the way that CLI does.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentHooks } from '../../src/node/localServer/agentHooks';
import { startLocalServer, type LoggedRequest } from '../../src/node/localServer/server';
import { applyFsOperation } from '../../src/node/scenario/fsOperation';
import { ScenarioPlayer } from '../../src/node/scenario/player';
import type { AgentRunContext } from './agent';
import { startRefusingProxy } from './refusingProxy';
import { toolchainEnvironment } from './toolchainEnvironment';

export interface Invocation {
  readonly command: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

export interface PeerDriver {
  /** Config files and folders in the scratch HOME and workspace, before the first turn. */
  setup?(home: string, serverUrl: string): Promise<void>;
  /** The command line for one user turn; `first` is false when the session continues. */
  invocation(text: string, first: boolean, home: string, serverUrl: string): Invocation;
  hooks(notice: (m: string) => void): AgentHooks;
  /** What one invocation printed (stdout), e.g. to find the session id the next one continues. */
  afterTurn?(stdout: string, home: string): Promise<void> | void;
  /** Processes the CLI leaves behind (a daemon): ended after the run. */
  cleanup?(home: string): Promise<void>;
}

export interface PeerSessionResult {
  readonly requests: readonly LoggedRequest[];
  readonly outsideConnections: number;
  readonly outsideHosts: readonly string[];
}

const TURN_TIMEOUT_MS = 10 * 60_000;

export async function playToPeer(context: AgentRunContext, driver: PeerDriver): Promise<PeerSessionResult> {
  const home = join(context.scratchDir, 'home');
  await mkdir(home, { recursive: true });
  const player = new ScenarioPlayer(context.bench.scenario, { driver: 'runner', onNotice: context.onNotice });
  const proxy = await startRefusingProxy();
  const server = await startLocalServer({
    scenario: context.bench.scenario,
    player,
    logFile: join(context.scratchDir, 'requests.jsonl'),
    onFs: (turn) => applyFsOperation(turn.operation, context.workspaceDir),
    agent: driver.hooks(context.onNotice),
  });
  try {
    await driver.setup?.(home, server.url);
    let first = true;
    while (!player.done) {
      const turn = player.advance()!;
      if (turn.kind === 'user') {
        const call = driver.invocation(turn.text, first, home, server.url);
        first = false;
        const outcome = await runCli(call, context.workspaceDir, { ...baseEnv(home), ...proxy.env(), ...call.env });
        await writeFile(join(context.scratchDir, `cli-turn-${turn.index}.log`), outcome.stdout).catch(() => undefined);
        if (outcome.problem) context.onNotice(`turn ${turn.index}: ${outcome.problem}`);
        await driver.afterTurn?.(outcome.stdout, home);
      } else if (turn.kind === 'fs') {
        await applyFsOperation(turn.operation, context.workspaceDir);
      } else {
        player.notice(`turn ${turn.index} (${turn.kind}) was not consumed by any request and was skipped`);
      }
    }
    // A child's turn left over: the agent's sub-agent never asked for it (or was not recognised as that child).
    for (const turn of player.unplayedChildTurns()) {
      player.notice(`turn ${turn.index} (${turn.kind} for ${turn.agent}) was not consumed by any request of ${turn.agent}`);
    }
    return { requests: server.requests, outsideConnections: proxy.attempts.length, outsideHosts: [...new Set(proxy.attempts)] };
  } finally {
    await driver.cleanup?.(home).catch(() => undefined);
    await server.close();
    await proxy.close();
  }
}

function baseEnv(home: string): Record<string, string> {
  const keep = ['PATH', 'LANG', 'TERM', 'TMPDIR', 'USER', 'SHELL'];
  const env: Record<string, string> = {};
  for (const key of keep) if (process.env[key] !== undefined) env[key] = process.env[key]!;
  return {
    ...env,
    // The same toolchain as Cairn's commands, which inherit this process's environment (toolchainEnvironment.ts).
    ...toolchainEnvironment(process.env, homedir()),
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    CI: '1',
  };
}

/** Runs one CLI invocation to its end; `problem` when it failed or timed out (the run goes on). */
function runCli(call: Invocation, cwd: string, env: Record<string, string>): Promise<{ problem?: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(call.command, call.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    let stdout = '';
    const keep = (chunk: Buffer): void => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-1_000_000);
      keep(chunk);
    });
    child.stderr.on('data', keep);
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, TURN_TIMEOUT_MS);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ problem: `${call.command} could not start: ${error.message}`, stdout });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve(
        code === 0
          ? { stdout }
          : {
              problem: `${call.command} ended with ${signal ?? `exit code ${code}`}: ${output.trim().split('\n').slice(-3).join(' ')}`,
              stdout,
            },
      );
    });
  });
}
