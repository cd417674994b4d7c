import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { agentEnvironment, withAgentEnvironment } from './agentEnvironment';

const PROBE = ['npm_config_local_prefix', 'RUST_BACKTRACE', 'CI', 'NO_COLOR'] as const;
const before = Object.fromEntries(PROBE.map((k) => [k, process.env[k]]));
afterEach(() => {
  for (const key of PROBE) {
    if (before[key] === undefined) delete process.env[key];
    else process.env[key] = before[key];
  }
});

describe('the environment every agent gets', () => {
  it("keeps the shell's few variables and the toolchains' from the machine, a scratch HOME, CI and NO_COLOR, and nothing else", () => {
    const realHome = mkdtempSync(join(tmpdir(), 'agent-env-home-'));
    mkdirSync(join(realHome, '.rustup'));
    mkdirSync(join(realHome, '.pyenv'));
    const env = agentEnvironment(
      '/scratch/home',
      {
        PATH: '/usr/bin',
        TERM: 'xterm',
        HOME: '/root',
        RUST_BACKTRACE: '1',
        CARGO_HOME: '/opt/cargo',
        npm_config_local_prefix: '/repo',
        FORCE_COLOR: '1',
        ANTHROPIC_API_KEY: 'k',
      },
      realHome,
    );
    rmSync(realHome, { recursive: true, force: true });
    expect(env).toEqual({
      PATH: '/usr/bin',
      TERM: 'xterm',
      RUST_BACKTRACE: '1',
      // rustup's and pyenv's shims look under $HOME unless told: the real home's folders, or what the machine names.
      RUSTUP_HOME: join(realHome, '.rustup'),
      CARGO_HOME: '/opt/cargo',
      PYENV_ROOT: join(realHome, '.pyenv'),
      HOME: '/scratch/home',
      XDG_CONFIG_HOME: '/scratch/home/.config',
      XDG_DATA_HOME: '/scratch/home/.local/share',
      XDG_CACHE_HOME: '/scratch/home/.cache',
      XDG_STATE_HOME: '/scratch/home/.local/state',
      CI: '1',
      NO_COLOR: '1',
    });
  });

  it("gives an in-process agent's commands that environment while it runs, and puts this process's back after, even on a throw", async () => {
    process.env['npm_config_local_prefix'] = '/repo';
    process.env['RUST_BACKTRACE'] = '1';
    delete process.env['CI'];
    const seen = await withAgentEnvironment('/scratch/home', async () =>
      execFileSync('bash', ['-c', 'echo "$HOME|${CI-}|${NO_COLOR-}|${RUST_BACKTRACE-}|${npm_config_local_prefix-}"'], { encoding: 'utf8' }),
    );
    // RUST_BACKTRACE is a toolchain variable every agent gets alike; npm's own are nobody's.
    expect(seen).toBe('/scratch/home|1|1|1|\n');
    expect(process.env['npm_config_local_prefix']).toBe('/repo');
    expect(process.env['RUST_BACKTRACE']).toBe('1');
    expect(process.env['CI']).toBeUndefined();
    await expect(
      withAgentEnvironment('/scratch/home', async () => {
        throw new Error('the session failed');
      }),
    ).rejects.toThrow('the session failed');
    expect(process.env['npm_config_local_prefix']).toBe('/repo');
    expect(process.env['HOME']).not.toBe('/scratch/home');
  });
});
