/**
 * The palette commands, all under the "Cairn" category. Each catches its own failure and shows it as an
 * error message the user can act on; nothing a command does can take the extension down.
 */
import * as vscode from 'vscode';
import { API_KEY_SECRET, AUTH_TOKEN_SECRET } from '../core/model/apiKey';
import type { Secrets } from '../core/ports';
import { exportSessionMarkdown } from '../core/journal/node/exportMarkdown';
import type { SessionSummary } from '../core/journal/node/sessionCatalog';
import { CHAT_VIEW_ID } from './chatViewProvider';
import { errorMessage } from '../core/errorMessage';
import type { HostLog, SessionController } from './sessionController';
import { mentionText } from './fileMentions';
import { SESSION_PICK_OPTIONS, SessionList, sessionPickItems } from './sessionList';
import type { SessionCatalog } from '../core/journal/node/sessionCatalog';

export const COMMANDS = {
  newSession: 'cairn.newSession',
  openSession: 'cairn.openSession',
  renameSession: 'cairn.renameSession',
  deleteSession: 'cairn.deleteSession',
  compact: 'cairn.compact',
  showReport: 'cairn.showReport',
  recallResult: 'cairn.recallResult',
  setApiKey: 'cairn.setApiKey',
  clearApiKey: 'cairn.clearApiKey',
  setAuthToken: 'cairn.setAuthToken',
  clearAuthToken: 'cairn.clearAuthToken',
  addFileToChat: 'cairn.addFileToChat',
  attachImageToChat: 'cairn.attachImageToChat',
  addSelectionToChat: 'cairn.addSelectionToChat',
  exportSession: 'cairn.exportSession',
  cancel: 'cairn.cancel',
  focusChat: 'cairn.focusChat',
  openSettings: 'cairn.openSettings',
  applyMcpToolChanges: 'cairn.applyMcpToolChanges',
  undoLastTurnChanges: 'cairn.undoLastTurnChanges',
  showChanges: 'cairn.showChanges',
} as const;

export interface CommandDeps {
  readonly controller: SessionController;
  readonly listSessions: () => Promise<SessionSummary[]>;
  /** Renames and deletes (none without a folder). */
  readonly catalog?: Pick<SessionCatalog, 'rename' | 'delete'>;
  readonly showReport: () => void;
  readonly secrets: Secrets;
  readonly log: HostLog & { hide(secret: string | undefined): void };
}

const RESULT_ID = /^#?[0-9a-f]{4,32}$/;

function options<T extends object>(value: unknown): Partial<T> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Partial<T>) : {};
}

async function focusChat(controller: SessionController): Promise<void> {
  await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
  controller.focusInput();
}

/** Registers every command; the returned disposables unregister them. */
export function registerCommands(deps: CommandDeps): vscode.Disposable[] {
  const { controller, log } = deps;
  const guarded =
    (name: string, run: (...args: unknown[]) => Promise<void> | void) =>
    async (...args: unknown[]): Promise<void> => {
      try {
        await run(...args);
      } catch (error) {
        const message = errorMessage(error);
        log.error(`${name} failed: ${message}`);
        void vscode.window.showErrorMessage(`Cairn: ${message}`);
      }
    };

  const currentId = () =>
    controller.session().then(
      (s) => s.journal.sessionId,
      () => undefined,
    );
  // From the explorer's or the editor's context menu (the clicked file), else the active editor's file.
  const addFileToChat = async (arg: unknown): Promise<void> => {
    const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeTextEditor?.document.uri;
    if (!uri || uri.scheme !== 'file') throw new Error('Open a file of the workspace (or right-click one) to add it to Cairn.');
    const path = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
    if (path === uri.fsPath) throw new Error('This file is outside the workspace; Cairn reads only the workspace’s files.');
    await focusChat(controller);
    controller.insertIntoInput(`${mentionText(path)} `);
  };
  const noFolder = async (): Promise<never> => {
    throw new Error('Sessions are kept per folder: open one (File › Open Folder…) first.');
  };
  const sessionList = new SessionList({
    list: deps.listSessions,
    currentId,
    rename: deps.catalog ? (id, name) => deps.catalog!.rename(id, name) : noFolder,
    remove: deps.catalog ? (id) => deps.catalog!.delete(id) : noFolder,
    log,
    prompts: {
      pick: async (items, title) =>
        vscode.window.showQuickPick(items, { title, placeHolder: 'Search by name, first message or date', ...SESSION_PICK_OPTIONS }),
      askName: async (current) =>
        vscode.window.showInputBox({ title: 'Cairn: Rename Session', prompt: 'The session’s new name', value: current }),
      confirm: async (message, confirm) => (await vscode.window.showWarningMessage(message, { modal: true }, confirm)) === confirm,
      info: (message) => void vscode.window.showInformationMessage(message),
    },
  });

  const handlers: Record<(typeof COMMANDS)[keyof typeof COMMANDS], (...args: unknown[]) => Promise<void> | void> = {
    [COMMANDS.newSession]: async (arg) => {
      // A running session is stopped by starting another: ask first (a keybinding's `{force: true}` does not).
      if (controller.isBusy && options<{ force: boolean }>(arg).force !== true) {
        const answer = await vscode.window.showWarningMessage(
          'Cairn is still working. Stop it and start a new session? The current one stays in the history.',
          { modal: true },
          'Stop and Start New',
        );
        if (answer !== 'Stop and Start New') return;
      }
      await controller.newSession();
      await focusChat(controller);
    },
    [COMMANDS.openSession]: async (arg) => {
      const given = options<{ sessionId: string }>(arg).sessionId;
      let sessionId = typeof given === 'string' ? given : undefined;
      if (!sessionId) {
        const sessions = await deps.listSessions();
        if (sessions.length === 0) {
          void vscode.window.showInformationMessage('Cairn: this workspace has no sessions yet.');
          return;
        }
        const picked = await vscode.window.showQuickPick(sessionPickItems(sessions, await currentId()), {
          title: 'Cairn: Open Session',
          placeHolder: 'Search by name, first message or date (e.g. 2026-03-14)',
          ...SESSION_PICK_OPTIONS,
        });
        sessionId = picked?.sessionId;
      }
      if (!sessionId) return;
      await controller.openSession(sessionId);
      await focusChat(controller);
    },
    [COMMANDS.renameSession]: async (arg) => {
      const given = options<{ sessionId: string; name: string }>(arg);
      await sessionList.rename(
        typeof given.sessionId === 'string' ? given.sessionId : undefined,
        typeof given.name === 'string' ? given.name : undefined,
      );
    },
    [COMMANDS.deleteSession]: async (arg) => {
      const given = options<{ sessionId: string }>(arg).sessionId;
      await sessionList.delete(typeof given === 'string' ? given : undefined);
    },
    [COMMANDS.compact]: async (arg) => {
      if (arg !== undefined) {
        // From code or a keybinding's args: `{instructions?, preview?}`, no questions asked.
        const given = options<{ instructions: string; preview: boolean }>(arg);
        const instructions = typeof given.instructions === 'string' ? given.instructions : undefined;
        await controller.compaction.run(instructions?.trim() || undefined, given.preview === true);
        return;
      }
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'Preview', description: 'write the summary and show it; apply or discard it after', preview: true, ask: false },
          { label: 'Apply', description: 'compact now', preview: false, ask: false },
          { label: 'Preview with instructions…', description: 'say what the summary should keep, then preview', preview: true, ask: true },
          { label: 'Apply with instructions…', description: 'say what the summary should keep, then compact', preview: false, ask: true },
        ],
        { title: 'Cairn: Compact Context', placeHolder: 'Summarize the older conversation to free context' },
      );
      if (!picked) return;
      let instructions: string | undefined;
      if (picked.ask) {
        instructions = await vscode.window.showInputBox({
          title: 'Cairn: Compact Context',
          prompt: 'What the summary should keep',
          placeHolder: 'e.g. keep the failing test names and the plan',
        });
        if (instructions === undefined) return;
      }
      await controller.compaction.run(instructions?.trim() || undefined, picked.preview);
      if (picked.preview && (await controller.compaction.showPreview())) {
        const preview = controller.compaction.previewDetails();
        const answer = await vscode.window.showInformationMessage(
          `Cairn: the summary is ready (about ${preview?.tokensBefore ?? '?'} → ${preview?.tokensAfter ?? '?'} tokens). Apply it?`,
          'Apply',
          'Discard',
        );
        // Dismissed: the preview waits in the chat's notice, with the same Apply and Discard.
        if (answer === 'Apply') await controller.compaction.act('apply');
        else if (answer === 'Discard') await controller.compaction.act('discard');
      }
    },
    [COMMANDS.showReport]: () => deps.showReport(),
    [COMMANDS.recallResult]: async (arg) => {
      let id = typeof arg === 'string' ? arg : options<{ resultId: string }>(arg).resultId;
      if (typeof id !== 'string') {
        id = await vscode.window.showInputBox({
          title: 'Cairn: Recall Result',
          prompt: 'The result id, e.g. #a3f2',
          validateInput: (value) => (RESULT_ID.test(value.trim()) ? undefined : 'A result id is # and 4 or more lowercase hex digits.'),
        });
      }
      if (id === undefined) return;
      const trimmed = id.trim();
      if (!RESULT_ID.test(trimmed)) throw new Error(`"${trimmed.slice(0, 40)}" is not a result id (# and 4 or more lowercase hex digits).`);
      const resultId = trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
      await focusChat(controller);
      controller.showRecall(resultId);
    },
    [COMMANDS.setApiKey]: async () => {
      const key = await vscode.window.showInputBox({
        title: 'Cairn: Set API Key',
        prompt: 'Your Anthropic API key. It is kept in VS Code’s secret storage, never in settings or logs.',
        password: true,
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim().length >= 8 ? undefined : 'Paste the whole key.'),
      });
      if (key === undefined) return;
      const trimmed = key.trim();
      log.hide(trimmed);
      await deps.secrets.set(API_KEY_SECRET, trimmed);
      log.info('The API key was saved in secret storage.');
      await controller.apiKeySaved();
    },
    [COMMANDS.clearApiKey]: async () => {
      const answer = await vscode.window.showWarningMessage(
        'Remove the API key Cairn keeps in VS Code’s secret storage? Cairn cannot talk to the model until a key is set again (or ANTHROPIC_API_KEY is set).',
        { modal: true },
        'Remove Key',
      );
      if (answer !== 'Remove Key') return;
      await deps.secrets.delete(API_KEY_SECRET);
      log.info('The API key was removed from secret storage.');
      controller.postNotice('api_key_cleared', 'The API key was removed from secret storage.');
    },
    // A gateway's bearer token (LiteLLM, a company proxy…): kept like the key, sent instead of it while set.
    [COMMANDS.setAuthToken]: async () => {
      const token = await vscode.window.showInputBox({
        title: 'Cairn: Set Auth Token',
        prompt:
          'A bearer token for your gateway (sent as “Authorization: Bearer …” instead of the API key). It is kept in VS Code’s secret storage, never in settings or logs.',
        password: true,
        ignoreFocusOut: true,
        validateInput: (value) => (value.trim().length >= 4 ? undefined : 'Paste the whole token.'),
      });
      if (token === undefined) return;
      const trimmed = token.trim();
      log.hide(trimmed);
      await deps.secrets.set(AUTH_TOKEN_SECRET, trimmed);
      log.info('The auth token was saved in secret storage; it is sent instead of the API key.');
      await controller.apiKeySaved();
    },
    [COMMANDS.clearAuthToken]: async () => {
      await deps.secrets.delete(AUTH_TOKEN_SECRET);
      log.info('The auth token was removed from secret storage; the API key is sent again.');
      controller.postNotice('auth_token_cleared', 'The auth token was removed from secret storage; Cairn sends the API key again.');
    },
    [COMMANDS.exportSession]: async (arg) => {
      const assembled = await controller.session();
      const given = options<{ outDir: string }>(arg).outDir;
      let outDir = typeof given === 'string' ? given : undefined;
      if (!outDir) {
        const picked = await vscode.window.showOpenDialog({
          title: 'Cairn: Export Session',
          openLabel: 'Export here',
          canSelectFiles: false,
          canSelectFolders: true,
          canSelectMany: false,
        });
        outDir = picked?.[0]?.fsPath;
      }
      if (!outDir) return;
      const exported = await exportSessionMarkdown(assembled.journal, outDir);
      log.info(`Session ${assembled.journal.sessionId} exported to ${exported.markdownPath}`);
      await vscode.window.showTextDocument(vscode.Uri.file(exported.markdownPath), { preview: true });
    },
    [COMMANDS.cancel]: () => controller.cancel(),
    [COMMANDS.addFileToChat]: (arg) => addFileToChat(arg),
    // An image file of the explorer (issue 33): its mention goes in the input, and the message sends the image
    // (read through the ledger like the model's `read`, so a later read of the unchanged file is a stub).
    [COMMANDS.attachImageToChat]: (arg) => addFileToChat(arg),
    [COMMANDS.addSelectionToChat]: async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.document.uri.scheme !== 'file') throw new Error('Select lines in a workspace file to add them to Cairn.');
      const path = vscode.workspace.asRelativePath(editor.document.uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
      if (path === editor.document.uri.fsPath)
        throw new Error('This file is outside the workspace; Cairn reads only the workspace’s files.');
      const { start, end } = editor.selection;
      // A selection ending at column 0 of a line does not take that line.
      const last = end.character === 0 && end.line > start.line ? end.line : end.line + 1;
      await focusChat(controller);
      controller.insertIntoInput(`${mentionText(path, { from: start.line + 1, to: last })} `);
    },
    [COMMANDS.applyMcpToolChanges]: async () => {
      const session = (await controller.session()).session;
      await session.applyToolChangesNow();
      controller.postNotice(
        'mcp_tools_applied',
        'The MCP servers’ current tools are offered from the next request (the prompt prefix is written again once).',
      );
    },
    [COMMANDS.undoLastTurnChanges]: async () => {
      if (controller.isBusy) throw new Error('Files cannot be restored while Cairn is working. Wait for it to finish, or cancel it.');
      await controller.checkpoints?.undoLastTurn();
    },
    [COMMANDS.showChanges]: () => controller.checkpoints?.showChanges(),
    [COMMANDS.focusChat]: () => focusChat(controller),
    [COMMANDS.openSettings]: async () => {
      await vscode.commands.executeCommand('workbench.action.openSettings', '@ext:cairn.cairn');
    },
  };
  return Object.entries(handlers).map(([name, run]) => vscode.commands.registerCommand(name, guarded(name, run)));
}
