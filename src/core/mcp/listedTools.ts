import type { McpToolInfo } from './types';

type ToolAnnotations = NonNullable<McpToolInfo['annotations']>;

/** What one page of a `tools/list` answer held: the tools that could be read, and why the others were dropped. */
export interface ListedToolsPage {
  readonly tools: readonly McpToolInfo[];
  readonly dropped: readonly string[];
  /** The cursor of the next page, when the server gave a usable one. */
  readonly nextCursor?: string;
}

const ANNOTATION_FLAGS = ['readOnlyHint', 'idempotentHint', 'destructiveHint', 'openWorldHint'] as const;
/** Longest tool name shown in a drop reason (a hostile server's name is untrusted text). */
const SHOWN_NAME_CHARS = 80;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Only the annotation fields Cairn reads, each only when it has the right type. The title is the
 * annotations' own, else the tool's top-level `title` (where servers on recent protocol versions put it).
 */
function annotationsOf(value: unknown, toolTitle: unknown): ToolAnnotations | undefined {
  const source = isRecord(value) ? value : {};
  const annotations: { -readonly [K in keyof ToolAnnotations]: ToolAnnotations[K] } = {};
  if (typeof source.title === 'string') annotations.title = source.title;
  else if (typeof toolTitle === 'string') annotations.title = toolTitle;
  for (const flag of ANNOTATION_FLAGS) if (typeof source[flag] === 'boolean') annotations[flag] = source[flag];
  return Object.keys(annotations).length > 0 ? annotations : undefined;
}

/**
 * One page of a server's `tools/list` result, read as untrusted input: each entry is copied field by field
 * (only the fields of `McpToolInfo`); an entry with no name or a description that is not a string is dropped
 * with its reason, never thrown. The schema is kept as sent (even `"string"`): whether it can be offered is
 * `offeredMcpTools`' decision, which names the skipped tool to the user.
 */
export function listedToolsPage(server: string, result: unknown): ListedToolsPage {
  if (!isRecord(result) || !Array.isArray(result.tools)) {
    return { tools: [], dropped: [`${server}: its tools/list answer has no list of tools.`] };
  }
  const tools: McpToolInfo[] = [];
  const dropped: string[] = [];
  result.tools.forEach((entry: unknown, index) => {
    if (!isRecord(entry) || typeof entry.name !== 'string' || entry.name.length === 0) {
      dropped.push(`${server}: tool #${index + 1} has no name; dropped.`);
      return;
    }
    const name = entry.name;
    if (entry.description !== undefined && entry.description !== null && typeof entry.description !== 'string') {
      dropped.push(`${server}: tool ${JSON.stringify(name.slice(0, SHOWN_NAME_CHARS))} has a description that is not text; dropped.`);
      return;
    }
    const annotations = annotationsOf(entry.annotations, entry.title);
    tools.push({
      server,
      name,
      ...(typeof entry.description === 'string' ? { description: entry.description } : {}),
      inputSchema: entry.inputSchema,
      ...(annotations ? { annotations } : {}),
    });
  });
  const cursor = result.nextCursor;
  return { tools, dropped, ...(typeof cursor === 'string' && cursor.length > 0 ? { nextCursor: cursor } : {}) };
}
