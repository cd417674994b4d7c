import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { SavingsReport } from './host/savingsReport';
import { SessionCatalog } from './core/journal/node/sessionCatalog';
import { isAbsolute, join, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import type { SessionPorts } from './core/session/node/sessionAssembly';
import { FileRulesSource } from './node/fileRulesSource';
import { NodeProjectContext } from './node/nodeProjectContext';
import { commandEnvironment, environmentSecrets } from './node/workspace/commandRunner';
import { commandIsolation } from './node/workspace/commandIsolation';
import { CHECKPOINT_SCHEME, CheckpointDocuments, VsCodeCheckpointPrompts } from './host/checkpointPrompts';
import { NodeWorkspace } from './node/workspace/nodeWorkspace';
import { prepareImage } from './node/images/preparedImage';
import { NodeWebPageSource } from './node/web/nodeWebPageSource';
import { VsCodeSpendingPrompt } from './host/spendingPrompt';
import { MultiRootWatcher } from './node/workspace/multiRootWatcher';
import { MultiRootWorkspace, reachableFolders } from './node/workspace/multiRootWorkspace';
import { ChatViewProvider, CHAT_VIEW_ID } from './host/chatViewProvider';
import { registerCommands } from './host/commands';
import { McpInputs, registerClearMcpInputsCommand } from './host/mcpInputs';
import { McpSetup } from './host/mcpSetup';
import { McpServerApprovals, registerManageMcpServerApprovalsCommand } from './host/mcpServerApprovals';
import { McpServers } from './host/mcpServers';
import { SdkMcpConnections } from './core/mcp/node/mcpConnections';
import { RESULT_SCHEME, ResultDocuments, VsCodeEditorActions } from './host/editorActions';
import { OutputLog } from './host/outputLog';
import { ReportPanel } from './host/reportPanel';
import { NoSessionError, SessionController, type SessionSource } from './host/sessionController';
import { FileSessionSource } from './host/sessionSource';
import type { CairnSettings } from './host/settingsReader';
import { hookTimeoutSeconds, pickModelSetting, readSettings } from './host/vscodeSettings';
import { bundledRipgrep, editorDataFolder, extensionVersion } from './host/editorInstall';
import { SettingsModelClient } from './host/settingsModelClient';
import { ContextStatusBar } from './host/statusBar';
import { KeepWarmTimer } from './host/keepWarmTimer';
import { PermissionModeControl } from './host/permissionModeControl';
import { VsCodeFileWatcher, VsCodeSecrets } from './host/vscodePorts';
import { WebviewApprover } from './host/webviewApprover';
import { Allowances, allowanceLabel, OLD_WORKSPACE_ALLOWANCES_KEY } from './host/allowances';
import { registerApprovalCommands } from './host/approvalCommands';
import { PROPOSAL_SCHEME, ProposalFiles } from './host/proposalFiles';
import { ProposalReviews } from './host/proposalReview';
import { SlashCommands } from './host/slashCommands';
import { FileCommandSource } from './node/fileCommandSource';
import { HookApprovals } from './host/hookApprovals';
import { AttentionNotifier } from './host/attentionNotifier';
import { CommandHookRunner } from './core/hooks/node/commandHookRunner';
import { addBuiltInSlashCommands } from './host/builtInSlashCommands';
import { modelChoices } from './host/modelChoices';
import { mentionCandidates } from './host/mentionCandidates';
import { EditorContext } from './host/editorContext';
import { FileSkillSource } from './node/fileSkillSource';
import { editorContextSource, TerminalOutputs } from './host/editorContextSources';
import { uncommittedChanges } from './node/gitChanges';

let controller: SessionController | undefined;

/** Composition root: builds the services and registers views and commands. */
export function activate(context: vscode.ExtensionContext): void {
  const channel = vscode.window.createOutputChannel('Cairn', { log: true });
  const log = new OutputLog(channel);
  context.subscriptions.push(channel);

  const toldProblems = new Set<string>();
  let settings: CairnSettings = readSettings(log, toldProblems);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration('cairn')) return;
      settings = readSettings(log, toldProblems);
      if (event.affectsConfiguration('cairn.approvals')) allowances.changed();
      if (event.affectsConfiguration('cairn.permissionMode')) permissionModes.settingsChanged();
    }),
  );

  // The permission mode (issue 32 §1): the user's setting is the one source; the chat is told through the controller.
  const permissionModes = new PermissionModeControl({
    read: () => settings.permissionMode,
    write: async (mode) => {
      await vscode.workspace.getConfiguration('cairn').update('permissionMode', mode, vscode.ConfigurationTarget.Global);
      // In force at once: in a remote window the settings read right after the write may still hold the old value.
      settings = { ...readSettings(log, toldProblems), permissionMode: mode };
    },
    publish: (mode) => built.controller?.permissionModeChanged(mode),
    log: (line) => log.info(line),
  });
  context.subscriptions.push(permissionModes, ...permissionModes.registerCommands());

  const secrets = new VsCodeSecrets(context.secrets);
  const model = new SettingsModelClient(
    secrets,
    () => settings.baseUrl,
    log,
    process.env,
    (key) => log.hide(key),
    () => settings.headers,
  );
  // MCP servers (.vscode/mcp.json, cairn.mcp.servers), read when a session is assembled; inputs in SecretStorage.
  const mcpInputs = new McpInputs(context.secrets, log);
  // Whether a workspace's server may start: asked once per definition, remembered in user-level storage.
  const mcpApprovals = new McpServerApprovals(context.globalState, log);
  const mcp = new McpSetup(mcpInputs, mcpApprovals, log);
  context.subscriptions.push(registerClearMcpInputsCommand(mcpInputs, log), registerManageMcpServerApprovalsCommand(mcpApprovals, log));
  const mcpServers = new McpServers(
    () => mcp.loadMcpServers(),
    (servers, notStarted) =>
      new SdkMcpConnections(servers, {
        // Read when the connections are made: trust granted later applies to the next session.
        workspaceTrusted: vscode.workspace.isTrusted,
        log: (line) => log.info(`[MCP] ${line}`),
        clientInfo: { name: 'cairn', version: extensionVersion(context) },
        notStarted,
      }),
  );
  context.subscriptions.push({ dispose: () => void mcpServers.close() });
  // What the user allowed without asking: this session's, the user's lasting ones (user-level storage, never a
  // workspace's), the user's cairn.approvals. One list, shown in the chat and by Manage Allowances, each revocable.
  // The controller is built below, from these: it is reached through this once it exists.
  const built: { controller?: SessionController } = {};
  const allowances = new Allowances({
    userState: context.globalState,
    currentSession: () => built.controller?.sessionId,
    settingsAllowed: () => settings.alwaysAllow,
    removeFromSettings: async (tool) => {
      const config = vscode.workspace.getConfiguration('cairn');
      const value = config.inspect<Record<string, unknown>>('approvals')?.globalValue;
      if (!value || typeof value !== 'object') return;
      const { [tool]: _removed, ...rest } = value;
      await config.update('approvals', rest, vscode.ConfigurationTarget.Global);
    },
  });
  // "Always" answers were once kept per workspace: they are dropped, not widened to every workspace (each tool asks once more).
  if (context.workspaceState.get<unknown>(OLD_WORKSPACE_ALLOWANCES_KEY) !== undefined) {
    void context.workspaceState.update(OLD_WORKSPACE_ALLOWANCES_KEY, undefined);
    log.info('Cairn no longer keeps "always allow" answers per workspace: this workspace\'s were dropped, so each tool asks once more.');
  }
  // A proposed change is reviewed in the diff editor before it is approved (issue 34, item 8).
  const proposalFiles = new ProposalFiles();
  const reviews = new ProposalReviews(proposalFiles, (reviewId, diffs, revised) => {
    const call = approver.callOfReview(reviewId);
    if (call) built.controller?.showInChat({ type: 'approvalRevised', ...call, diffs, revised });
  });
  context.subscriptions.push(
    vscode.workspace.registerFileSystemProvider(PROPOSAL_SCHEME, proposalFiles, { isCaseSensitive: true }),
    reviews,
  );
  const approver = new WebviewApprover(
    (grant) => void allowances.grant(grant.key, allowanceLabel(grant.key, grant.tool), grant.scope),
    reviews,
  );

  // Every folder the tools can reach, and only those, is what the model is told about (project context, rules).
  const folders = reachableFolders(
    (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath),
  );
  const root = folders[0]?.path;
  let sessions: SessionSource & { list?: FileSessionSource['list'] };
  let workspace: Pick<NodeWorkspace, 'resolve'>;
  let absolutePathOf: ((relative: string) => string) | undefined;
  if (root) {
    const ripgrepPath = bundledRipgrep();
    // Commands are confined to the window's folders (each writable), the editor's data hidden (its secret store).
    const sandbox = {
      settings: () => settings.sandbox,
      folders: folders.map((folder) => folder.path),
      editorData: [editorDataFolder(context.globalStorageUri.fsPath)],
    };
    const perFolder = folders.map((folder) => ({
      name: folder.name,
      workspace: new NodeWorkspace(folder.path, { sandbox, ...(ripgrepPath ? { ripgrepPath } : {}) }),
    }));
    // One folder: the folder itself, as always. Several: the others mounted at their names (`lib/src/a.ts`).
    const multi = perFolder.length > 1 ? new MultiRootWorkspace(perFolder) : undefined;
    const nodeWorkspace = multi ?? perFolder[0]!.workspace;
    if (multi) absolutePathOf = (relative) => multi.absolutePathOf(relative);
    const watcher =
      folders.length > 1
        ? new MultiRootWatcher(
            folders.map((folder, index) => ({ prefix: index === 0 ? '' : folder.name, watcher: new VsCodeFileWatcher(folder.path) })),
          )
        : new VsCodeFileWatcher(root);
    context.subscriptions.push(watcher);
    const ports: SessionPorts = {
      workspace: nodeWorkspace,
      watcher,
      // git reads the repository's own config: nothing of it runs before the user trusts the folder.
      projectContext: new NodeProjectContext({ folders: folders.map((folder) => folder.path), runGit: () => vscode.workspace.isTrusted }),
      rules: new FileRulesSource({ homeDir: homedir(), roots: folders.map((folder) => folder.path) }),
      // Workspace skills are the workspace's text: read only once the user trusts it (asked at each discovery).
      skills: new FileSkillSource({
        homeDir: homedir(),
        roots: folders.map((folder) => folder.path),
        trusted: () => vscode.workspace.isTrusted,
      }),
      attachments: [
        new EditorContext(
          () => vscode.workspace.getConfiguration('cairn').get<boolean>('editorContext', true),
          (line) => log.info(line),
        ),
      ],
      model,
      approver,
      approvals: () => ({
        alwaysAllow: allowances.keys(),
        // Read at each call: trust granted mid-session applies from the next tool call.
        workspaceTrusted: vscode.workspace.isTrusted,
        // Read at each call too: a switch mid-turn applies from the next tool call.
        mode: permissionModes.current(),
        refuseWebFetchWhenUntrusted: settings.webFetch.refuseInUntrustedWorkspace,
      }),
      // web_fetch's pages (issue 33): its settings read at each fetch.
      web: new NodeWebPageSource(() => settings.webFetch.fetch),
      // Images (issue 33): `read` of an image file and the chat's attached images are sent as images.
      images: prepareImage,
      settings: () => settings.loop,
      compaction: () => settings.compaction,
      subagents: () => settings.subagents,
      spendingCaps: () => settings.spending,
      spendingApprover: new VsCodeSpendingPrompt(),
      // The user's hooks; a workspace's only when trusted and approved (host/hookApprovals.ts). Not sandboxed:
      // a hook is a command the user configured, like a git hook (README, Hooks).
      hooks: {
        provider: new HookApprovals({ state: context.globalState, roots: () => folders.map((f) => f.path), homeDir: homedir(), log }),
        runner: new CommandHookRunner(commandEnvironment(process.env)),
        timeoutSeconds: () => hookTimeoutSeconds(),
      },
      // Read when a session is built: a changed setting applies to the next session.
      get prices() {
        return settings.prices;
      },
      get hygiene() {
        return settings.hygiene;
      },
      sessionsDir: join(context.globalStorageUri.fsPath, 'sessions'),
      promptsDir: join(context.extensionPath, 'dist', 'prompts'),
      log: (line) => log.info(line),
      // The credentials withheld from commands, and the MCP input values (a server may echo one back).
      secrets: () => [...environmentSecrets(process.env), ...mcpInputs.knownValues().map((value) => ({ value, label: 'MCP input' }))],
      // Commands' changes are covered by git snapshots in a one-folder workspace (outside git, with Cairn's own repository), never run untrusted.
      ...(folders.length === 1
        ? { checkpointGit: { env: commandEnvironment(process.env), trusted: () => vscode.workspace.isTrusted } }
        : {}),
    };
    sessions = new FileSessionSource(
      () => ports,
      context.workspaceState,
      () => mcpServers.forSession(),
    );
    workspace = nodeWorkspace;
  } else {
    const noFolder = (): never => {
      throw new NoSessionError('Cairn works in a folder: open one (File › Open Folder…) to start a session.');
    };
    sessions = {
      start: async () => noFolder(),
      resume: async () => noFolder(),
      lastSessionId: async () => undefined,
      remember: async () => undefined,
    };
    workspace = { resolve: async () => noFolder() };
  }

  const checkpointDocuments = new CheckpointDocuments();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, checkpointDocuments));
  const documents = new ResultDocuments();
  const statusBar = new ContextStatusBar('cairn.showReport');
  context.subscriptions.push(statusBar, vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, documents));
  const slashCommands = new SlashCommands();
  // Set once the chat view exists (below), before any session runs.
  const attention: { notifier?: AttentionNotifier } = {};
  // Each terminal's last command from now on, for `@terminal` (shell integration shows output only as it comes).
  const terminals = new TerminalOutputs();
  context.subscriptions.push(terminals);
  const current = new SessionController({
    sessions,
    editor: new VsCodeEditorActions(documents, () => root, absolutePathOf),
    approver,
    log,
    workspace,
    // A gateway token stands for the key (it is sent instead).
    hasApiKey: async () => (await model.authToken()) !== undefined || (await model.apiKey()) !== undefined,
    apiKeySource: () => model.apiKeySource(),
    // Probed once per window: the same answer every command gets (NodeWorkspace asks the same probe).
    commandIsolation,
    windowTokens: async () => (await model.modelFacts(settings.loop.model)).maxInputTokens,
    onMeter: (meter) => statusBar.update(meter),
    // Keep-warm's requests go only while this window is open: the controller's dispose stops them.
    keepWarm: new KeepWarmTimer({ onState: (state) => statusBar.keepWarm(state) }),
    onBusy: (busy) => void vscode.commands.executeCommand('setContext', 'cairn.busy', busy),
    onEvent: (event) => attention.notifier?.observe(event),
    ...(root ? { checkpointPrompts: new VsCodeCheckpointPrompts(root, checkpointDocuments) } : {}),
    listModels: () => model.listModels(),
    server: () => model.server,
    currentModel: () => settings.loop.model,
    modelChoices: async () => modelChoices(await model.listModels(), settings.loop.model, settings.prices),
    permissionModes,
    pickModel: async (picked) => {
      await pickModelSetting(picked);
      // The picked model is the next request's at once: in a remote window (code-server, SSH) the settings
      // read right after the write may still hold the old value until the change event arrives.
      const read = readSettings(log, toldProblems);
      settings = { ...read, loop: { ...read.loop, model: picked } };
    },
    slashCommands,
    // The user's own commands; the workspace's are its text, read only while the user trusts it.
    customCommands: new FileCommandSource({
      homeDir: homedir(),
      roots: folders.map((f) => f.path),
      trusted: () => vscode.workspace.isTrusted,
    }),
    isWorkspaceFile: async (path) => (await stat((await workspace.resolve(path)).absolute)).isFile(),
    isWorkspaceFolder: async (path) => (await stat((await workspace.resolve(path)).absolute)).isDirectory(),
    findFiles: async (query) => findWorkspaceFiles(query),
    relativePathOf: (uri) => workspaceRelative(folders, vscode.Uri.parse(uri).fsPath),
    contextMentions: editorContextSource({
      terminals,
      relativePathOf: (absolute) => workspaceRelative(folders, absolute),
      folders: () => folders,
      trusted: () => vscode.workspace.isTrusted,
      changes: (folder) => uncommittedChanges(folder),
    }),
    allowances,
    // Issue 35 §4: every session's journal is read for the last 7 and 30 days, from the same folder sessions are kept in.
    savings: new SavingsReport({
      catalog: new SessionCatalog(join(context.globalStorageUri.fsPath, 'sessions')),
      prices: () => settings.prices,
      now: () => Date.now(),
      saveCsv: async (name, text) => {
        const uri = await vscode.window.showSaveDialog({
          defaultUri: vscode.Uri.file(join(root ?? homedir(), name)),
          filters: { CSV: ['csv'] },
          title: 'Export what hygiene saved',
        });
        if (!uri) return undefined;
        await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
        return uri.fsPath;
      },
    }),
  });
  built.controller = current;
  context.subscriptions.push(
    allowances.onChange(() => current.showInChat({ type: 'allowances', allowances: allowances.list() })),
    ...registerApprovalCommands({
      allowances,
      reviews,
      approver,
      showInChat: (message) => current.showInChat(message),
      log,
    }),
  );
  addBuiltInSlashCommands(slashCommands, {
    execute: (command) => vscode.commands.executeCommand(command),
    compact: (instructions) => current.compaction.run(instructions),
    showError: (message) => current.postError('slash_command', message),
  });
  controller = current;
  // Skills added, changed or removed on disk refresh the chat's list; the model hears of it with the next message.
  // Command files added, changed or removed refresh the chat's `/` list.
  const commandsWatcher = vscode.workspace.createFileSystemWatcher('**/{.cairn,.claude}/commands/**');
  const refreshCommands = (): void => void current.customCommands.refresh().catch(() => undefined);
  context.subscriptions.push(
    commandsWatcher,
    commandsWatcher.onDidCreate(refreshCommands),
    commandsWatcher.onDidChange(refreshCommands),
    commandsWatcher.onDidDelete(refreshCommands),
    vscode.workspace.onDidGrantWorkspaceTrust(refreshCommands),
  );
  const skillsWatcher = vscode.workspace.createFileSystemWatcher('**/{.cairn,.agents,.claude}/skills/**');
  const refreshSkills = (): void => void current.skills.refresh().catch(() => undefined);
  context.subscriptions.push(
    skillsWatcher,
    skillsWatcher.onDidCreate(refreshSkills),
    skillsWatcher.onDidChange(refreshSkills),
    skillsWatcher.onDidDelete(refreshSkills),
  );
  const report = new ReportPanel(context.extensionUri, current);
  const chatView = new ChatViewProvider(context.extensionUri, current);
  const notifier = new AttentionNotifier({
    enabled: () => vscode.workspace.getConfiguration('cairn').get<boolean>('notifications', true),
    chatVisible: () => chatView.visible,
    windowFocused: () => vscode.window.state.focused,
    show: (level, message, button) =>
      level === 'warning' ? vscode.window.showWarningMessage(message, button) : vscode.window.showInformationMessage(message, button),
    openChat: () => void vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`),
    setBadge: (badge) => chatView.setBadge(badge),
  });
  attention.notifier = notifier;
  chatView.onVisible = () => notifier.seen();
  context.subscriptions.push(vscode.window.onDidChangeWindowState(() => notifier.seen()));
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, chatView, {
      webviewOptions: { retainContextWhenHidden: true },
    }),
    { dispose: () => report.dispose() },
    ...registerCommands({
      controller: current,
      listSessions: async () => (sessions.list ? sessions.list() : []),
      ...(sessions instanceof FileSessionSource ? { catalog: sessions.catalog } : {}),
      showReport: () => report.show(),
      secrets,
      log,
    }),
  );
  // Resume the workspace's last session now, so the status bar and a reload pick it up with its ids.
  if (root)
    void current
      .session()
      .catch((error: unknown) => log.error(`Cairn could not open a session: ${error instanceof Error ? error.message : String(error)}`));
}

/** Workspace files whose relative path contains `query` (case-insensitive), shortest first, for `@` completion. */
async function findWorkspaceFiles(query: string): Promise<string[]> {
  const uris = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', 5000);
  const files = uris.map((uri) => vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1));
  return mentionCandidates(files, query);
}

/** A file's path as the tools name it (the first folder's files bare, the others' under the folder's name). */
function workspaceRelative(folders: readonly { name: string; path: string }[], absolute: string): string | undefined {
  for (const [index, folder] of folders.entries()) {
    const inside = relative(folder.path, absolute);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) continue;
    const path = inside.split(sep).join('/');
    return index === 0 ? path : `${folder.name}/${path}`;
  }
  return undefined;
}

export async function deactivate(): Promise<void> {
  await controller?.dispose();
  controller = undefined;
}
