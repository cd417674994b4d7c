/**
 * A configured server's identity: its scope, where it is defined, its name and a hash of its definition as
 * written. A workspace server's start is approved against it (`serverApproval.ts`), and "always allow" for
 * one of its tools is remembered under it: a changed definition, or another file's server of the same name,
 * is a different server and is asked about again.
 *
 * The hash is of the text as written, before `${input:…}`, `${env:…}` or `${workspaceFolder}` are filled
 * in: no value Cairn asks for or reads ever enters it. A literal secret written into the file does (an
 * `env` value, a header): the hash can only confirm a guess of it, to someone who can read the editor's
 * storage, and the same person can read the file, where the value sits in plain text.
 */
import { sha256Hex } from '../text/sha';
import type { McpServerEntry } from './config';
import type { McpServerIdentity } from './types';

/** Where the user's own servers are defined, as an identity's `origin`. */
export const USER_ORIGIN = 'user';

function sortedRecord(record: Readonly<Record<string, string>>): [string, string][] {
  return Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * The definition in one canonical JSON text: the transport as parsed (so `"type"` left out and written,
 * key order, whitespace and comments do not change it), maps sorted by key, absent fields as null.
 */
export function canonicalMcpDefinition(entry: McpServerEntry): string {
  const transport = entry.transport;
  if (transport.type === 'stdio') {
    return JSON.stringify({
      type: 'stdio',
      command: transport.command,
      args: transport.args,
      env: sortedRecord(transport.env),
      envFile: transport.envFile ?? null,
      cwd: transport.cwd ?? null,
    });
  }
  return JSON.stringify({ type: transport.type, url: transport.url, headers: sortedRecord(transport.headers) });
}

export function mcpServerIdentity(entry: McpServerEntry): McpServerIdentity {
  return { scope: entry.scope, origin: entry.origin, name: entry.name, definitionHash: sha256Hex(canonicalMcpDefinition(entry)) };
}

/** One short text for an identity, for keys in stored lists (`mcp:<key>/<tool>` for "always allow"). */
export function mcpIdentityKey(identity: McpServerIdentity): string {
  return sha256Hex(JSON.stringify([identity.scope, identity.origin, identity.name, identity.definitionHash])).slice(0, 32);
}
