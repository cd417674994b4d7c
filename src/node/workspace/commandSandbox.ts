/**
 * The bubblewrap command line every command the model runs is wrapped in, when commands are isolated
 * (`commandIsolation.ts`). One list, in its own module; what it confines is decided in `sandboxPolicy.ts`
 * (which folders, which credentials, the `cairn.sandbox` settings) and only carried out here.
 *
 * Always (issue 28): a PID namespace of its own. In it the command's parent (`$PPID`) is bubblewrap's own
 * small init, which was started with the commands' environment (no key) and never held the key, and the
 * editor's process is not there at all: `/proc` shows only the namespace's processes, so the editor's
 * environment and memory have no path a command can open. No capabilities (for an ordinary user
 * bubblewrap drops them anyway; root keeps them unless told), so root cannot unmount the namespace's /proc
 * and find the editor's beneath it; `setuid` programs (`sudo`) do not raise privileges inside either
 * (bubblewrap sets no-new-privileges).
 *
 * Confined (issue 32, `cairn.sandbox` "auto", the default): the whole file system read-only, then the
 * writable folders bound read-write over it (the workspace's folders, the toolchains' download caches),
 * then the hidden paths covered (credentials, the editor's secret store, the user's runtime sockets): a
 * folder by an empty one nobody may open (mode 0000), a file or socket by `/dev/null`, so reading either
 * fails with "Permission denied". A `/dev` of its own (null, zero, random, tty, shm: not the machine's
 * disks), a private `/tmp` (empty, writable, gone with the command), and no network but a loopback of its
 * own unless `network` (a server on the machine's 127.0.0.1 is not reachable either). The order matters:
 * later mounts cover earlier ones, so a credential inside a writable folder is still hidden.
 *
 * Not `--die-with-parent`: it ends the namespace as soon as the command's bash exits, which would kill a
 * server the command started in the background (`server &`), and the runner promises to leave that
 * running. A cancel or a timeout still ends everything: the runner's SIGKILL to the process group reaches
 * the namespace's init, and when it dies the kernel kills every process left in the namespace, even one
 * that left the group (`setsid`).
 */

/**
 * Whether the commands the model runs are isolated from the editor's process (issue 28, case 15): on
 * Linux with a bubblewrap that works here, each command runs in a PID namespace of its own, where neither
 * the editor's environment nor its memory (the key from SecretStorage) can be reached. Anywhere else
 * (macOS, Windows, Linux without bubblewrap or without user namespaces) commands run as plain child
 * processes, and `reason` says why, for the one notice the user gets. Probed by `commandIsolation.ts`.
 */
export type CommandIsolation = { readonly kind: 'namespace'; readonly bwrap: string } | { readonly kind: 'none'; readonly reason: string };

/** A path the sandbox covers, and whether it is a folder (covered by an empty one) or anything else. */
export interface HiddenPath {
  readonly path: string;
  readonly kind: 'folder' | 'file';
}

/** What a confined command may reach beyond the read-only file system (`sandboxPolicy.ts` decides). */
export interface Confinement {
  /** Folders bound read-write, absolute and existing: the workspace's folders, then the toolchains' caches. */
  readonly writable: readonly string[];
  /**
   * Paths inside `writable` bound read-only again: a cache's part that holds programs run later, and what in the
   * workspace runs code later or configures the editor (`sandboxPolicy.ts`).
   */
  readonly readOnly: readonly string[];
  /** Paths covered, existing: credentials, the editor's secret store, the user's runtime sockets. */
  readonly hidden: readonly HiddenPath[];
  /** Whether the command may use the network (`cairn.sandboxNetwork`). */
  readonly network: boolean;
}

export interface SandboxPlan {
  /** The folder the command starts in. */
  readonly cwd: string;
  /** Absent: only the PID namespace (`cairn.sandbox` "off"): the file system and network as they are. */
  readonly confine?: Confinement;
}

/** bubblewrap's arguments for running `command` (an argv) under `plan`. */
export function bwrapArguments(plan: SandboxPlan, command: readonly string[]): string[] {
  return [
    ...(plan.confine ? confinedFileSystem(plan.confine) : openFileSystem()),
    // Its own PID namespace, and a /proc of that namespace over the editor's.
    '--unshare-pid',
    '--proc',
    '/proc',
    // No capabilities, for root too (bubblewrap keeps root's by default): with CAP_SYS_ADMIN a command
    // unmounts that /proc (`umount -l /proc`) and the editor's is there again, underneath.
    '--cap-drop',
    'ALL',
    '--chdir',
    plan.cwd,
    '--',
    ...command,
  ];
}

/** Every mount as it is, writable where it is writable now; `/dev` again, since a plain bind forbids devices. */
function openFileSystem(): string[] {
  return ['--bind', '/', '/', '--dev-bind', '/dev', '/dev'];
}

function confinedFileSystem(confine: Confinement): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--tmpfs', '/tmp'];
  for (const folder of confine.writable) args.push('--bind', folder, folder);
  for (const path of confine.readOnly) args.push('--ro-bind', path, path);
  for (const hidden of confine.hidden) {
    if (hidden.kind === 'folder') args.push('--perms', '0000', '--tmpfs', hidden.path);
    else args.push('--ro-bind', '/dev/null', hidden.path);
  }
  if (!confine.network) args.push('--unshare-net');
  return args;
}
