/**
 * The bubblewrap command line every command the model runs is wrapped in, when commands are isolated
 * (`commandIsolation.ts`). One list, in its own module, so that the limits still to come (issue 32: the
 * file system read-only outside the workspace, no network, the `cairn.sandbox` setting) extend it here.
 *
 * Today it gives the command a PID namespace of its own and nothing else: the file system, the network
 * and the devices are as they are outside. In that namespace the command's parent (`$PPID`) is
 * bubblewrap's own small init, which was started with the commands' environment (no key) and never held
 * the key, and the editor's process is not there at all: `/proc` shows only the namespace's processes,
 * so the editor's environment and memory have no path a command can open.
 *
 * Also no capabilities (for an ordinary user bubblewrap drops them anyway; root keeps them unless told),
 * so root cannot unmount the namespace's /proc and find the editor's beneath it; `setuid` programs
 * (`sudo`) do not raise privileges inside either (bubblewrap sets no-new-privileges).
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

export interface SandboxPlan {
  /** The folder the command starts in. */
  readonly cwd: string;
}

/** bubblewrap's arguments for running `command` (an argv) under `plan`. */
export function bwrapArguments(plan: SandboxPlan, command: readonly string[]): string[] {
  return [
    // Every mount as it is, writable where it is writable now; `/dev` again, since a plain bind forbids devices.
    '--bind',
    '/',
    '/',
    '--dev-bind',
    '/dev',
    '/dev',
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
