/**
 * Reviewing a proposed change in VS Code's diff editor before approving it (issue 34, item 8). Each waiting
 * approval of a write, edit, multiedit or apply_patch has a review: the file as Cairn found it on the left
 * (read-only) and the proposal on the right, writable. The user keeps or drops each hunk there (the diff
 * editor's "Revert Block" arrow on a hunk drops it) and may edit the proposal like any text; "Allow" then
 * applies exactly what the right side holds, unsaved edits included. The chat is told as the proposal changes,
 * so its diff shows what Allow will write. Nothing here writes to the workspace: the agent's approval does,
 * through the ledger, so the file on disk and the tool's result agree.
 */
import * as vscode from 'vscode';
import { proposalDiffs } from '../core/agent/changeProposal';
import type { ProposedFileDiff } from '../core/agent/approval';
import { reviewedPlan, type ChangePlan, type RevisedTexts } from '../core/tools/changePlan';
import { PROPOSAL_SCHEME, type ProposalFiles } from './proposalFiles';

interface ReviewedFile {
  readonly relative: string;
  readonly displayPath: string;
  readonly before: vscode.Uri;
  readonly proposal: vscode.Uri;
  /** The proposal's text when the editor first opened it (the line endings VS Code settled on); null: not opened. */
  opened: string | null;
  /** The plan proposes deleting the file: its right side is empty and cannot be edited. */
  readonly deleted: boolean;
}

interface Review {
  readonly plan: ChangePlan;
  readonly files: readonly ReviewedFile[];
}

/** Told when the user changed a proposal: the diffs Allow will now write, and whether they differ from the proposal. */
export type RevisionListener = (reviewId: string, diffs: readonly ProposedFileDiff[], revised: boolean) => void;

export class ProposalReviews implements vscode.Disposable {
  private readonly reviews = new Map<string, Review>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private next = 0;

  constructor(
    private readonly files: ProposalFiles,
    private readonly onRevised: RevisionListener,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((event) => this.changed(event.document.uri)),
      files.onWritten((uri) => this.changed(uri)),
    );
  }

  /** Starts a review of `plan` (a waiting approval's proposal); its id names its documents. */
  begin(plan: ChangePlan): string {
    const reviewId = `r${++this.next}`;
    const byPath = new Map(plan.files.map((file) => [file.relative, file]));
    const files = plan.changes.map((change): ReviewedFile => {
      const file = byPath.get(change.relative)!;
      const source = change.movedFrom ? byPath.get(change.movedFrom.relative) : file;
      const before = source?.binaryBefore ? '' : (source?.before ?? '');
      const deleted = change.kind === 'deleted';
      return {
        relative: change.relative,
        displayPath: change.displayPath,
        before: this.files.put(`/${reviewId}/found/${change.relative}`, before, true),
        proposal: this.files.put(`/${reviewId}/proposal/${change.relative}`, deleted ? '' : (file.after ?? ''), deleted),
        opened: null,
        deleted,
      };
    });
    this.reviews.set(reviewId, { plan, files });
    return reviewId;
  }

  /** Opens the diff editor on one file of the review (its first when none is named). False: no such review or file. */
  async open(reviewId: string, relative?: string): Promise<boolean> {
    const review = this.reviews.get(reviewId);
    const file = review?.files.find((f) => relative === undefined || f.relative === relative || f.displayPath === relative);
    if (!file) return false;
    const document = await vscode.workspace.openTextDocument(file.proposal);
    file.opened ??= document.getText();
    const side = file.deleted ? 'deleted by the proposal' : 'proposed (edit it, or revert a block to drop it)';
    await vscode.commands.executeCommand('vscode.diff', file.before, file.proposal, `${file.displayPath}: now ↔ ${side}`, {
      preview: false,
    });
    return true;
  }

  /**
   * The texts the user settled on that differ from the proposal (undefined: none, a plain approval), read from
   * the open documents, unsaved edits included.
   */
  revised(reviewId: string): RevisedTexts | undefined {
    const review = this.reviews.get(reviewId);
    if (!review) return undefined;
    const revised = new Map<string, string>();
    for (const file of review.files) {
      if (file.deleted || file.opened === null) continue;
      const text = this.currentText(file);
      if (text !== undefined && text !== file.opened) revised.set(file.relative, text);
    }
    return revised.size > 0 ? revised : undefined;
  }

  /** The review is over (answered, cancelled): its documents are saved, their tabs closed and forgotten. */
  async end(reviewId: string): Promise<void> {
    const review = this.reviews.get(reviewId);
    if (!review) return;
    this.reviews.delete(reviewId);
    clearTimeout(this.pending.get(reviewId));
    this.pending.delete(reviewId);
    const prefix = `/${reviewId}/`;
    // Saved first, so closing an edited proposal does not ask whether to save it.
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === PROPOSAL_SCHEME && document.uri.path.startsWith(prefix) && document.isDirty) {
        await document.save().then(undefined, () => undefined);
      }
    }
    const tabs = vscode.window.tabGroups.all
      .flatMap((group) => group.tabs)
      .filter((tab) => {
        const input = tab.input;
        return (
          input instanceof vscode.TabInputTextDiff && input.modified.scheme === PROPOSAL_SCHEME && input.modified.path.startsWith(prefix)
        );
      });
    if (tabs.length > 0) await vscode.window.tabGroups.close(tabs, true).then(undefined, () => undefined);
    this.files.forget(prefix);
  }

  /** The review a proposal document belongs to (its id), if it is still under review. */
  reviewOf(uri: vscode.Uri): string | undefined {
    if (uri.scheme !== PROPOSAL_SCHEME) return undefined;
    const reviewId = uri.path.split('/')[1];
    return reviewId !== undefined && this.reviews.has(reviewId) ? reviewId : undefined;
  }

  dispose(): void {
    for (const subscription of this.subscriptions) subscription.dispose();
    for (const timer of this.pending.values()) clearTimeout(timer);
  }

  private currentText(file: ReviewedFile): string | undefined {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.proposal.toString());
    return open ? open.getText() : this.files.textOf(file.proposal);
  }

  /** A proposal document changed: the chat hears what Allow will now write (once typing pauses). */
  private changed(uri: vscode.Uri): void {
    const reviewId = this.reviewOf(uri);
    if (reviewId === undefined) return;
    clearTimeout(this.pending.get(reviewId));
    this.pending.set(
      reviewId,
      setTimeout(() => {
        this.pending.delete(reviewId);
        const review = this.reviews.get(reviewId);
        if (!review) return;
        const revised = this.revised(reviewId);
        const plan = revised ? reviewedPlan(review.plan, revised) : undefined;
        this.onRevised(reviewId, proposalDiffs(plan?.ok ? plan.plan : review.plan), revised !== undefined);
      }, 200),
    );
  }
}
