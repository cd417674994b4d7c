/**
 * Peers are pinned and installed on first use with npm into a cache outside the tree (never into this
 * project's package.json), as the editor for the e2e suite is: `~/.cache/cairn-bench/peers/<name>@<version>`,
 * or under `CAIRN_PEERS_CACHE`.
 */
import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const PEERS_CACHE = process.env.CAIRN_PEERS_CACHE ?? join(homedir(), '.cache', 'cairn-bench', 'peers');

const INSTALL_TIMEOUT_MS = 10 * 60_000;

export interface PeerPackage {
  readonly name: string;
  readonly pkg: string;
  readonly version: string;
  /** The executable under node_modules/.bin. */
  readonly bin: string;
}

export function peerDir(peer: PeerPackage): string {
  return join(PEERS_CACHE, `${peer.name}@${peer.version}`);
}

export function peerBin(peer: PeerPackage): string {
  return join(peerDir(peer), 'node_modules', '.bin', peer.bin);
}

/** Installs the pinned package unless it is there; the executable's path, or why it cannot be installed. */
export async function installPeer(peer: PeerPackage): Promise<{ bin: string } | { problem: string }> {
  const bin = peerBin(peer);
  if (await exists(bin)) return { bin };
  const dir = peerDir(peer);
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{"name": "cairn-bench-peer", "private": true}\n');
  const output = await new Promise<string | undefined>((resolve) => {
    execFile(
      'npm',
      ['install', '--no-audit', '--no-fund', '--loglevel=error', `${peer.pkg}@${peer.version}`],
      { cwd: dir, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 2 ** 20 },
      (error, stdout, stderr) => resolve(error ? `${stderr || stdout || error.message}`.trim().split('\n').slice(-3).join(' ') : undefined),
    );
  });
  if (output !== undefined) return { problem: `npm install ${peer.pkg}@${peer.version} failed: ${output}` };
  if (!(await exists(bin)))
    return {
      problem: `${peer.pkg}@${peer.version} installed no ${peer.bin} executable (no binary for ${process.platform}-${process.arch}?)`,
    };
  return { bin };
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
