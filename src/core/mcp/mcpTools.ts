import type { McpToolOwner } from '../agent/approval';
import type { Redactor } from '../ledger/redactor';
import type { ExternalToolOutcome, ExternalTools } from '../ledger/types';
import type { ToolDefinition } from '../model/types';
import { offeredMcpTools, type OfferedMcpTool } from './offeredTools';
import { mcpResultText } from './resultText';
import { mcpIdentityKey } from './serverIdentity';
import { mcpServerPrefix } from './serverPrefix';
import { cleanedTools, serverText, type ServerText } from './serverText';
import { McpError, type McpConnections, type McpToolInfo } from './types';

/** How long one MCP tool call may take before the server is told to cancel it. */
export const MCP_CALL_TIMEOUT_MS = 120_000;
/**
 * How long a generation's start waits for the servers' tool lists. A server slower than this (starting,
 * unreachable) does not hold the session up: its tools join at the next generation, or at once with
 * "Apply MCP Tool Changes Now".
 */
export const MCP_LIST_WAIT_MS = 10_000;
/** Problems named in one notice (3,000 tools with bad schemas are one count, not 3,000 lines). */
const MAX_PROBLEM_LINES = 20;

export interface McpToolsOptions {
  /** The names of Cairn's own tools: an MCP tool never takes one. */
  readonly builtInNames: ReadonlySet<string>;
  readonly callTimeoutMs?: number;
  readonly listWaitMs?: number;
  /** The session's one redactor: no text a server sends reaches the model, the journal or the chat with a secret in it. */
  readonly redactor?: Redactor;
}

/**
 * The MCP servers' tools as the session offers them: listed when a generation starts (the composer asks
 * through `definitions`) and fixed until the next one, so the cached prefix never changes mid-generation;
 * run for the ledger (`ExternalTools`), their results and failures as text it stores and caps.
 *
 * This is where the servers' text enters the session: every text a server controls (tool names, descriptions,
 * schemas, results, errors, progress, why it failed) goes through `serverText` here, once.
 */
export class McpTools implements ExternalTools {
  private offered = new Map<string, OfferedMcpTool>();
  private reportProblems: (problems: readonly string[]) => void = () => undefined;

  constructor(
    private readonly connections: McpConnections,
    private readonly options: McpToolsOptions,
  ) {}

  /** Where each listing's problems go (cleaned, at most 20 lines): tools that could not be offered, servers that did not start. */
  useProblemReporter(report: (problems: readonly string[]) => void): void {
    this.reportProblems = (problems) => {
      const clean = this.serverText();
      const shown = problems.slice(0, MAX_PROBLEM_LINES).map(clean);
      const more = problems.length - shown.length;
      report(more > 0 ? [...shown, `…and ${more.toLocaleString('en-US')} more problems with the MCP servers' tools.`] : shown);
    };
  }

  /** The servers' text made fit for the session, with the secrets known now. */
  private serverText(): ServerText {
    return serverText(this.options.redactor?.redacting() ?? ((text) => text));
  }

  /** Lists every server's tools now and fixes what is offered until the next call. */
  async definitions(): Promise<ToolDefinition[]> {
    let listed: readonly McpToolInfo[];
    try {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const waited = new Promise<undefined>((resolve) => {
        timer = setTimeout(() => resolve(undefined), this.options.listWaitMs ?? MCP_LIST_WAIT_MS);
      });
      const answered = await Promise.race([this.connections.listTools(), waited]).finally(() => clearTimeout(timer));
      if (answered === undefined) {
        this.reportProblems([
          `The MCP servers did not list their tools within ${(this.options.listWaitMs ?? MCP_LIST_WAIT_MS) / 1000} s; they are offered from the next generation, or at once with “Cairn: Apply MCP Tool Changes Now”.`,
        ]);
      }
      listed = answered ?? [];
    } catch (error) {
      // The port promises not to throw for a server; a bug here must not stop the session from starting.
      this.reportProblems([`The MCP servers' tools could not be listed: ${error instanceof Error ? error.message : String(error)}`]);
      listed = [];
    }
    const cleaned = cleanedTools(listed, this.options.redactor?.redacting() ?? ((text) => text));
    const { tools, skipped } = offeredMcpTools(cleaned.tools, this.options.builtInNames);
    const failed = this.connections
      .status()
      .filter((s) => s.state === 'failed' || s.state === 'not_started')
      .map((s) => `MCP server ${s.name}: ${s.detail ?? s.state}`);
    const problems = [...failed, ...cleaned.leftOut, ...skipped];
    if (problems.length > 0) this.reportProblems(problems);
    this.offered = new Map(tools.map((tool) => [tool.name, tool]));
    return tools.map((tool) => tool.definition);
  }

  has(name: string): boolean {
    return this.offered.has(name);
  }

  /** The server and the server's own name of a tool offered now. */
  describe(name: string): { server: string; tool: string } | undefined {
    const tool = this.offered.get(name);
    return tool ? { server: tool.server, tool: tool.tool } : undefined;
  }

  /** Whose a tool offered now is, for its approval: its server's identity, never its name's prefix. */
  owner(name: string): McpToolOwner | undefined {
    const tool = this.offered.get(name);
    const identity = tool ? this.connections.identity(tool.server) : undefined;
    if (!tool || !identity) return undefined;
    return {
      scope: identity.scope,
      prefix: mcpServerPrefix(tool.server),
      alwaysKey: `mcp:${mcpIdentityKey(identity)}/${tool.tool}`,
    };
  }

  async run(
    name: string,
    input: unknown,
    context: { readonly signal?: AbortSignal; readonly onProgress?: (line: string) => void },
  ): Promise<ExternalToolOutcome> {
    const tool = this.offered.get(name);
    if (!tool) return { text: `No MCP tool ${name} is offered in this generation.`, isError: true, sameResultDedupe: false };
    const args = input === undefined || input === null ? {} : input;
    if (typeof args !== 'object' || Array.isArray(args)) {
      return { text: `The arguments of ${name} must be a JSON object.`, isError: true, sameResultDedupe: false };
    }
    const clean = this.serverText();
    const onProgress = context.onProgress;
    try {
      const result = await this.connections.call(tool.server, tool.tool, args, {
        ...(context.signal ? { signal: context.signal } : {}),
        ...(onProgress ? { onProgress: (line: string) => onProgress(clean(line)) } : {}),
        timeoutMs: this.options.callTimeoutMs ?? MCP_CALL_TIMEOUT_MS,
      });
      return { text: clean(mcpResultText(result)), isError: result.isError, sameResultDedupe: tool.sameResultDedupe && !result.isError };
    } catch (error) {
      const message =
        error instanceof McpError
          ? error.message
          : `The MCP server ${tool.server} failed on ${tool.tool}: ${error instanceof Error ? error.message : String(error)}`;
      return { text: clean(message), isError: true, sameResultDedupe: false };
    }
  }
}
