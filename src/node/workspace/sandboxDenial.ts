import * as nodePath from 'node:path';
import type { Confinement } from './commandSandbox';
import { within } from './sandboxPolicy';

/**
 * The one line appended to a confined command's result when its failure looks like the sandbox's doing, so
 * neither the model nor the user takes "Read-only file system" or "Could not resolve host" for a broken
 * machine: what was denied, and how the user allows it. Read from what the command printed (the sandbox
 * cannot report it: the kernel answers the command directly), only for a command that failed.
 *
 * - A write outside the writable folders: "Read-only file system" / `EROFS` (the whole file system is
 *   mounted read-only).
 * - A hidden path (a credential, the editor's data, the runtime sockets): "Permission denied" / `EACCES`
 *   naming it, or `~/` and its name under the home folder.
 * - The network, when it is not allowed: unreachable networks, failed name lookups, refused connections
 *   (a server on the machine's loopback is not in the sandbox's).
 */
export function sandboxDenialLine(output: string, confine: Confinement, home: string): string | undefined {
  const denied: string[] = [];
  const erofs = /(?:EROFS[^\n]*?'([^'\n]+)'|([^\s:'"`]+)['"`]?: Read-only file system|Read-only file system[^\n]*?'([^'\n]+)')/i.exec(
    output,
  );
  if (erofs) {
    const path = erofs[1] ?? erofs[2] ?? erofs[3];
    if (path && keptReadOnly(path)) denied.push(`writing ${path} (${KEPT_READ_ONLY})`);
    else if (path && nodePath.isAbsolute(path) && !confine.writable.some((folder) => within(path, folder)))
      denied.push(`writing outside the workspace (${path})`);
    else denied.push(`${WRITE_DENIED}${path ? ` (${path})` : ''}`);
  } else if (/Read-only file system|EROFS/i.test(output)) {
    denied.push(WRITE_DENIED);
  }
  if (/Permission denied|EACCES/i.test(output)) {
    const named = confine.hidden.find((hidden) => output.includes(hidden.path) || mentionsUnderHome(output, hidden.path, home));
    if (named) denied.push(`reading ${shortPath(named.path, home)} (hidden from commands: credentials, the editor's data and sockets)`);
  }
  if (!confine.network && NETWORK_FAILURE.test(output)) denied.push('the network');
  if (denied.length === 0) return undefined;
  const allow = [
    ...(denied.includes('the network') ? ['"cairn.sandboxNetwork": true for the network'] : []),
    '"cairn.sandbox": "off" to run commands unconfined',
  ];
  return (
    `[Cairn sandbox] The sandbox denied ${denied.join(' and ')}. Commands run with the workspace writable, the rest read-only, ` +
    `credentials hidden${confine.network ? '' : ' and no network'}; to allow it the user sets ${allow.join(', or ')} in their user settings.`
  );
}

/** What stays read-only inside the workspace (`sandboxPolicy.ts`, `WORKSPACE_CODE_PATHS`), as the user reads it. */
const KEPT_READ_ONLY =
  "git's hooks and config, .vscode, .cairn, .claude and workspace files stay read-only: they run code outside the sandbox";
const WRITE_DENIED = `writing outside the workspace or to what stays read-only in it (${KEPT_READ_ONLY})`;

/** A path, as a command printed it, into one of the workspace's read-only places. */
function keptReadOnly(path: string): boolean {
  const names = path.split(/[\\/]/).map((name) => name.toLowerCase());
  return (
    names.some((name) => name === '.vscode' || name === '.cairn' || name === '.claude') ||
    names.some((name, i) => name === '.git' && (names[i + 1] === 'hooks' || names[i + 1] === 'config')) ||
    (names.at(-1) ?? '').endsWith('.code-workspace')
  );
}

const NETWORK_FAILURE =
  /Network is unreachable|ENETUNREACH|EAI_AGAIN|Temporary failure in name resolution|Could not resolve host|Name or service not known|getaddrinfo|ECONNREFUSED|Connection refused|Could not connect to/i;

function mentionsUnderHome(output: string, path: string, home: string): boolean {
  const relative = nodePath.relative(home, path);
  return !relative.startsWith('..') && relative !== '' && output.includes(`~/${relative}`);
}

function shortPath(path: string, home: string): string {
  const relative = nodePath.relative(home, path);
  return !relative.startsWith('..') && !nodePath.isAbsolute(relative) ? `~/${relative}` : path;
}
