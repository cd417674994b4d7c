import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { toolchainEnvironment } from './toolchainEnvironment';

const homes: string[] = [];
function home(folders: readonly string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'toolchain-home-'));
  for (const folder of folders) mkdirSync(join(dir, folder));
  homes.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('toolchainEnvironment', () => {
  it("points rustup's shims at the real home's toolchain, which a peer's scratch HOME would hide", () => {
    const real = home(['.rustup', '.cargo']);
    expect(toolchainEnvironment({ PATH: '/usr/bin' }, real)).toEqual({
      RUSTUP_HOME: join(real, '.rustup'),
      CARGO_HOME: join(real, '.cargo'),
    });
  });

  it('keeps RUSTUP_HOME and CARGO_HOME the environment names, and adds none that does not exist', () => {
    expect(toolchainEnvironment({ RUSTUP_HOME: '/opt/rustup' }, home([]))).toEqual({ RUSTUP_HOME: '/opt/rustup' });
  });

  it('passes on the variables that change what the toolchain prints or builds, and nothing else', () => {
    const env = { RUST_BACKTRACE: '1', RUSTUP_AUTO_INSTALL: '0', RUSTFLAGS: '-D warnings', ANTHROPIC_API_KEY: 'k', PYENV_ROOT: '/p' };
    expect(toolchainEnvironment(env, home([]))).toEqual({ RUST_BACKTRACE: '1', RUSTUP_AUTO_INSTALL: '0', RUSTFLAGS: '-D warnings' });
  });
});
