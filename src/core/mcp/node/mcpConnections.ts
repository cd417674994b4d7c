import type {
  McpCallOptions,
  McpCallResult,
  McpConnections,
  McpServerConfig,
  McpServerIdentity,
  McpServerStatus,
  McpToolInfo,
} from '../types';
import { McpError } from '../types';
import { McpServerConnection } from './serverConnection';

/** How long a server may take to start and answer `initialize` (and each `tools/list` page). */
export const DEFAULT_START_TIMEOUT_MS = 30_000;
/** How long one tool call may take before the server is told to cancel it. */
export const DEFAULT_CALL_TIMEOUT_MS = 120_000;

export interface McpConnectionsOptions {
  /** Workspace servers (`scope: 'workspace'`) start only in a trusted workspace. */
  readonly workspaceTrusted: boolean;
  /** One line per event worth a look (a server started, failed, died, dropped a malformed tool). Never holds env or header values. */
  readonly log: (line: string) => void;
  /** How Cairn introduces itself in `initialize`. */
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly startTimeoutMs?: number;
  /** The default per-call timeout (a call's own `timeoutMs` wins). */
  readonly callTimeoutMs?: number;
  /**
   * Servers the caller decided not to start (an unresolved input, an untrusted workspace found earlier):
   * shown by `status()` as given, and a call to one rejects as `not_started` with its detail.
   */
  readonly notStarted?: readonly McpServerStatus[];
  /** The environment stdio servers inherit before their own `env` (default `process.env`; Cairn's credentials are removed). */
  readonly inheritedEnv?: Readonly<Record<string, string | undefined>>;
}

const UNTRUSTED_WORKSPACE = 'It is configured by this workspace, and the workspace is not trusted. Trust the workspace to start it.';

/**
 * The `McpConnections` port over the reference SDK: one connection per configured server (stdio, streamable
 * HTTP with SSE fallback, or SSE), all started in parallel at the first `listTools()`, each restarted by
 * the next call after it died.
 */
export class SdkMcpConnections implements McpConnections {
  private readonly connections = new Map<string, McpServerConnection>();
  private readonly identities = new Map<string, McpServerIdentity>();
  private readonly listeners = new Set<(server: string) => void>();
  private readonly notStarted: readonly McpServerStatus[];
  private closing: Promise<void> | undefined;

  constructor(servers: readonly McpServerConfig[], options: McpConnectionsOptions) {
    this.notStarted = (options.notStarted ?? []).filter((status) => !servers.some((config) => config.name === status.name));
    for (const config of servers) {
      if (this.connections.has(config.name)) {
        options.log(`MCP server ${config.name}: configured twice; the first configuration is used.`);
        continue;
      }
      const notAllowed = config.scope === 'workspace' && !options.workspaceTrusted ? UNTRUSTED_WORKSPACE : undefined;
      if (notAllowed) options.log(`MCP server ${config.name}: not started: ${notAllowed}`);
      this.identities.set(config.name, config.identity);
      this.connections.set(
        config.name,
        new McpServerConnection(
          config,
          {
            clientInfo: options.clientInfo,
            log: options.log,
            startTimeoutMs: options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
            callTimeoutMs: options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
            inheritedEnv: options.inheritedEnv ?? process.env,
            onToolsChanged: (server) => this.toolsChanged(server),
          },
          notAllowed,
        ),
      );
    }
  }

  async listTools(): Promise<readonly McpToolInfo[]> {
    const lists = await Promise.all([...this.connections.values()].map((connection) => connection.listTools()));
    return lists.flat();
  }

  call(server: string, tool: string, args: unknown, options?: McpCallOptions): Promise<McpCallResult> {
    const connection = this.connections.get(server);
    const notStarted = this.notStarted.find((status) => status.name === server);
    if (!connection && notStarted) {
      return Promise.reject(
        new McpError(`MCP server ${server} was not started${notStarted.detail ? `: ${notStarted.detail}` : '.'}`, 'not_started'),
      );
    }
    if (!connection) return Promise.reject(new McpError(`No MCP server named ${server} is configured.`, 'not_started'));
    return connection.call(tool, args, options);
  }

  status(): readonly McpServerStatus[] {
    return [...[...this.connections.values()].map((connection) => connection.status()), ...this.notStarted];
  }

  identity(server: string): McpServerIdentity | undefined {
    return this.identities.get(server);
  }

  onToolsChanged(listener: (server: string) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  /** A stdio server's process id while it runs (diagnostics; tests end a server with it). */
  serverPid(server: string): number | undefined {
    return this.connections.get(server)?.pid();
  }

  close(): Promise<void> {
    this.closing ??= Promise.all([...this.connections.values()].map((connection) => connection.close())).then(() => undefined);
    return this.closing;
  }

  private toolsChanged(server: string): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(server);
      } catch {
        // A listener's failure is its own; the others still hear of the change.
      }
    }
  }
}
