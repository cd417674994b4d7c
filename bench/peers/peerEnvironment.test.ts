import { describe, expect, it } from 'vitest';
import { commandEnvironment } from '../../src/node/workspace/commandRunner';
import { applyBenchVariables, BENCH_VARIABLES, peerEnvironment } from './peerEnvironment';

// A machine's environment as the bench sees it: toolchain settings, credentials, a peer's own settings
// (the bench run from inside another agent), the shell's bookkeeping.
const MACHINE: NodeJS.ProcessEnv = {
  PATH: '/root/.pyenv/shims:/usr/bin',
  HOME: '/root',
  PYTHONDONTWRITEBYTECODE: '1',
  PYTHONUNBUFFERED: '1',
  PYENV_ROOT: '/root/.pyenv',
  RUST_BACKTRACE: '1',
  RUSTUP_HOME: '/root/.rustup',
  ANTHROPIC_API_KEY: 'sk-machine',
  ANTHROPIC_BASE_URL: 'https://api.example',
  CLAUDE_CODE_OAUTH_TOKEN: 'oauth',
  CLAUDE_CONFIG_DIR: '/root/.claude',
  OPENCODE_CONFIG: '/root/opencode.json',
  PWD: '/work/main',
  OLDPWD: '/work',
  SHLVL: '2',
  _: '/usr/bin/npm',
};

describe('the environment of every agent in a bench run', () => {
  it("gives a peer the machine's toolchain variables that Cairn's commands inherit", () => {
    const peer = peerEnvironment(MACHINE, '/tmp/scratch/home');
    const cairn = commandEnvironment({ ...MACHINE, ...BENCH_VARIABLES });
    for (const name of ['PATH', 'PYTHONDONTWRITEBYTECODE', 'PYTHONUNBUFFERED', 'PYENV_ROOT', 'RUST_BACKTRACE', 'RUSTUP_HOME', 'CI']) {
      expect(peer[name], name).toBe(cairn[name]);
    }
  });

  it('keeps credentials, the peers’ own settings and the shell’s bookkeeping from a peer, and gives it its scratch HOME', () => {
    const peer = peerEnvironment(MACHINE, '/tmp/scratch/home');
    for (const name of ['ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'CLAUDE_CODE_OAUTH_TOKEN', 'CLAUDE_CONFIG_DIR', 'OPENCODE_CONFIG', 'PWD', 'OLDPWD', 'SHLVL', '_']) {
      expect(peer[name], name).toBeUndefined();
    }
    expect(peer['HOME']).toBe('/tmp/scratch/home');
    expect(peer['XDG_CONFIG_HOME']).toBe('/tmp/scratch/home/.config');
  });

  it("sets CI=1 for Cairn's commands as for the peers' (pytest shows whole assertion diffs under CI)", () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin' };
    applyBenchVariables(env);
    expect(env['CI']).toBe('1');
    expect(peerEnvironment(env, '/h')['CI']).toBe('1');
  });
});
