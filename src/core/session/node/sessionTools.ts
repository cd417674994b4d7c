/**
 * The tools a session's agent calls beyond the built-in ones and what stands around them: the MCP servers'
 * tools (their problems and tool changes said in the chat), `web_fetch`, the redactor every result and server
 * text goes through, and the user's hooks wrapped around the calls (`PreToolUse`/`PostToolUse`, `PreCompact`).
 * `sessionAssembly.ts` builds a session from these.
 */
import { preCompactHook, type HookAgent } from '../../hooks/compactionHook';
import { HookedTools } from '../../hooks/hookedTools';
import { SessionHooks } from '../../hooks/sessionHooks';
import type { ToolExecutor } from '../../agent/ports';
import type { AgentEvent, NoticeLevel } from '../../agent/events';
import type { SessionJournal } from '../../journal/node/sessionJournal';
import { Redactor } from '../../ledger/redactor';
import { McpTools } from '../../mcp/mcpTools';
import { TOOL_DEFINITIONS } from '../../tools/definitions';
import { WebFetchTool } from '../../web/webFetchTool';
import { SESSION_TOOL_DEFINITIONS } from './sessionExtras';
import type { SessionHookPorts, SessionPorts } from './sessionPorts';

type SessionToolExecutor = ToolExecutor & { state(): unknown };

/**
 * What the ledger redacts from every result: every key the model client has sent (asked at each result,
 * so a key set mid-session counts from its first request) and the ports' other secrets.
 */
export function sessionRedactor(ports: Pick<SessionPorts, 'model' | 'secrets'>): Redactor {
  const redactor = new Redactor(() => (ports.model.knownSecrets?.() ?? []).map((value) => ({ value, label: 'API key' })));
  if (ports.secrets) redactor.addSource(ports.secrets);
  return redactor;
}

/** The MCP tools of a session whose ports have MCP connections. */
export function mcpToolsOf(ports: SessionPorts, redactor: Redactor): McpTools | undefined {
  if (!ports.mcp) return undefined;
  return new McpTools(ports.mcp, {
    builtInNames: new Set([...TOOL_DEFINITIONS, ...SESSION_TOOL_DEFINITIONS].map((tool) => tool.name)),
    redactor,
  });
}

/**
 * Says in the chat what the MCP servers report: each problem once, and a server's changed tools (applied from
 * the next generation, or now on the user's word). Disposed with the session.
 */
export function reportMcpChanges(
  ports: SessionPorts,
  mcpTools: McpTools | undefined,
  notice: (level: NoticeLevel, kind: string, message: string) => void,
): { dispose(): void } | undefined {
  const reported = new Set<string>();
  mcpTools?.useProblemReporter((problems) => {
    const fresh = problems.filter((problem) => !reported.has(problem));
    for (const problem of fresh) reported.add(problem);
    if (fresh.length > 0) notice('warning', 'mcp', fresh.join('\n'));
  });
  return ports.mcp?.onToolsChanged((server) =>
    notice(
      'info',
      'mcp_tools_changed',
      `The MCP server ${server} changed its tools. The change applies from the next generation (after a compaction), or now with “Cairn: Apply MCP Tool Changes Now” (the prompt prefix is then written again, once).`,
    ),
  );
}

/** The `web_fetch` tool when the session has a web source (the host's and the headless runner's Node fetcher). */
export function webToolOf(ports: SessionPorts): WebFetchTool | undefined {
  return ports.web ? new WebFetchTool(ports.web) : undefined;
}

/**
 * The session's tools with the user's hooks around them (none: the tools as they are), the hooks for the
 * events the root raises, and compaction's `PreCompact`. A hook's warning is a notice in the chat.
 */
export function hookedToolsOf<T extends SessionToolExecutor>(
  ports: SessionPorts,
  tools: T,
  journal: SessionJournal,
  emit: (event: AgentEvent) => void,
): {
  readonly tools: T | HookedTools<T>;
  readonly hooks?: SessionHooks;
  readonly beforeCompact?: ReturnType<typeof preCompactHook>;
  /** A sub-agent's `PreCompact` (its compactions run the same hooks, naming the child). */
  readonly childPreCompact?: (agent: HookAgent) => ReturnType<typeof preCompactHook>;
} {
  if (!ports.hooks) return { tools };
  const hooks = sessionHooksOf(ports, ports.hooks, journal);
  const hookNotice = (message: string): void => emit({ type: 'notice', level: 'warning', kind: 'hook', message });
  return {
    tools: new HookedTools(tools, hooks, hookNotice),
    hooks,
    beforeCompact: preCompactHook(hooks, hookNotice),
    childPreCompact: (agent) => preCompactHook(hooks, hookNotice, agent),
  };
}

/** The session's hooks, their output redacted by the session's redactor. */
function sessionHooksOf(ports: SessionPorts, hookPorts: SessionHookPorts, journal: SessionJournal): SessionHooks {
  const redactor = sessionRedactor(ports);
  return new SessionHooks({
    provider: hookPorts.provider,
    runner: hookPorts.runner,
    cwd: ports.workspace.root,
    sessionId: () => journal.sessionId,
    timeoutSeconds: hookPorts.timeoutSeconds,
    redact: (text) => redactor.redact(text),
    ...(ports.log ? { log: ports.log } : {}),
  });
}
