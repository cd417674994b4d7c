import type { JsonSchema, ToolDefinition } from '../model/types';
import { sha256Hex } from '../text/sha';
import { mcpServerPrefix } from './serverPrefix';
import { showHidden } from '../text/visibleText';
import type { McpToolInfo } from './types';

/** The API's rule for a tool name. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
/** Longest description offered: a server's prose is the user's tokens on every request. */
export const MAX_DESCRIPTION_CHARS = 1_000;
/** Largest schema offered (its JSON): a bigger one is skipped with a notice, never sent. */
export const MAX_SCHEMA_CHARS = 16_000;
/**
 * What the servers may add to every request: at most this many tools, and this many characters of
 * definitions (name, description and schema as JSON), from one server and from all of them together. A
 * server listing 3,000 tools would otherwise put millions of characters in every request. VS Code offers
 * at most 128 tools in all; one server rarely needs 100, and 40,000 characters is about 10,000 tokens.
 * The first tools by server and name that fit are offered; the others are named in `skipped`.
 */
export interface McpToolBounds {
  readonly toolsPerServer: number;
  readonly charsPerServer: number;
  readonly toolsInAll: number;
  readonly charsInAll: number;
}

export const MCP_TOOL_BOUNDS: McpToolBounds = {
  toolsPerServer: 100,
  charsPerServer: 40_000,
  toolsInAll: 128,
  charsInAll: 100_000,
};
/** Tools named in a "left out" line; the rest are counted. */
const NAMED_LEFT_OUT = 10;

/** One MCP tool as offered to the model, and where calls to it go. */
export interface OfferedMcpTool {
  /** `mcp__SERVER__TOOL`, made to fit the API's name rule. */
  readonly name: string;
  readonly server: string;
  readonly tool: string;
  readonly definition: ToolDefinition;
  /** Annotated read-only and idempotent: the same arguments with the same result answer "Same result as". */
  readonly sameResultDedupe: boolean;
}

export interface OfferedMcpTools {
  /** Sorted by name, so the same servers with the same tools always give the same prefix. */
  readonly tools: readonly OfferedMcpTool[];
  /** Tools not offered, each with the reason (shown to the user once). */
  readonly skipped: readonly string[];
}

/** A name part made of what the API accepts: anything else becomes `_`. */
function namePart(text: string): string {
  const cleaned = text.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned.length > 0 ? cleaned : '_';
}

/**
 * `mcp__PREFIX__TOOL` (`serverPrefix.ts`); one too long for the API keeps its start (the whole prefix, which
 * is at most 37 characters with `mcp__` and `__`) and a short hash of the whole, so it stays unique.
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${mcpServerPrefix(server)}__${namePart(tool)}`;
  if (full.length <= 64) return full;
  return `${full.slice(0, 55)}_${sha256Hex(`${server}\u0000${tool}`).slice(0, 8)}`;
}

function isObjectSchema(schema: unknown): schema is { type: 'object'; properties?: unknown } {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) && (schema as { type?: unknown }).type === 'object';
}

/**
 * What the model is offered from the servers' tool lists: each tool with a name the API accepts and no other
 * tool has, a description of bounded length, and an object schema. A tool that cannot be offered as it is
 * (a schema that is not an object, one too large, a name that collides) is skipped and named in `skipped`;
 * so are the tools past `bounds` (`MCP_TOOL_BOUNDS`), one line per server.
 */
export function offeredMcpTools(
  listed: readonly McpToolInfo[],
  builtInNames: ReadonlySet<string>,
  bounds: McpToolBounds = MCP_TOOL_BOUNDS,
): OfferedMcpTools {
  const skipped: string[] = [];
  const byName = new Map<string, OfferedMcpTool>();
  const sorted = [...listed].sort((a, b) => (a.server === b.server ? cmp(a.name, b.name) : cmp(a.server, b.server)));
  for (const info of sorted) {
    const label = `${info.server}/${info.name}`;
    const name = mcpToolName(info.server, info.name);
    if (!TOOL_NAME.test(name) || builtInNames.has(name)) {
      skipped.push(`${label}: its name cannot be offered (${name}).`);
      continue;
    }
    if (byName.has(name)) {
      skipped.push(`${label}: another tool of the same server already has the name ${name}.`);
      continue;
    }
    if (!isObjectSchema(info.inputSchema)) {
      skipped.push(`${label}: its input schema is not a JSON object schema, so its arguments cannot be described.`);
      continue;
    }
    const schemaJson = JSON.stringify(info.inputSchema);
    if (schemaJson.length > MAX_SCHEMA_CHARS) {
      skipped.push(`${label}: its input schema is ${schemaJson.length} characters (at most ${MAX_SCHEMA_CHARS} are offered).`);
      continue;
    }
    const described = (info.description ?? '').trim() || `The ${info.name} tool of the ${info.server} MCP server.`;
    const description = described.length > MAX_DESCRIPTION_CHARS ? `${described.slice(0, MAX_DESCRIPTION_CHARS)} […cut]` : described;
    const schema = JSON.parse(schemaJson) as Record<string, unknown>;
    const input_schema = { ...schema, type: 'object', properties: isPlainObject(schema.properties) ? schema.properties : {} } as JsonSchema;
    byName.set(name, {
      name,
      server: info.server,
      tool: info.name,
      definition: { name, description: `[MCP server ${info.server}] ${description}`, input_schema },
      sameResultDedupe: info.annotations?.readOnlyHint === true && info.annotations?.idempotentHint === true,
    });
  }
  // The bounds' lines first: one per server, they say the most, and a notice names only its first problems.
  const bounded = withinBounds([...byName.values()], listed, bounds);
  return { tools: bounded.tools.sort((a, b) => cmp(a.name, b.name)), skipped: [...bounded.leftOut, ...skipped] };
}

/**
 * The tools that fit the bounds, in the order given (by server, then name), and one line per server
 * saying how many of its tools were left out, which, and why.
 */
function withinBounds(
  candidates: readonly OfferedMcpTool[],
  listed: readonly McpToolInfo[],
  bounds: McpToolBounds,
): { tools: OfferedMcpTool[]; leftOut: string[] } {
  const tools: OfferedMcpTool[] = [];
  const perServer = new Map<string, { tools: number; chars: number; leftOut: string[] }>();
  let allTools = 0;
  let allChars = 0;
  for (const tool of candidates) {
    const server = perServer.get(tool.server) ?? { tools: 0, chars: 0, leftOut: [] };
    perServer.set(tool.server, server);
    const chars = JSON.stringify(tool.definition).length;
    const fits =
      server.tools < bounds.toolsPerServer &&
      server.chars + chars <= bounds.charsPerServer &&
      allTools < bounds.toolsInAll &&
      allChars + chars <= bounds.charsInAll;
    if (!fits) {
      server.leftOut.push(tool.tool);
      continue;
    }
    tools.push(tool);
    server.tools++;
    server.chars += chars;
    allTools++;
    allChars += chars;
  }
  const leftOut: string[] = [];
  for (const [server, counts] of perServer) {
    if (counts.leftOut.length === 0) continue;
    const total = listed.filter((info) => info.server === server).length;
    const named = counts.leftOut.slice(0, NAMED_LEFT_OUT).map((name) => `${server}/${showHidden(name).slice(0, 80)}`);
    const more = counts.leftOut.length - named.length;
    leftOut.push(
      `MCP server ${server}: ${count(counts.leftOut.length)} of its ${count(total)} tools are not offered: Cairn offers at most ` +
        `${count(bounds.toolsPerServer)} tools and ${count(bounds.charsPerServer)} characters of tool definitions per server ` +
        `(${count(bounds.toolsInAll)} tools and ${count(bounds.charsInAll)} characters from all servers), the first by name that fit. ` +
        `Not offered: ${named.join(', ')}${more > 0 ? ` and ${count(more)} more` : ''}. Turn off tools you do not need in the server's own settings, if it has them.`,
    );
  }
  return { tools, leftOut };
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
