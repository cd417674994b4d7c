import * as vscode from 'vscode';
import type { CapAnswer, CapQuestion, SpendingApprover } from '../core/spending/spendingCap';

/**
 * Asks the user past a spending cap (issue 32 §3) with the editor's own notification: continue once, raise
 * (to a figure the user types; twice the cap is offered), or stop. Closed without an answer, or the run
 * cancelled meanwhile: stop. Kept out of the chat's approval card on purpose, which another part owns; the
 * question names the cap, what was spent and what the next request could cost.
 */
export class VsCodeSpendingPrompt implements SpendingApprover {
  async askPastCap(question: CapQuestion, signal: AbortSignal): Promise<CapAnswer> {
    const once = 'Continue once';
    const raise = 'Raise…';
    const stop = 'Stop';
    const cancelled = new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true }));
    const picked = await Promise.race([vscode.window.showWarningMessage(`Cairn: ${question.text}`, once, raise, stop), cancelled]);
    if (picked === once) return { kind: 'once' };
    if (picked !== raise || signal.aborted) return { kind: 'stop' };
    const typed = await vscode.window.showInputBox({
      title: `Raise ${question.scope === 'turn' ? "this turn's" : "this session's"} spending cap`,
      prompt: `US dollars, more than ${question.capUsd.toFixed(2)} (spent so far: ${question.spentUsd.toFixed(4)}). Your setting is not changed.`,
      value: (question.capUsd * 2).toFixed(2),
      validateInput: (text) => {
        const value = Number(text.replace(/^\$/, ''));
        return Number.isFinite(value) && value > question.capUsd ? undefined : `Give a number above ${question.capUsd.toFixed(2)}.`;
      },
    });
    const value = Number(typed?.replace(/^\$/, ''));
    return typed !== undefined && Number.isFinite(value) && value > question.capUsd ? { kind: 'raise', capUsd: value } : { kind: 'stop' };
  }
}
