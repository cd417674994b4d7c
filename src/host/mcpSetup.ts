/**
 * The MCP servers of this window, as VS Code users configure them: each workspace folder's
 * `.vscode/mcp.json` and the user's `cairn.mcp.servers` / `cairn.mcp.inputs` settings. Reads the files
 * through `vscode.workspace.fs`, honours workspace trust, asks whether each workspace server may start
 * (`McpServerApprovals`, before any of its inputs), asks `${input:id}` values through `McpInputs`
 * (SecretStorage), and hands back the servers to start (each with its identity), the ones that do not start
 * (with why) and the problems found. The connections themselves are built elsewhere (`src/core/mcp/node/`).
 */
import * as vscode from 'vscode';
import {
  mergeMcpServers,
  parseMcpJson,
  parseMcpSettings,
  resolveMcpServer,
  type McpConfigSource,
  type McpInputDeclaration,
  type ParsedMcpConfig,
} from '../core/mcp/config';
import { mcpServerIdentity, USER_ORIGIN } from '../core/mcp/serverIdentity';
import type { McpServerConfig, McpServerStatus } from '../core/mcp/types';
import type { McpInputOwner, McpInputs } from './mcpInputs';
import type { McpServerApprovals } from './mcpServerApprovals';
import { userScopedGetter } from './settingsReader';

export interface LoadedMcpServers {
  /** The servers to start, variables substituted (input values included: never log or show these). */
  readonly servers: readonly McpServerConfig[];
  /** Configured servers that do not start, each with why (`state: 'not_started'`). */
  readonly notStarted: readonly McpServerStatus[];
  /** What is wrong in the configuration, a sentence each (already logged and shown to the user once). */
  readonly problems: readonly string[];
}

export interface McpSetupLog {
  info(line: string): void;
  warn(line: string): void;
}

const OPEN_MCP_JSON = 'Open mcp.json';
const OPEN_SETTINGS = 'Open Settings';

interface FolderConfig {
  readonly folder: vscode.WorkspaceFolder;
  readonly file: vscode.Uri;
  readonly parsed: ParsedMcpConfig;
}

interface Problem {
  readonly text: string;
  /** The mcp.json it is about; undefined: the settings. */
  readonly file?: vscode.Uri;
}

export class McpSetup {
  /** Problems already logged and shown: each is shown once per window. */
  private readonly shown = new Set<string>();

  constructor(
    private readonly inputs: McpInputs,
    private readonly approvals: Pick<McpServerApprovals, 'mayStart'>,
    private readonly log: McpSetupLog,
    private readonly env: Readonly<Record<string, string | undefined>> = process.env,
  ) {}

  /**
   * Reads the configuration now (call it when a session is assembled: a changed mcp.json or setting applies
   * to the next session). Asks for inputs not stored yet; never throws for a bad configuration.
   */
  async loadMcpServers(): Promise<LoadedMcpServers> {
    const problems: Problem[] = [];
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
    const folderConfigs: FolderConfig[] = [];
    for (const folder of folders) {
      const file = vscode.Uri.joinPath(folder.uri, '.vscode', 'mcp.json');
      const source: McpConfigSource = {
        scope: 'workspace',
        origin: folder.uri.toString(),
        label: `.vscode/mcp.json of folder "${folder.name}"`,
        inputsLabel: `"inputs" of .vscode/mcp.json of folder "${folder.name}"`,
      };
      const text = await readText(file);
      if (text.kind === 'missing') continue;
      if (text.kind === 'unreadable') {
        problems.push({ text: `${source.label} cannot be read (${text.reason}). No server of it is started.`, file });
        continue;
      }
      const parsed = parseMcpJson(text.text, source);
      for (const problem of parsed.problems) problems.push({ text: problem, file });
      folderConfigs.push({ folder, file, parsed });
    }

    const get = userScopedGetter(vscode.workspace.getConfiguration('cairn'));
    const user = parseMcpSettings(get('mcp.servers'), get('mcp.inputs'), {
      scope: 'user',
      origin: USER_ORIGIN,
      label: 'the cairn.mcp.servers setting',
      inputsLabel: 'the cairn.mcp.inputs setting',
    });
    for (const problem of user.problems) problems.push({ text: problem });

    // The user's servers first: a repository cannot take the name or tool prefix of one of them.
    const merged = mergeMcpServers([user.servers, ...folderConfigs.map((c) => c.parsed.servers)]);
    for (const problem of merged.problems) problems.push({ text: problem });

    const servers: McpServerConfig[] = [];
    const notStarted: McpServerStatus[] = [];
    const trusted = vscode.workspace.isTrusted;
    // One at a time: an input box at a time, and each input asked once however many servers use it.
    for (const entry of merged.servers) {
      const owner = folderConfigs.find((c) => c.parsed.servers.includes(entry));
      if (entry.scope === 'workspace' && !trusted) {
        notStarted.push({
          name: entry.name,
          state: 'not_started',
          toolCount: 0,
          detail: `The workspace is not trusted: servers of its .vscode/mcp.json start once you trust it (Workspaces: Manage Workspace Trust).`,
        });
        continue;
      }
      const resolved = await resolveMcpServer(entry, {
        workspaceFolder: (owner?.folder ?? folders[0])?.uri.fsPath,
        env: this.env,
        inputs: owner ? owner.parsed.inputs : user.inputs,
        // A workspace server is asked about before its inputs: nobody types a token for a server they refuse.
        ...(owner && entry.scope === 'workspace' ? { mayStart: () => this.approvals.mayStart(entry, owner.folder.uri.fsPath) } : {}),
        askInput: (input: McpInputDeclaration) => this.inputs.value(inputOwner(owner?.folder), input),
        readEnvFile: async (path) => {
          const text = await readText(vscode.Uri.file(path));
          if (text.kind !== 'text') throw new Error(text.kind);
          return text.text;
        },
      });
      if (resolved.kind === 'ready') {
        servers.push({ ...resolved.config, identity: mcpServerIdentity(entry) });
        continue;
      }
      notStarted.push({ name: entry.name, state: 'not_started', toolCount: 0, detail: resolved.reason });
      if (resolved.problem) problems.push({ text: resolved.reason, ...(owner ? { file: owner.file } : {}) });
    }

    this.report(problems);
    return { servers, notStarted, problems: problems.map((p) => p.text) };
  }

  /** Logs new problems and shows them in one warning, with the way to the file (or setting) to fix. */
  private report(problems: readonly Problem[]): void {
    const fresh = problems.filter((problem) => !this.shown.has(problem.text));
    if (fresh.length === 0) return;
    for (const problem of fresh) {
      this.shown.add(problem.text);
      this.log.warn(`MCP: ${problem.text}`);
    }
    const file = fresh.find((problem) => problem.file)?.file;
    const more = fresh.length > 1 ? ` (and ${fresh.length - 1} more in the Cairn output)` : '';
    const actions = [...(file ? [OPEN_MCP_JSON] : []), ...(fresh.some((problem) => !problem.file) ? [OPEN_SETTINGS] : [])];
    void vscode.window.showWarningMessage(`Cairn MCP: ${fresh[0]!.text}${more}`, ...actions).then(
      async (answer) => {
        if (answer === OPEN_MCP_JSON && file) await vscode.window.showTextDocument(file);
        else if (answer === OPEN_SETTINGS) await vscode.commands.executeCommand('workbench.action.openSettings', 'cairn.mcp');
      },
      () => undefined,
    );
  }
}

function inputOwner(folder: vscode.WorkspaceFolder | undefined): McpInputOwner {
  return folder ? { kind: 'folder', uri: folder.uri.toString(), name: folder.name } : { kind: 'user' };
}

type ReadText =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'unreadable'; readonly reason: string };

async function readText(uri: vscode.Uri): Promise<ReadText> {
  try {
    return { kind: 'text', text: new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)) };
  } catch (error) {
    // VS Code's FileSystemError says `FileNotFound`; Node's (the tests' file system) `ENOENT`.
    const code = (error as { code?: unknown }).code;
    if (code === 'FileNotFound' || code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'unreadable', reason: typeof code === 'string' ? code : 'an error' };
  }
}
