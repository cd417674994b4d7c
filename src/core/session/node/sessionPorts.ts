import type { HookCommandRunner, HookProvider } from '../../hooks/ports';
import type { ImagePreparer } from '../../images/preparedImage';
import type { AgentLoopSettings } from '../../agent/agentLoop';
import type { ApprovalSettings, Approver } from '../../agent/approval';
import type { MessageAttachment, ToolExecutor } from '../../agent/ports';
import type { CheckpointGitPorts } from '../../checkpoints/node/sessionCheckpointsAssembly';
import type { CompactionSettings } from '../../compaction/settings';
import type { PriceTable } from '../../pricing/prices';
import type { SpendingApprover, SpendingCaps } from '../../spending/spendingCap';
import type { ProjectContextSource } from '../../compose/projectContextSource';
import type { RulesSource } from '../../compose/rules';
import type { HygieneConfig } from '../../config/hygiene';
import type { Projection } from '../../conversation/projection';
import type { SessionJournal } from '../../journal/node/sessionJournal';
import type { SecretSource } from '../../ledger/redactor';
import type { ResultLedger } from '../../ledger/resultLedger';
import type { McpConnections } from '../../mcp/types';
import type { ModelClient } from '../../model/types';
import type { Clock, FileWatcher, Workspace } from '../../ports';
import type { SkillSource } from '../../skills/ports';
import type { SubagentSettings } from '../../subagentTypes';
import type { WebPageSource } from '../../web/webFetchTool';

// Its own file so the assembly's helpers (sessionExtras, sessionChildren) can take the ports without importing
// the assembly that calls them.
/** Everything outside core that a session is built from: Node gives real files, the host VS Code's APIs. */
export interface SessionPorts {
  readonly workspace: Workspace;
  readonly watcher?: FileWatcher;
  readonly projectContext: ProjectContextSource;
  readonly rules: RulesSource;
  readonly model: ModelClient;
  readonly approver: Approver;
  readonly approvals: () => ApprovalSettings;
  readonly settings: () => AgentLoopSettings;
  /** Folder holding one folder per session. */
  readonly sessionsDir: string;
  /** Folder holding preamble.md and context.md. */
  readonly promptsDir: string;
  readonly hygiene?: HygieneConfig;
  readonly clock?: Clock;
  /** Makes result ids deterministic (tests, benchmarks); random otherwise. */
  readonly idSeed?: number;
  readonly compaction?: () => CompactionSettings;
  /** Prices per model over the built-in table (`cairn.prices`). */
  readonly prices?: PriceTable;
  /** `[Context]` lines and other diagnostics (the host's output channel). */
  readonly log?: (line: string) => void;
  /**
   * Secrets no tool result may show besides the model client's own keys (which are always redacted):
   * the values of credential variables withheld from commands, MCP secrets later.
   */
  readonly secrets?: SecretSource;
  /** Benchmarks only: how stored entries become the provider's messages (a peer's strategy); `projectForProvider` otherwise. */
  readonly project?: Projection;
  /**
   * Benchmarks only: wraps the ledger as the loop's tool executor (a peer's strategy); the ledger itself is
   * unchanged. `state()` is what the journal checkpoints.
   */
  readonly wrapTools?: (ledger: ResultLedger, journal: SessionJournal) => ToolExecutor & { state(): unknown };
  /**
   * The MCP servers' connections (the host or the headless runner owns them and closes them); their tools
   * are offered from each generation's start. None: no MCP tools.
   */
  readonly mcp?: McpConnections;
  /**
   * Commands' changes in a git workspace are covered by git snapshots (`core/checkpoints/`) when given;
   * without it only the editing tools' changes (and, with a watcher, the watcher's list) are.
   */
  readonly checkpointGit?: CheckpointGitPorts;
  /**
   * The user's hooks (issue 33 item 6): which may run now (the root decides: the user's, the workspace's once
   * trusted and approved), how they run, and their time bound. None: no hooks.
   */
  readonly hooks?: SessionHookPorts;
  /** Where skills are found (`FileSkillSource`: the workspace's only when trusted); none: no skills. */
  readonly skills?: SkillSource;
  /** Cairn's blocks for each user message besides the skills' (the editor's context); see `MessageAttachment`. */
  readonly attachments?: readonly MessageAttachment[];
  /** `cairn.subagents.*`; the defaults when absent. */
  readonly subagents?: () => SubagentSettings;
  /** `cairn.budget.turn` and `cairn.budget.session` (US$), read before each request; none: no caps. */
  readonly spendingCaps?: () => SpendingCaps;
  /** Who answers a cap (continue once, raise, stop); none: stop, every time. */
  readonly spendingApprover?: SpendingApprover;
  /**
   * Where `web_fetch` gets pages (`src/node/web/nodeWebPageSource.ts`). Given: the tool is offered from the
   * session's start (tools are fixed per session); none: no `web_fetch`.
   */
  readonly web?: WebPageSource;
  /**
   * Makes image files ready to send (`src/node/images/preparedImage.ts`): `read` of an image file answers with
   * the image, and the user's attached images go with their message. None: an image file reads as binary.
   */
  readonly images?: ImagePreparer;
}

/** What a session needs to run the user's hooks. */
export interface SessionHookPorts {
  readonly provider: HookProvider;
  readonly runner: HookCommandRunner;
  /** The bound of a hook without its own `timeout` (`cairn.hooks.timeoutSeconds`). */
  readonly timeoutSeconds: () => number;
}
