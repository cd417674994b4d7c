import type {
  McpCallOptions,
  McpCallResult,
  McpConnections,
  McpServerIdentity,
  McpServerStatus,
  McpToolInfo,
} from '../../../src/core/mcp/types';
import { testUserIdentity } from './identities';

/**
 * A fake of the `McpConnections` port for tests of what core does with MCP tools (naming, the ledger,
 * approvals, the report): a fixed tool list and scripted answers. The real connections are tested against
 * real servers in `src/core/mcp/node/`.
 */
export class FakeMcpConnections implements McpConnections {
  readonly calls: Array<{ server: string; tool: string; args: unknown; options?: McpCallOptions }> = [];
  private readonly listeners = new Set<(server: string) => void>();
  listings = 0;

  constructor(
    public tools: McpToolInfo[],
    public answer: (
      server: string,
      tool: string,
      args: unknown,
      options?: McpCallOptions,
    ) => Promise<McpCallResult> | McpCallResult = () => ({
      content: [{ type: 'text', text: 'ok' }],
      isError: false,
    }),
    public statuses: McpServerStatus[] = [],
    /** Who each server is; a server not named here is taken as one of the user's own (`testUserIdentity`). */
    public identities: Record<string, McpServerIdentity> = {},
  ) {}

  async listTools(): Promise<readonly McpToolInfo[]> {
    this.listings++;
    return this.tools;
  }

  async call(server: string, tool: string, args: unknown, options?: McpCallOptions): Promise<McpCallResult> {
    this.calls.push({ server, tool, args, ...(options ? { options } : {}) });
    return this.answer(server, tool, args, options);
  }

  status(): readonly McpServerStatus[] {
    return this.statuses;
  }

  identity(server: string): McpServerIdentity | undefined {
    return this.identities[server] ?? testUserIdentity(server);
  }

  onToolsChanged(listener: (server: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** As a server's `notifications/tools/list_changed`. */
  changeTools(server: string, tools: McpToolInfo[]): void {
    this.tools = tools;
    for (const listener of this.listeners) listener(server);
  }

  async close(): Promise<void> {}
}
