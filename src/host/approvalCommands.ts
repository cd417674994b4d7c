/**
 * The approval commands outside the chat (issue 34, items 8 and 9): **Cairn: Manage Allowances** lists what the
 * user allowed to run without asking, with how long each lasts, and revokes one or all; **Allow Reviewed Change**
 * and **Deny Change** sit on the diff editor's title while a proposed change is reviewed there, and answer its
 * approval as the chat's buttons do (what the proposal holds then is what is written).
 */
import * as vscode from 'vscode';
import { errorMessage } from '../core/errorMessage';
import type { AllowanceView, HostToWebview } from '../shared/protocol';
import type { Allowances } from './allowances';
import type { ProposalReviews } from './proposalReview';
import type { WebviewApprover } from './webviewApprover';

export const APPROVAL_COMMANDS = {
  manageAllowances: 'cairn.manageAllowances',
  allowReviewedChange: 'cairn.allowReviewedChange',
  denyReviewedChange: 'cairn.denyReviewedChange',
} as const;

/** How long an allowance lasts, in the words the chat's list uses too. */
export function scopeText(scope: AllowanceView['scope']): string {
  if (scope === 'session') return 'this session';
  if (scope === 'user') return 'always, for you in every workspace';
  return 'your settings (cairn.approvals)';
}

export interface ApprovalCommandDeps {
  readonly allowances: Pick<Allowances, 'list' | 'revoke'>;
  readonly reviews: Pick<ProposalReviews, 'reviewOf'>;
  readonly approver: Pick<WebviewApprover, 'callOfReview' | 'answer'>;
  /** Tells the chat a call was answered here (`SessionController.showInChat`). */
  readonly showInChat: (message: Extract<HostToWebview, { type: 'approvalAnswered' }>) => void;
  readonly log: { error(line: string): void };
}

export function registerApprovalCommands(deps: ApprovalCommandDeps): vscode.Disposable[] {
  const guarded =
    (name: string, run: (...args: unknown[]) => Promise<void>) =>
    async (...args: unknown[]): Promise<void> => {
      try {
        await run(...args);
      } catch (error) {
        deps.log.error(`${name} failed: ${errorMessage(error)}`);
        void vscode.window.showErrorMessage(`Cairn: ${errorMessage(error)}`);
      }
    };

  const answerReview = (decision: 'allow-once' | 'deny') => async (resource?: unknown) => {
    const uri = resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
    const reviewId = uri ? deps.reviews.reviewOf(uri) : undefined;
    const call = reviewId !== undefined ? deps.approver.callOfReview(reviewId) : undefined;
    if (!call) {
      void vscode.window.showInformationMessage('Cairn: this change is no longer waiting for an answer.');
      return;
    }
    if (deps.approver.answer(call.callId, decision, undefined, call.agent))
      deps.showInChat({ type: 'approvalAnswered', ...call, decision });
  };

  return [
    vscode.commands.registerCommand(
      APPROVAL_COMMANDS.manageAllowances,
      guarded('Manage Allowances', async () => {
        const list = deps.allowances.list();
        if (list.length === 0) {
          void vscode.window.showInformationMessage('Cairn: nothing is allowed to run without asking. Every edit and command asks first.');
          return;
        }
        type Item = vscode.QuickPickItem & { readonly id?: string };
        const items: Item[] = [
          ...list.map((allowance) => ({ label: allowance.label, description: scopeText(allowance.scope), id: allowance.id })),
          { label: 'Revoke every allowance', description: `${list.length} in the list` },
        ];
        const picked = await vscode.window.showQuickPick(items, {
          title: 'Cairn: allowed without asking',
          placeHolder: 'Pick one to revoke: Cairn asks before that tool runs again',
        });
        if (!picked) return;
        const ids = picked.id !== undefined ? [picked.id] : list.map((allowance) => allowance.id);
        for (const id of ids) await deps.allowances.revoke(id);
        void vscode.window.showInformationMessage(
          picked.id !== undefined
            ? `Cairn: "${picked.label}" revoked; it asks before running again.`
            : `Cairn: ${ids.length} allowance${ids.length === 1 ? '' : 's'} revoked; every edit and command asks again.`,
        );
      }),
    ),
    vscode.commands.registerCommand(APPROVAL_COMMANDS.allowReviewedChange, guarded('Allow Reviewed Change', answerReview('allow-once'))),
    vscode.commands.registerCommand(APPROVAL_COMMANDS.denyReviewedChange, guarded('Deny Change', answerReview('deny'))),
  ];
}
