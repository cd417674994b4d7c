/**
 * The toolchain variables every agent's commands get alike. Cairn runs inside the bench's process, so its
 * commands inherit the bench's whole environment; a peer gets a filtered one with a scratch HOME
 * (`peerSession.ts`). Two things would then differ for a compiled day:
 *
 * - `cargo` and `rustc` on PATH are rustup shims that look for their toolchain under `$HOME` (`~/.rustup`,
 *   `~/.cargo`) unless RUSTUP_HOME and CARGO_HOME say where: under a scratch HOME a peer could not build at
 *   all. Those two default to the real home's folders when they exist there.
 * - Variables that change what the toolchain prints or builds (RUST_BACKTRACE turns every test panic into
 *   a stack trace; RUSTFLAGS can turn warnings into errors) would reach Cairn's commands and no peer's.
 *   Whatever the bench's environment sets of them, every peer gets too.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Passed on as the bench's environment has them (unset stays unset for every agent). */
const PASSED = [
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

/** Where rustup and cargo keep their state, found under the real home when the environment does not say. */
const HOMES = [
  ['RUSTUP_HOME', '.rustup'],
  ['CARGO_HOME', '.cargo'],
] as const;

export function toolchainEnvironment(env: Readonly<Record<string, string | undefined>>, realHome: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, folder] of HOMES) {
    const given = env[name];
    if (given !== undefined && given !== '') out[name] = given;
    else if (existsSync(join(realHome, folder))) out[name] = join(realHome, folder);
  }
  for (const name of PASSED) {
    const value = env[name];
    if (value !== undefined) out[name] = value;
  }
  return out;
}
