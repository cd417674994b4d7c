/**
 * Asks whether a trusted workspace's MCP server may start, and remembers the answer (the decision and the
 * question's text: `src/core/mcp/serverApproval.ts`). The question is a modal dialog showing the server's
 * name, its folder, command, arguments, env keys (never values) or URL and header keys; Allow and Don't
 * Allow are remembered in the extension's `globalState` (user-level storage: the repository cannot write
 * it) against the folder, the server's name and its definition hash, so a changed definition is asked about
 * again. A dialog closed without an answer is not remembered: the next session asks again.
 * **Cairn: Manage MCP Server Approvals** lists the answers and forgets one or all.
 */
import * as vscode from 'vscode';
import type { McpServerEntry } from '../core/mcp/config';
import {
  parseStoredAnswers,
  refusedDetail,
  serverStartQuestion,
  serverStartVerdict,
  unansweredDetail,
  withAnswer,
  type StoredServerAnswer,
} from '../core/mcp/serverApproval';
import { mcpServerIdentity } from '../core/mcp/serverIdentity';

export const MANAGE_MCP_SERVER_APPROVALS_COMMAND = 'cairn.manageMcpServerApprovals';

/** The `globalState` key of the answers (a list of `StoredServerAnswer`: names, folders and hashes, no values). */
export const SERVER_ANSWERS_KEY = 'cairn.mcp.serverApprovals';

const ALLOW = 'Allow';
const DONT_ALLOW = "Don't Allow";

export type McpApprovalState = Pick<vscode.Memento, 'get' | 'update'>;

export class McpServerApprovals {
  /** One question per server definition at a time, however many sessions are being assembled. */
  private readonly asking = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly state: McpApprovalState,
    private readonly log: { info(line: string): void },
  ) {}

  /**
   * Undefined when the server may start (a user's server; a workspace server allowed now or before, as it
   * is defined now), else why it does not (a sentence saying how to start it).
   */
  async mayStart(entry: McpServerEntry, folderPath: string): Promise<string | undefined> {
    const identity = mcpServerIdentity(entry);
    const verdict = serverStartVerdict(identity, this.answers());
    if (verdict.kind === 'start') return undefined;
    if (verdict.kind === 'refused') return refusedDetail(entry);
    const key = JSON.stringify([identity.origin, identity.name, identity.definitionHash]);
    const pending = this.asking.get(key);
    if (pending) return pending;
    const asked = this.ask(entry, folderPath, verdict).finally(() => this.asking.delete(key));
    this.asking.set(key, asked);
    return asked;
  }

  /** The remembered answers, oldest first. */
  answers(): StoredServerAnswer[] {
    return parseStoredAnswers(this.state.get(SERVER_ANSWERS_KEY));
  }

  /** Forgets the answers `forget` picks; returns how many were forgotten. */
  async forget(forget: (answer: StoredServerAnswer) => boolean): Promise<number> {
    const answers = this.answers();
    const kept = answers.filter((answer) => !forget(answer));
    await this.state.update(SERVER_ANSWERS_KEY, kept);
    return answers.length - kept.length;
  }

  private async ask(
    entry: McpServerEntry,
    folderPath: string,
    verdict: Parameters<typeof serverStartQuestion>[2],
  ): Promise<string | undefined> {
    const { message, detail } = serverStartQuestion(entry, folderPath, verdict);
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, ALLOW, DONT_ALLOW);
    if (answer !== ALLOW && answer !== DONT_ALLOW) {
      this.log.info(`MCP server "${entry.name}" of ${entry.source}: the question was closed without an answer; it is not started.`);
      return unansweredDetail(entry);
    }
    const allowed = answer === ALLOW;
    const { origin, name, definitionHash } = mcpServerIdentity(entry);
    await this.state.update(
      SERVER_ANSWERS_KEY,
      withAnswer(this.answers(), { origin, name, definitionHash, allowed, source: entry.source }),
    );
    this.log.info(
      `MCP server "${entry.name}" of ${entry.source}: ${allowed ? 'allowed' : 'not allowed'} to start (remembered for this definition).`,
    );
    return allowed ? undefined : refusedDetail(entry);
  }
}

/** **Cairn: Manage MCP Server Approvals**: the remembered answers, one (or all) to forget. */
export function registerManageMcpServerApprovalsCommand(
  approvals: McpServerApprovals,
  log: { error(line: string): void },
): vscode.Disposable {
  return vscode.commands.registerCommand(MANAGE_MCP_SERVER_APPROVALS_COMMAND, async () => {
    try {
      const answers = approvals.answers();
      if (answers.length === 0) {
        void vscode.window.showInformationMessage('Cairn: no answer about a workspace MCP server is remembered.');
        return;
      }
      type Item = vscode.QuickPickItem & { readonly answer?: StoredServerAnswer };
      const items: Item[] = [
        ...answers.map((answer) => ({
          label: `${answer.allowed ? 'Allowed' : 'Not allowed'}: ${answer.name}`,
          description: answer.source,
          detail: `${vscode.Uri.parse(answer.origin).fsPath} — definition sha256 ${answer.definitionHash.slice(0, 12)}…`,
          answer,
        })),
        { label: 'Forget every answer', description: `${answers.length} remembered` },
      ];
      const picked = await vscode.window.showQuickPick(items, {
        title: 'Cairn: MCP server answers',
        placeHolder: 'Pick an answer to forget: Cairn asks about that server again when the next session starts',
      });
      if (!picked) return;
      const chosen = picked.answer;
      const count = await approvals.forget((answer) => !chosen || (answer.origin === chosen.origin && answer.name === chosen.name));
      void vscode.window.showInformationMessage(
        chosen
          ? `Cairn forgot your answer about the MCP server "${chosen.name}" (${chosen.source}). It asks again when the next session starts (Cairn: New Session).`
          : `Cairn forgot ${count} answer${count === 1 ? '' : 's'} about workspace MCP servers. Each is asked again when the next session starts.`,
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      log.error(`Manage MCP Server Approvals failed: ${message}`);
      void vscode.window.showErrorMessage(`Cairn: ${message}`);
    }
  });
}
