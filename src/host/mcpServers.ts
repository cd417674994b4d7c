import type { McpConnections, McpServerConfig, McpServerStatus } from '../core/mcp/types';
import type { LoadedMcpServers } from './mcpSetup';

/** Builds the connections to a set of servers (the SDK-based ones in the extension; a fake in a test). */
export type McpConnectionsFactory = (servers: readonly McpServerConfig[], notStarted: readonly McpServerStatus[]) => McpConnections;

/**
 * The MCP servers of this window: read again each time a session is assembled (an edited mcp.json or
 * setting applies to the next session), reused while their configuration is the same (a server is not
 * restarted for nothing), closed when it changes and when the window closes.
 */
export class McpServers {
  private current: { key: string; connections: McpConnections } | undefined;

  constructor(
    private readonly load: () => Promise<LoadedMcpServers>,
    private readonly connect: McpConnectionsFactory,
  ) {}

  /** The connections for the next session; none when no server is configured. */
  async forSession(): Promise<McpConnections | undefined> {
    const loaded = await this.load();
    if (loaded.servers.length === 0 && loaded.notStarted.length === 0) {
      await this.close();
      return undefined;
    }
    // The key holds input values (inside the configs): it stays in memory, compared, never logged.
    const key = JSON.stringify([loaded.servers, loaded.notStarted]);
    if (this.current?.key === key) return this.current.connections;
    await this.close();
    const connections = this.connect(loaded.servers, loaded.notStarted);
    this.current = { key, connections };
    return connections;
  }

  async close(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    await current?.connections.close();
  }
}
