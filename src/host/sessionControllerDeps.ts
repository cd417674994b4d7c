import type { PermissionMode } from '../core/agent/permissionMode';
import type { AgentEvent } from '../core/agent/events';
import type { Workspace } from '../core/ports';
import type { ListedModel } from '../core/model/types';
import type { AllowanceView, ModelChoices, UsageMeterView } from '../shared/protocol';
import type { CheckpointPrompts } from './checkpointActions';
import type { EditorActions, HostLog, SessionSource } from './hostPorts';
import type { SlashCommands } from './slashCommands';
import type { CommandSource } from '../core/commands/ports';
import type { WebviewApprover } from './webviewApprover';
import type { ContextMentionSource } from './contextMentions';
import type { KeepWarmTimer } from './keepWarmTimer';
import type { SavingsReport } from './savingsReport';

/** What a `SessionController` is built from: the host's ports, none of them `vscode` itself. */
export interface SessionControllerDeps {
  readonly sessions: SessionSource;
  readonly editor: EditorActions;
  readonly approver: WebviewApprover;
  readonly log: HostLog;
  /** Paths from the webview are resolved (and escapes refused) here before anything opens them. */
  readonly workspace: Pick<Workspace, 'resolve'>;
  readonly hasApiKey: () => Promise<boolean>;
  /** Where the key comes from; a key from the environment is warned about once (`ApiKeyGate.admits`). */
  readonly apiKeySource?: () => Promise<'secret-storage' | 'environment' | 'demo' | undefined>;
  /**
   * Whether the commands the model runs are isolated (`src/node/workspace/commandSandbox.ts`); when not,
   * the user is told once why, and what that leaves open.
   */
  readonly commandIsolation?: () => Promise<{ readonly kind: 'namespace' } | { readonly kind: 'none'; readonly reason: string }>;
  /** The model's input window in tokens. */
  readonly windowTokens: () => Promise<number>;
  /** Told whenever the meter changes (the status bar). */
  readonly onMeter?: (meter: UsageMeterView) => void;
  /** Sends keep-warm's requests at their time while the window is open (`keepWarmTimer.ts`). */
  readonly keepWarm?: Pick<KeepWarmTimer, 'arm' | 'detach' | 'dispose'>;
  /** Told when a run starts and ends (the `cairn.busy` context key for the Cancel keybinding). */
  readonly onBusy?: (busy: boolean) => void;
  /** Every event of the open session's runs (the attention notifier's). */
  readonly onEvent?: (event: AgentEvent) => void;
  /** The restore preview, the diff editor and the Changes list (none: the checkpoint actions only log). */
  readonly checkpointPrompts?: CheckpointPrompts;
  /** The server's models: checks a saved key, and feeds the model picker. */
  readonly listModels?: () => Promise<ListedModel[]>;
  /** The server when it is not Anthropic's (`cairn.baseUrl`), so messages name it. */
  readonly server?: () => string | undefined;
  /** The model the next request uses, and the picker's choices around it. */
  readonly currentModel?: () => string;
  readonly modelChoices?: () => Promise<ModelChoices>;
  /** Makes `model` the one the next request uses (the chat's picker). */
  readonly pickModel?: (model: string) => Promise<void>;
  /** The permission mode in force and how the chat sets it (`permissionModeControl.ts`); none: ask, fixed. */
  readonly permissionModes?: {
    current(): PermissionMode;
    set(mode: PermissionMode): Promise<void>;
  };
  /** `/name` commands typed in the chat; run instead of being sent to the model. */
  readonly slashCommands?: SlashCommands;
  /** The user's custom slash commands (`.cairn/commands`, `.claude/commands`, `~/.cairn/commands`). */
  readonly customCommands?: CommandSource;
  /** Whether a workspace-relative path is a file (an `@path` mention is attached only then). */
  readonly isWorkspaceFile?: (path: string) => Promise<boolean>;
  /** Whether a workspace-relative path is a folder (an `@folder` mention attaches its listing). */
  readonly isWorkspaceFolder?: (path: string) => Promise<boolean>;
  /** Workspace files whose path contains `query` (the `@` completion). */
  readonly findFiles?: (query: string) => Promise<readonly string[]>;
  /** The workspace-relative path of a dropped file URI; undefined outside the workspace. */
  readonly relativePathOf?: (uri: string) => string | undefined;
  /** Reads `@problems`, `@terminal` and `@changes` from the editor when a message names them (none: they stay text). */
  readonly contextMentions?: ContextMentionSource;
  /** What hygiene saved, for the report's Savings tab (issue 35 §4); absent: a window without sessions on disk. */
  readonly savings?: Pick<SavingsReport, 'figures' | 'exportCsv'>;
  /** What the user allowed to run without asking (`host/allowances.ts`): listed in the chat, revocable there. */
  readonly allowances?: {
    list(): AllowanceView[];
    revoke(id: string): Promise<boolean>;
    /** The open session changed: its "this session" allowances are the list's now. */
    changed(): void;
  };
}
