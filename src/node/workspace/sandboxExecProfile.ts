import type { Confinement } from './commandSandbox';

/**
 * The macOS counterpart of `bwrapArguments`: a `sandbox-exec` (Seatbelt) profile drawn from the same
 * `Confinement` (`sandboxPolicy.ts`), so both systems confine a command to the same folders: reads allowed
 * everywhere but the hidden paths, writes only in the writable folders, the system's temporary folders and
 * the terminal devices, no network unless allowed, signals and process information only within the
 * sandbox (a command cannot inspect the editor's process). Tested as text: no machine that runs the tests
 * can run it.
 *
 * Seatbelt takes the last rule that matches, so the denials of hidden paths and read-only cache parts come
 * after the allowances they narrow.
 */
export function sandboxExecProfile(confine: Confinement): string {
  const lines = [
    '(version 1)',
    '(deny default)',
    '(allow process-exec)',
    '(allow process-fork)',
    '(allow signal (target same-sandbox))',
    '(allow process-info* (target same-sandbox))',
    '(allow sysctl-read)',
    '(allow user-preference-read)',
    '(allow mach-lookup)',
    '(allow ipc-posix-shm)',
    '(allow ipc-posix-sem)',
    '(allow pseudo-tty)',
    '(allow file-ioctl)',
    '(allow file-read*)',
    `(allow file-write* ${[
      ...confine.writable.map(subpath),
      subpath('/private/tmp'),
      subpath('/private/var/folders'),
      literal('/dev/null'),
      literal('/dev/zero'),
      literal('/dev/tty'),
      literal('/dev/ptmx'),
      '(regex #"^/dev/ttys[0-9]+$")',
    ].join(' ')})`,
  ];
  if (confine.readOnly.length > 0) lines.push(`(deny file-write* ${confine.readOnly.map(subpath).join(' ')})`);
  if (confine.hidden.length > 0) {
    const hidden = confine.hidden.map((h) => (h.kind === 'folder' ? subpath(h.path) : literal(h.path))).join(' ');
    lines.push(`(deny file-read* file-write* ${hidden})`);
  }
  // No network at all otherwise, Unix sockets included: Docker's and the agents' sockets are reached that way.
  if (confine.network) lines.push('(allow network*)');
  return `${lines.join('\n')}\n`;
}

function subpath(path: string): string {
  return `(subpath ${quoted(path)})`;
}

function literal(path: string): string {
  return `(literal ${quoted(path)})`;
}

/** A Seatbelt string: backslashes and quotes escaped, so no path can end the string and add a rule. */
function quoted(path: string): string {
  return `"${path.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}
