/**
 * Sessions of one workspace folder, kept under the extension's global storage (`sessions/`), and which one
 * the workspace used last (so a window reload resumes it with its ids). A session another window is
 * writing is never resumed here: that window holds its lock.
 */
import { resumeSession, startSession, type AssembledSession, type SessionPorts } from '../core/session/node/sessionAssembly';
import { SessionCatalog, type SessionSummary } from '../core/journal/node/sessionCatalog';
import type { McpConnections } from '../core/mcp/types';
import type { SessionSource } from './sessionController';

/** The part of `vscode.Memento` used (workspaceState). */
export interface StateStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): Thenable<void> | Promise<void>;
}

export const LAST_SESSION_KEY = 'cairn.lastSessionId';

export class FileSessionSource implements SessionSource {
  readonly catalog: SessionCatalog;

  constructor(
    private readonly ports: () => SessionPorts,
    private readonly state: StateStore,
    /** The MCP servers' connections for a session being assembled (none configured: undefined). */
    private readonly mcp?: () => Promise<McpConnections | undefined>,
  ) {
    this.catalog = new SessionCatalog(ports().sessionsDir);
  }

  async start(): Promise<AssembledSession> {
    return startSession(await this.portsWithMcp());
  }

  async resume(sessionId: string): Promise<AssembledSession> {
    return resumeSession(await this.portsWithMcp(), sessionId);
  }

  private async portsWithMcp(): Promise<SessionPorts> {
    const mcp = await this.mcp?.();
    return { ...this.ports(), ...(mcp ? { mcp } : {}) };
  }

  /** Newest first, this workspace's only. */
  list(): Promise<SessionSummary[]> {
    return this.catalog.list({ workspace: this.ports().workspace.root });
  }

  async lastSessionId(): Promise<string | undefined> {
    const remembered = this.state.get<string>(LAST_SESSION_KEY);
    const sessions = await this.list().catch(() => []);
    const usable = sessions.filter((s) => !s.inUse && s.problem === undefined);
    if (remembered && usable.some((s) => s.id === remembered)) return remembered;
    return usable[0]?.id;
  }

  async remember(sessionId: string): Promise<void> {
    await this.state.update(LAST_SESSION_KEY, sessionId);
  }
}
