import { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Progress, Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { mcpCallResult } from '../callResult';
import { listedToolsPage } from '../listedTools';
import { McpError } from '../types';
import type { McpCallOptions, McpCallResult, McpServerConfig, McpServerStatus, McpToolInfo } from '../types';
import { ANY_RESULT } from './anyResult';
import { boundedFetch, isStdioMessageTooLarge, MAX_MESSAGE_BYTES, tooLargeMessage } from './messageLimit';
import {
  errorMessage,
  isConnectionLost,
  isHttpConnectionFailure,
  isSdkTimeout,
  isServerErrorResponse,
  looksLikeSseOnlyServer,
  quoted,
} from './sdkErrors';
import { serverEnvironment } from './serverEnvironment';
import { StderrTail } from './stderrTail';
import { unlessAborted, withinTimeout } from './waits';

/** Most pages of `tools/list` read from one server (a server whose cursor never ends is cut there). */
export const MAX_TOOL_PAGES = 100;
/** Protocol errors logged per connection (a server writing garbage would otherwise flood the log). */
const MAX_LOGGED_ERRORS = 20;

export interface ServerConnectionOptions {
  readonly clientInfo: { readonly name: string; readonly version: string };
  readonly log: (line: string) => void;
  readonly startTimeoutMs: number;
  readonly callTimeoutMs: number;
  /** The environment stdio servers inherit (Cairn's credentials are removed from it). */
  readonly inheritedEnv: Readonly<Record<string, string | undefined>>;
  readonly onToolsChanged: (server: string) => void;
}

type ConnectionState = 'idle' | 'starting' | 'ready' | 'failed' | 'disconnected' | 'closed';

interface Live {
  readonly client: Client;
  readonly transport: Transport;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A progress notification as a short line: "3/10 indexing", "3 indexing", "indexing". */
export function progressLine(progress: Progress): string {
  const count = typeof progress.total === 'number' ? `${progress.progress}/${progress.total}` : `${progress.progress}`;
  const message = typeof progress.message === 'string' ? quoted(progress.message).slice(0, 200) : '';
  return message ? `${count} ${message}` : count;
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * One configured MCP server: started on demand (and again after it died, once per call), its tools listed,
 * its calls made and their failures turned into `McpError`s that say what happened and what comes next.
 */
export class McpServerConnection {
  private state: ConnectionState = 'idle';
  private detail: string | undefined;
  private live: Live | undefined;
  private starting: Promise<Live> | undefined;
  /** The client and transport of a start in progress, closed if the start times out or the connections close. */
  private attempt: Live | undefined;
  private tools: readonly McpToolInfo[] | undefined;
  private toolsStale = true;
  /**
   * A `tools/list_changed` was passed on and the tools have not been listed since: more of them say nothing
   * new (a server sending 2,000 in one call makes one notice, one log line, one journal record).
   */
  private changeAnnounced = false;
  /** A message over the limit ended this connection (its calls end as `too_large`). */
  private overLimit = false;
  /** Bumped at every start and at close: events from an older connection are ignored. */
  private generation = 0;
  private readonly stderr = new StderrTail();

  constructor(
    readonly config: McpServerConfig,
    private readonly options: ServerConnectionOptions,
    /** Why this server may not start at all (an untrusted workspace), or undefined. */
    private readonly notAllowed: string | undefined,
  ) {}

  get name(): string {
    return this.config.name;
  }

  status(): McpServerStatus {
    const toolCount = this.state === 'ready' ? (this.tools?.length ?? 0) : 0;
    if (this.notAllowed !== undefined) return { name: this.name, state: 'not_started', detail: this.notAllowed, toolCount: 0 };
    switch (this.state) {
      case 'idle':
        return { name: this.name, state: 'stopped', detail: 'Not started yet: it starts when its tools are listed.', toolCount };
      case 'closed':
        return { name: this.name, state: 'stopped', toolCount };
      case 'disconnected':
        return { name: this.name, state: 'failed', ...(this.detail ? { detail: this.detail } : {}), toolCount };
      default:
        return { name: this.name, state: this.state, ...(this.detail ? { detail: this.detail } : {}), toolCount };
    }
  }

  /** The stdio server's process id while it runs (for diagnostics and tests). */
  pid(): number | undefined {
    const transport = this.live?.transport;
    return transport instanceof StdioClientTransport ? (transport.pid ?? undefined) : undefined;
  }

  /**
   * Its tools, starting it if it never started or lost its connection (not after a failed start: that is
   * retried by the next call, so a broken server does not cost every listing its start timeout). Never
   * throws: a server that cannot list has no tools, and `status()` says why.
   */
  async listTools(): Promise<readonly McpToolInfo[]> {
    if (this.notAllowed !== undefined || this.state === 'closed' || this.state === 'failed') return [];
    try {
      const live = await this.ready();
      if (this.tools === undefined || this.toolsStale) {
        this.toolsStale = false;
        this.changeAnnounced = false;
        this.tools = await this.fetchTools(live);
      }
      return this.state === 'ready' ? this.tools : [];
    } catch (error) {
      if (!(error instanceof McpError)) this.options.log(`MCP server ${this.name}: listing its tools failed: ${errorMessage(error)}`);
      return [];
    }
  }

  async call(tool: string, args: unknown, options: McpCallOptions = {}): Promise<McpCallResult> {
    if (this.notAllowed !== undefined) throw new McpError(`MCP server ${this.name} was not started: ${this.notAllowed}`, 'not_started');
    if (this.state === 'closed') throw new McpError(`MCP server ${this.name} is closed (the session ended).`, 'not_started');
    const live = await this.readyUnlessCancelled(tool, options.signal);
    const timeoutMs = options.timeoutMs ?? this.options.callTimeoutMs;
    const onProgress = options.onProgress;
    let raw: unknown;
    try {
      raw = await live.client.request({ method: 'tools/call', params: { name: tool, arguments: isRecord(args) ? args : {} } }, ANY_RESULT, {
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(onProgress ? { onprogress: (progress: Progress) => onProgress(progressLine(progress)) } : {}),
      });
    } catch (error) {
      throw this.callError(tool, error, options.signal, timeoutMs);
    }
    const result = mcpCallResult(raw);
    if (result === undefined) {
      throw new McpError(`MCP server ${this.name} answered the call to ${tool} with something that is not a tool result.`, 'protocol');
    }
    return result;
  }

  /** Closes the transport (a stdio server's process is ended); idempotent. */
  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.generation++;
    const live = this.live;
    const attempt = this.attempt;
    this.live = undefined;
    this.attempt = undefined;
    this.starting = undefined;
    await Promise.all([live, attempt].filter((each) => each !== undefined).map((each) => this.closeQuietly(each)));
  }

  private callError(tool: string, error: unknown, signal: AbortSignal | undefined, timeoutMs: number): McpError {
    const label = `${this.name}/${tool}`;
    if (signal?.aborted)
      return new McpError(`The call to ${label} was cancelled; the server was told to stop.`, 'cancelled', { cause: error });
    if (this.overLimit) return new McpError(this.disconnectedMessage(`while ${tool} ran`), 'too_large', { cause: error });
    if (this.isHttp() && isHttpConnectionFailure(error)) this.loseConnection(errorMessage(error));
    if (isConnectionLost(error) || this.state === 'disconnected') {
      return new McpError(this.disconnectedMessage(`while ${tool} ran`), 'disconnected', { cause: error });
    }
    if (isSdkTimeout(error)) {
      return new McpError(`${label} did not answer within ${seconds(timeoutMs)}; the server was told to cancel the call.`, 'timeout', {
        cause: error,
      });
    }
    if (isServerErrorResponse(error)) {
      return new McpError(`MCP server ${this.name} answered the call to ${tool} with an error: ${errorMessage(error)}`, 'server_error', {
        cause: error,
      });
    }
    return new McpError(`MCP server ${this.name} broke the protocol calling ${tool}: ${errorMessage(error)}`, 'protocol', { cause: error });
  }

  private isHttp(): boolean {
    return this.config.transport.type !== 'stdio';
  }

  /** Why the connection was lost, when Cairn saw it (an HTTP failure); a dead process says it on stderr. */
  private lostBecause: string | undefined;

  private disconnectedMessage(when: string): string {
    if (this.overLimit) return tooLargeMessage(this.name, when, this.isHttp() ? 'reconnected' : 'restarted');
    const why = this.isHttp() ? this.lostBecause : this.stderr.lastLine();
    const label = this.isHttp() ? 'the error' : 'its last error output';
    return (
      `MCP server ${this.name} disconnected${when ? ` ${when}` : ''}${why ? ` (${label}: ${why})` : ''}. ` +
      `It will be ${this.isHttp() ? 'reconnected' : 'restarted'} on the next call.`
    );
  }

  /**
   * The HTTP connection failed under a request or its event stream: it is closed now, so calls waiting on it
   * reject as disconnected at once (not at their timeout), and the next call connects afresh.
   */
  private loseConnection(reason: string): void {
    const live = this.live;
    if (this.state !== 'ready' || !live) return;
    this.lostBecause = reason;
    this.state = 'disconnected';
    this.live = undefined;
    this.detail = this.disconnectedMessage('');
    this.options.log(this.detail);
    void this.closeQuietly(live);
  }

  /** `ready()`, given up when the caller cancels first (the start goes on, for the next call). */
  private readyUnlessCancelled(tool: string, signal: AbortSignal | undefined): Promise<Live> {
    const cancelled = () => new McpError(`The call to ${this.name}/${tool} was cancelled before it was sent.`, 'cancelled');
    return signal?.aborted ? Promise.reject(cancelled()) : unlessAborted(this.ready(), signal, cancelled);
  }

  /** The live connection, starting (or restarting) the server when it has none. */
  private ready(): Promise<Live> {
    if (this.state === 'ready' && this.live) return Promise.resolve(this.live);
    if (this.starting) return this.starting;
    const starting = this.start().finally(() => {
      if (this.starting === starting) this.starting = undefined;
    });
    this.starting = starting;
    return starting;
  }

  private async start(): Promise<Live> {
    const generation = ++this.generation;
    const restarting = this.state === 'disconnected' || this.state === 'failed';
    this.state = 'starting';
    this.detail = undefined;
    // The last list stays for status() until the restarted server lists its tools again.
    this.toolsStale = true;
    this.changeAnnounced = false;
    this.overLimit = false;
    this.stderr.clear();
    this.lostBecause = undefined;
    if (restarting) this.options.log(`MCP server ${this.name}: restarting.`);
    let live: Live;
    try {
      live = await this.withStartTimeout(this.connect(generation), generation);
    } catch (error) {
      if (generation !== this.generation) throw new McpError(`MCP server ${this.name} is closed (the session ended).`, 'not_started');
      const last = this.stderr.lastLine();
      this.state = 'failed';
      this.detail = `${error instanceof McpError ? error.message : `Failed to start: ${errorMessage(error)}`}${last ? ` (its last error output: ${last})` : ''}`;
      this.options.log(`MCP server ${this.name}: ${this.detail}`);
      throw new McpError(`MCP server ${this.name} could not be started. ${this.detail}`, 'failed_to_start', { cause: error });
    }
    if (generation !== this.generation) {
      await this.closeQuietly(live);
      throw new McpError(`MCP server ${this.name} is closed (the session ended).`, 'not_started');
    }
    this.live = live;
    this.state = 'ready';
    this.options.log(`MCP server ${this.name}: connected${live.transport instanceof SSEClientTransport ? ' (SSE)' : ''}.`);
    return live;
  }

  /** Rejects after the start timeout, ending whatever the attempt started. */
  private withStartTimeout(connecting: Promise<Live>, generation: number): Promise<Live> {
    const timeoutMs = this.options.startTimeoutMs;
    return withinTimeout(connecting, timeoutMs, {
      timedOut: () => {
        const attempt = this.attempt;
        this.attempt = undefined;
        if (attempt) void this.closeQuietly(attempt);
        return new McpError(`It did not finish starting within ${seconds(timeoutMs)}.`, 'failed_to_start');
      },
      unwanted: () => generation !== this.generation,
      late: (live) => void this.closeQuietly(live),
    });
  }

  private async connect(generation: number): Promise<Live> {
    const transport = this.config.transport;
    if (transport.type === 'stdio') {
      const stdio = new StdioClientTransport({
        command: transport.command,
        args: [...transport.args],
        env: serverEnvironment(this.options.inheritedEnv, transport.env),
        stderr: 'pipe',
        // The SDK's own default, said here: the one limit of every transport (messageLimit.ts).
        maxBufferSize: MAX_MESSAGE_BYTES,
        ...(transport.cwd !== undefined ? { cwd: transport.cwd } : {}),
      });
      stdio.stderr?.on('data', (chunk: Buffer | string) => this.stderr.append(chunk));
      return this.handshake(stdio, generation);
    }
    const url = new URL(transport.url);
    const http = {
      requestInit: { headers: { ...transport.headers } },
      fetch: boundedFetch(MAX_MESSAGE_BYTES, () => this.messageTooLarge(generation)),
    };
    if (transport.type === 'sse') return this.handshake(new SSEClientTransport(url, http), generation);
    try {
      return await this.handshake(new StreamableHTTPClientTransport(url, http), generation);
    } catch (error) {
      if (!looksLikeSseOnlyServer(error) || generation !== this.generation) throw error;
      this.options.log(`MCP server ${this.name}: no streamable HTTP (${errorMessage(error)}); trying SSE.`);
      return this.handshake(new SSEClientTransport(url, http), generation);
    }
  }

  /**
   * A message outgrew the limit: its calls end as `too_large`. An HTTP connection is closed now (the cut
   * stream cannot be read on); a stdio transport closes itself (the SDK's read buffer was cleared).
   */
  private messageTooLarge(generation: number): void {
    if (generation !== this.generation) return;
    this.overLimit = true;
    if (this.isHttp()) this.loseConnection(`a message over ${MAX_MESSAGE_BYTES} bytes`);
  }

  /** Connects a fresh client over `transport` (the `initialize` handshake); a failed attempt is closed. */
  private async handshake(transport: Transport, generation: number): Promise<Live> {
    const client = new Client({ name: this.options.clientInfo.name, version: this.options.clientInfo.version }, { capabilities: {} });
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      if (generation !== this.generation) return;
      this.toolsStale = true;
      if (this.changeAnnounced) return;
      this.changeAnnounced = true;
      this.options.log(`MCP server ${this.name}: its tool list changed.`);
      this.options.onToolsChanged(this.name);
    });
    let errorsLogged = 0;
    client.onerror = (error: Error) => {
      if (generation !== this.generation) return;
      if (isStdioMessageTooLarge(error)) this.messageTooLarge(generation);
      if (this.isHttp() && isHttpConnectionFailure(error)) this.loseConnection(errorMessage(error));
      if (errorsLogged > MAX_LOGGED_ERRORS) return;
      errorsLogged++;
      this.options.log(
        errorsLogged > MAX_LOGGED_ERRORS
          ? `MCP server ${this.name}: more errors (not logged until it restarts).`
          : `MCP server ${this.name}: ${errorMessage(error)}`,
      );
    };
    client.onclose = () => {
      if (generation !== this.generation || this.state !== 'ready') return;
      this.state = 'disconnected';
      this.live = undefined;
      this.detail = this.disconnectedMessage('');
      this.options.log(this.detail);
    };
    const attempt = { client, transport };
    this.attempt = attempt;
    try {
      await client.connect(transport, { timeout: this.options.startTimeoutMs });
    } catch (error) {
      await this.closeQuietly(attempt);
      throw error;
    } finally {
      if (this.attempt === attempt) this.attempt = undefined;
    }
    return attempt;
  }

  private async fetchTools(live: Live): Promise<readonly McpToolInfo[]> {
    const tools: McpToolInfo[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      let raw: unknown;
      try {
        raw = await live.client.request({ method: 'tools/list', params: cursor !== undefined ? { cursor } : {} }, ANY_RESULT, {
          timeout: this.options.startTimeoutMs,
        });
      } catch (error) {
        if (this.isHttp() && isHttpConnectionFailure(error)) this.loseConnection(errorMessage(error));
        if (isConnectionLost(error) || this.state === 'disconnected')
          throw new McpError(this.disconnectedMessage('while listing its tools'), 'disconnected');
        this.detail = `Listing its tools failed: ${errorMessage(error)}`;
        this.options.log(`MCP server ${this.name}: ${this.detail}`);
        return tools;
      }
      const listed = listedToolsPage(this.name, raw);
      for (const line of listed.dropped) this.options.log(`MCP ${line}`);
      tools.push(...listed.tools);
      if (listed.nextCursor === undefined || listed.nextCursor === cursor) return tools;
      cursor = listed.nextCursor;
    }
    this.options.log(`MCP server ${this.name}: its tool list has more than ${MAX_TOOL_PAGES} pages; the rest is not read.`);
    return tools;
  }

  private async closeQuietly(live: Live): Promise<void> {
    try {
      await live.client.close();
    } catch {
      // Closing a transport that already failed may throw; the process is ended either way.
    }
    try {
      await live.transport.close();
    } catch {
      // As above.
    }
  }
}
