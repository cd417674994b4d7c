/**
 * Model Context Protocol servers as Cairn's core sees them: configured servers, their tools, and the
 * results of calling one. The SDK-based connections live in `node/` (they spawn processes and open
 * sockets); core reaches them only through the `McpConnections` port.
 */

/**
 * Who a server is, for every decision that trusts it (starting a workspace's server, "always allow" for a
 * tool): where it is defined and what it is defined as, never only its name, which another file may reuse.
 */
export interface McpServerIdentity {
  readonly scope: 'workspace' | 'user';
  /** Where it is defined: `user` (`cairn.mcp.servers`), or the URI of the folder whose `.vscode/mcp.json` has it. */
  readonly origin: string;
  /** The key in `servers`, exactly as written. */
  readonly name: string;
  /** SHA-256 of its definition as written, variables not substituted (`serverIdentity.ts`). */
  readonly definitionHash: string;
}

/** One server, after its configuration was read and its variables substituted. */
export interface McpServerConfig {
  /** The key in `servers` (`.vscode/mcp.json` or `cairn.mcp.servers`). */
  readonly name: string;
  /** Where it was configured: workspace servers never start in an untrusted workspace. */
  readonly scope: 'workspace' | 'user';
  readonly identity: McpServerIdentity;
  readonly transport: McpStdioTransport | McpHttpTransport;
}

export interface McpStdioTransport {
  readonly type: 'stdio';
  readonly command: string;
  readonly args: readonly string[];
  /** Added to the server's environment (after `envFile`); Cairn's own credentials are never passed on. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export interface McpHttpTransport {
  /** `http`: streamable HTTP, falling back to SSE when the server only speaks that; `sse`: SSE only. */
  readonly type: 'http' | 'sse';
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** A tool a server offers, as listed by `tools/list`. */
export interface McpToolInfo {
  readonly server: string;
  /** The server's own name for it. */
  readonly name: string;
  readonly description?: string;
  /** JSON Schema of its arguments, as the server sent it (checked before it is offered to the model). */
  readonly inputSchema: unknown;
  readonly annotations?: {
    readonly title?: string;
    readonly readOnlyHint?: boolean;
    readonly idempotentHint?: boolean;
    readonly destructiveHint?: boolean;
    readonly openWorldHint?: boolean;
  };
}

/** One block of a tool's result (the protocol's content types; anything else is named, not shown). */
export type McpContent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image' | 'audio'; readonly mimeType: string; readonly data: string }
  | {
      readonly type: 'resource';
      readonly resource: { readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string };
    }
  | { readonly type: 'resource_link'; readonly uri: string; readonly name?: string; readonly mimeType?: string }
  /** A content type Cairn does not know: its JSON, cut at a bound (`truncated` says so). */
  | { readonly type: 'unknown'; readonly original: string; readonly truncated?: boolean };

export interface McpCallResult {
  readonly content: readonly McpContent[];
  readonly isError: boolean;
  readonly structuredContent?: unknown;
}

/** How one server is doing, for notices and the report. */
export interface McpServerStatus {
  readonly name: string;
  readonly state: 'starting' | 'ready' | 'failed' | 'stopped' | 'not_started';
  /** Why it failed or was not started, in words a user can act on. */
  readonly detail?: string;
  readonly toolCount: number;
}

export interface McpCallOptions {
  readonly signal?: AbortSignal;
  /** Progress notifications from the server (`notifications/progress`), as a short line. */
  readonly onProgress?: (message: string) => void;
  /** Gives up after this long (the server is told to cancel). */
  readonly timeoutMs?: number;
}

/**
 * The port core uses to reach MCP servers (implemented with the reference SDK in `node/`). Never throws
 * for a server's failure: `call` rejects with an `McpError` whose message says what happened and what to do.
 */
export interface McpConnections {
  /** Starts the configured servers (those allowed to start) and lists their tools; servers that fail are in `status()`. */
  listTools(): Promise<readonly McpToolInfo[]>;
  call(server: string, tool: string, args: unknown, options?: McpCallOptions): Promise<McpCallResult>;
  status(): readonly McpServerStatus[];
  /** Who the configured server of this name is (undefined: no such server); approvals are bound to it. */
  identity(server: string): McpServerIdentity | undefined;
  /** A server said its tool list changed (`notifications/tools/list_changed`). */
  onToolsChanged(listener: (server: string) => void): { dispose(): void };
  close(): Promise<void>;
}

export class McpError extends Error {
  constructor(
    message: string,
    readonly kind:
      | 'not_started'
      | 'failed_to_start'
      | 'disconnected'
      | 'timeout'
      | 'cancelled'
      | 'protocol'
      | 'server_error'
      /** The server sent more in one message than Cairn reads (`node/messageLimit.ts`); the connection was closed. */
      | 'too_large',
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'McpError';
  }
}
