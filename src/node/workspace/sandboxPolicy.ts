import { lstat, readdir, realpath } from 'node:fs/promises';
import * as nodePath from 'node:path';
import type { Confinement, HiddenPath } from './commandSandbox';

/**
 * What the sandbox confines a command to (`commandSandbox.ts` carries it out), decided from the settings and
 * what exists on this machine right before each command. The decisions, where the issue is silent:
 *
 * - **Writable**: the workspace's folders (every folder of a multi-root window), a private `/tmp`, and the
 *   toolchains' download caches below (so a build that fetches into its cache, with the network allowed,
 *   works as it does outside). Everything else (the home folder, the toolchains themselves: `~/.cargo/bin`,
 *   `~/.rustup`, `~/.local/bin`, shell start-up files, the editor's extensions) is read-only: a command cannot
 *   leave a program behind that the user's shell or another project runs later outside the sandbox. The
 *   caches are content caches (npm's, cargo's registry, pip's wheels, Go's modules and build cache, Maven's,
 *   Gradle's), written by package managers that check what they read back; npm's `_npx` is read-only again
 *   inside `~/.npm`, since `npx` runs what it holds. Not `~/.cache` as a whole: tools keep programs there
 *   too (corepack's yarn and pnpm, browsers for tests) that every project then runs.
 * - **Hidden** (reading them fails with "Permission denied"): credentials (`CREDENTIAL_PATHS`), the editor's
 *   data folder (VS Code's secret store: `User/globalStorage/state.vscdb`, encrypted by a key any of the
 *   user's programs can get; code-server's half of the key the browser seals secrets with), and the user's
 *   runtime folder (`$XDG_RUNTIME_DIR`: the session D-Bus, through which `systemd-run --user` would start a
 *   program outside the sandbox, the keyring, ssh-agent and gpg-agent sockets), Docker's socket. A hidden
 *   path that holds a workspace folder is left as it is (hiding it would hide the workspace).
 * - **Read-only inside the workspace** (`WORKSPACE_CODE_PATHS`): what runs code later outside the sandbox, or
 *   configures the editor or Cairn: git's hooks and config (the next `git commit` in the editor's own git runs a
 *   planted hook unconfined; `core.fsmonitor` or `core.hooksPath` in the config does the same), `.vscode` (tasks
 *   that run on folder open, settings), `.cairn` and `.claude` (commands, hooks, skills), and a workspace file at a
 *   folder's top. The approval gate asks before a write it can see there (`core/agent/protectedPaths.ts`); this
 *   holds when a command hides the path from the gate (`cd .g''it`). The cost: a command that must change one of
 *   them (`git config`, `git push -u` recording the upstream) fails inside the sandbox with "Read-only file system"
 *   and is run by the user, or with `cairn.sandbox` "off". A path that does not exist yet is not covered on Linux
 *   (bubblewrap mounts only over what is there): a command could create a `.vscode` where none was.
 * - **Network**: none unless `cairn.sandboxNetwork`; the command has a loopback of its own.
 *
 * Only paths that exist are listed: bubblewrap can only cover what is there, and a read-only home means no
 * command creates one meanwhile.
 */
export interface SandboxSettings {
  /** `cairn.sandbox`: "auto" confines commands where bubblewrap works; "off" runs them unconfined (user settings only). */
  readonly mode: 'auto' | 'off';
  /** `cairn.sandboxNetwork`: confined commands may use the network (user settings only). */
  readonly network: boolean;
}

export const DEFAULT_SANDBOX_SETTINGS: SandboxSettings = { mode: 'auto', network: false };

/** Where the sandbox is drawn, besides the settings. */
export interface SandboxPlace {
  /** The workspace's folders, the first being where commands start. */
  readonly folders: readonly string[];
  readonly home: string;
  /** The editor's data folders (the host knows its own: the folder above `User/globalStorage`). */
  readonly editorData?: readonly string[];
  /** `$XDG_RUNTIME_DIR`, else `/run/user/<uid>`. */
  readonly runtimeDir?: string;
  /** The system's runtime folders whose sockets are covered (default `SYSTEM_RUN_DIRS`). */
  readonly systemRunDirs?: readonly string[];
}

/** Credentials under the home folder, hidden from every confined command. */
export const CREDENTIAL_PATHS: readonly string[] = [
  '.ssh',
  '.aws',
  '.config/gcloud',
  '.netrc',
  '.gnupg',
  '.git-credentials',
  '.config/gh',
  '.docker',
  '.kube',
  '.azure',
  '.password-store',
];

/** The editors' data folders under the home folder, hidden besides the one the host names. */
export const EDITOR_DATA_PATHS: readonly string[] = [
  '.config/Code',
  '.config/Code - Insiders',
  '.config/Code - OSS',
  '.config/VSCodium',
  '.vscode-server/data',
  '.local/share/code-server',
];

/** Download caches under the home folder, writable when they exist. */
export const CACHE_PATHS: readonly string[] = [
  '.npm',
  '.cargo/registry',
  '.cargo/git',
  '.cache/pip',
  '.cache/go-build',
  '.cache/yarn',
  'go/pkg/mod',
  '.m2/repository',
  '.gradle/caches',
];

/** Paths inside each workspace folder that run code later or configure the editor or Cairn: read-only. */
export const WORKSPACE_CODE_PATHS: readonly string[] = ['.git/hooks', '.git/config', '.vscode', '.cairn', '.claude'];

/** Parts of the caches that hold programs run later: read-only again. */
export const CACHE_PROGRAM_PATHS: readonly string[] = ['.npm/_npx'];

const SOCKETS: readonly string[] = ['/run/docker.sock', '/var/run/docker.sock'];

/**
 * The system's runtime folders: every Unix socket in them is covered. A network namespace does not cut a socket
 * reached by its path, and the system's hold services a command must not drive from the sandbox: the system D-Bus
 * (polkit grants an active session's user actions without a password: mounting disks, NetworkManager, power),
 * snapd, podman, libvirt, containerd, CUPS. Listed by what is there rather than by name, so a service this list
 * never heard of is covered too. `/run` itself stays (NixOS keeps its programs under `/run/current-system`, and
 * systemd-resolved its `resolv.conf`).
 */
export const SYSTEM_RUN_DIRS: readonly string[] = ['/run', '/var/run'];

/** How deep and how much of the runtime folders is searched for sockets, so a huge `/run` cannot stall a command. */
const SOCKET_SCAN_DEPTH = 4;
const SOCKET_SCAN_ENTRIES = 5_000;

/** The confinement for the next command, from what exists now. */
export async function confinementFor(settings: SandboxSettings, place: SandboxPlace): Promise<Confinement> {
  const home = place.home;
  const folders = (await Promise.all(place.folders.map(existingFolder))).filter((f): f is string => f !== undefined);
  const caches = (await Promise.all(CACHE_PATHS.map((p) => existingFolder(nodePath.join(home, p))))).filter(
    (f): f is string => f !== undefined && !folders.some((folder) => within(f, folder)),
  );
  const programs = (await Promise.all(CACHE_PROGRAM_PATHS.map((p) => existingFolder(nodePath.join(home, p))))).filter(
    (f): f is string => f !== undefined,
  );
  const codePaths = (await Promise.all(folders.map(workspaceCodePaths))).flat();
  const candidates = [
    ...CREDENTIAL_PATHS.map((p) => nodePath.join(home, p)),
    ...EDITOR_DATA_PATHS.map((p) => nodePath.join(home, p)),
    ...(place.editorData ?? []),
    ...(place.runtimeDir ? [place.runtimeDir] : []),
    ...SOCKETS,
  ];
  const skip = place.runtimeDir ? [place.runtimeDir] : [];
  for (const socket of await socketsUnder(place.systemRunDirs ?? SYSTEM_RUN_DIRS, skip)) candidates.push(socket);
  const hidden: HiddenPath[] = [];
  for (const candidate of candidates) {
    const found = await existing(candidate);
    if (!found || hidden.some((h) => h.path === found.path)) continue;
    // Hiding a folder that holds the workspace would hide the workspace: the command could do nothing.
    if (folders.some((folder) => within(folder, found.path))) continue;
    hidden.push(found);
  }
  return { writable: [...folders, ...caches], readOnly: [...programs, ...codePaths], hidden, network: settings.network };
}

/**
 * The paths of `WORKSPACE_CODE_PATHS` in one workspace folder that exist, and its top-level `*.code-workspace`
 * files; each where it really is, if it stays inside the folder (a link out of it lands on the read-only root).
 */
async function workspaceCodePaths(folder: string): Promise<string[]> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const candidates = [...WORKSPACE_CODE_PATHS, ...names.filter((name) => name.toLowerCase().endsWith('.code-workspace'))];
  const found: string[] = [];
  for (const candidate of candidates) {
    const path = await existing(nodePath.join(folder, candidate));
    if (path && within(path.path, folder) && path.path !== folder && !found.includes(path.path)) found.push(path.path);
  }
  return found;
}

/** The runtime folder of this user's session (sockets), as `pam_systemd` names it. */
export function runtimeDirOf(env: NodeJS.ProcessEnv): string | undefined {
  if (env.XDG_RUNTIME_DIR) return env.XDG_RUNTIME_DIR;
  return typeof process.getuid === 'function' ? `/run/user/${process.getuid()}` : undefined;
}

/**
 * The Unix sockets under `roots` (links not followed, `skip` and what is under it left out, bounded in depth and
 * entries): what the sandbox covers besides the named paths.
 */
export async function socketsUnder(roots: readonly string[], skip: readonly string[]): Promise<string[]> {
  const sockets: string[] = [];
  let entries = 0;
  const visit = async (folder: string, depth: number): Promise<void> => {
    if (depth > SOCKET_SCAN_DEPTH || skip.some((s) => within(folder, s))) return;
    const names = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of names) {
      if (++entries > SOCKET_SCAN_ENTRIES) return;
      const path = nodePath.join(folder, entry.name);
      if (entry.isSocket()) sockets.push(path);
      else if (entry.isDirectory()) await visit(path, depth + 1);
    }
  };
  const seen = new Set<string>();
  for (const root of roots) {
    const real = await realpath(root).catch(() => undefined);
    if (real === undefined || seen.has(real)) continue;
    seen.add(real);
    await visit(real, 1);
  }
  return sockets;
}

/** `path` is `folder` or inside it. */
export function within(path: string, folder: string): boolean {
  const relative = nodePath.relative(folder, path);
  return relative === '' || (!relative.startsWith('..') && !nodePath.isAbsolute(relative));
}

async function existingFolder(path: string): Promise<string | undefined> {
  const found = await existing(path);
  return found?.kind === 'folder' ? found.path : undefined;
}

/** The path's real location (links followed: a mount lands where the link leads) and kind, or undefined. */
async function existing(path: string): Promise<HiddenPath | undefined> {
  try {
    const real = await realpath(path);
    const stat = await lstat(real);
    return { path: real, kind: stat.isDirectory() ? 'folder' : 'file' };
  } catch {
    return undefined;
  }
}
