import { sanitizeTerminalText } from '../text/terminalText';
import type { McpToolInfo } from './types';

/**
 * What an MCP server sends, made fit to enter the session: every text a server controls (its tools'
 * descriptions, titles and schemas, its results, errors and progress, the reasons it failed) can reach
 * the model, the journal and the chat. Two treatments, in this order:
 *
 * 1. The command output's cleaner (`core/text/terminalText.ts`): terminal escapes removed, `\r` overwrites,
 *    BEL and other controls, and bidi controls made visible. First, so a secret split by an escape is whole
 *    again for step 2.
 * 2. The session's one redactor: the API key, the `${input:}` values, the credentials withheld from commands.
 *
 * `McpTools` applies it where the servers' answers enter core, once for every text.
 */
export type ServerText = (text: string) => string;

export function serverText(redact: (text: string) => string): ServerText {
  return (text) => redact(sanitizeTerminalText(text));
}

export interface CleanedTools {
  readonly tools: readonly McpToolInfo[];
  /** One line per server whose tools were left out here, saying why (for the user's notice). */
  readonly leftOut: readonly string[];
}

/**
 * The servers' tool lists with every text cleaned: descriptions, titles, and every string in a schema,
 * its keys included (a property name reaches the model too). A tool whose name holds a secret is left
 * out: its name is how calls reach it, so it cannot be changed, and a redacted name could collide with
 * another. So is a tool whose schema is nested too deeply to walk.
 */
export function cleanedTools(listed: readonly McpToolInfo[], redact: (text: string) => string): CleanedTools {
  const clean = serverText(redact);
  const secretNames = new Map<string, number>();
  const tooDeep = new Map<string, number>();
  const tools: McpToolInfo[] = [];
  for (const info of listed) {
    if (redact(info.name) !== info.name) {
      secretNames.set(info.server, (secretNames.get(info.server) ?? 0) + 1);
      continue;
    }
    let inputSchema: unknown;
    try {
      inputSchema = cleanedJson(info.inputSchema, clean);
    } catch {
      // JSON.stringify's own stack limit: a schema thousands of levels deep describes no arguments.
      tooDeep.set(info.server, (tooDeep.get(info.server) ?? 0) + 1);
      continue;
    }
    const annotations = info.annotations
      ? { ...info.annotations, ...(info.annotations.title !== undefined ? { title: clean(info.annotations.title) } : {}) }
      : undefined;
    tools.push({
      ...info,
      ...(info.description !== undefined ? { description: clean(info.description) } : {}),
      inputSchema,
      ...(annotations ? { annotations } : {}),
    });
  }
  const leftOut = [
    ...[...secretNames].map(
      ([server, count]) =>
        `MCP server ${server}: ${count === 1 ? '1 tool whose name holds' : `${count} tools whose names hold`} a secret Cairn keeps ` +
        `(the API key, an MCP input value or a withheld credential) ${count === 1 ? 'is' : 'are'} not offered. ` +
        'The server is echoing a credential back: check what its configuration gives it.',
    ),
    ...[...tooDeep].map(
      ([server, count]) =>
        `MCP server ${server}: ${count} ${count === 1 ? 'tool is' : 'tools are'} not offered: ${count === 1 ? 'its' : 'their'} input schema is nested too deeply to read.`,
    ),
  ];
  return { tools, leftOut };
}

/** A JSON value with every string cleaned, object keys too; throws when it is too deep to stringify. */
function cleanedJson(value: unknown, clean: ServerText): unknown {
  const json = JSON.stringify(value, (_key, node: unknown) => {
    if (typeof node === 'string') return clean(node);
    if (typeof node === 'object' && node !== null && !Array.isArray(node)) {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [clean(key), child]));
    }
    return node;
  });
  return json === undefined ? undefined : JSON.parse(json);
}
