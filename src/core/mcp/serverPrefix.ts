/**
 * The part of an MCP tool's name that says whose it is: `mcp__PREFIX__TOOL`. Approvals name a server by it
 * (`mcp__github__*` in `cairn.approvals`) and the context report groups tools by it, both reading up to the
 * first `__` after `mcp__`; so a prefix never holds `__`, never starts or ends with `_` (`a_` + `__tool`
 * would read as server `a`), and two servers of a session never share one (`mergeMcpServers` refuses the
 * later). Names that differ only in characters the API refuses (`my tools`, `my.tools`) share a prefix.
 */
import { sha256Hex } from '../text/sha';

/** Longest prefix: `mcp__` + 30 + `__` leaves a tool 27 characters of the API's 64 before its name is cut. */
export const MAX_SERVER_PREFIX_CHARS = 30;

/** `my.tools` → `my_tools`, `github__x` → `github_x`, `_a_` → `a`; a name with nothing usable gets a hash. */
export function mcpServerPrefix(server: string): string {
  const cleaned = server
    .replace(/[^a-zA-Z0-9_-]/g, '_')
    .replace(/_{2,}/g, '_')
    .replace(/^_+|_+$/g, '');
  const hash = (): string => sha256Hex(server).slice(0, 8);
  if (cleaned === '') return `server-${hash()}`;
  if (cleaned.length <= MAX_SERVER_PREFIX_CHARS) return cleaned;
  return `${cleaned.slice(0, MAX_SERVER_PREFIX_CHARS - 9)}-${hash()}`;
}
