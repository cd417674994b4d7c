/**
 * The hooks a root raises around a user's turn, the same in the editor and the headless runner:
 * `SessionStart` when a session opens (its output waits for the next message), `UserPromptSubmit` before a
 * message is sent (a block keeps it unsent; output is added to it as context), `Stop` when a turn ends (a
 * block sends its reason as the next message, once per turn, so two hooks cannot keep a turn going for
 * ever). `PreCompact` is the compactor's own (`compactionHook.ts`), for every compaction however started.
 */
import type { SessionHooks } from './sessionHooks';

/** Claude Code's tag for a prompt hook's context, kept so a model used to it reads it the same way. */
const CONTEXT_TAG = 'user-prompt-submit-hook';

export type PromptVerdict = { readonly send: true; readonly text: string } | { readonly send: false; readonly reason: string };

export class TurnHooks {
  /** `SessionStart` output not yet sent (it goes with the next message). */
  private pendingContext = '';

  constructor(
    private readonly hooks: SessionHooks | undefined,
    private readonly notify: (message: string) => void,
  ) {}

  async sessionStarted(source: 'startup' | 'resume'): Promise<void> {
    if (!this.hooks) return;
    const verdict = await this.hooks.run('SessionStart', { source });
    verdict.notices.forEach(this.notify);
    if (verdict.context) this.pendingContext = verdict.context;
  }

  async beforePrompt(text: string): Promise<PromptVerdict> {
    if (!this.hooks) return { send: true, text };
    const verdict = await this.hooks.run('UserPromptSubmit', { prompt: text });
    verdict.notices.forEach(this.notify);
    if (verdict.block !== undefined)
      return { send: false, reason: `A UserPromptSubmit hook kept this message from being sent: ${verdict.block}` };
    const context = [this.pendingContext, verdict.context].filter(Boolean).join('\n');
    this.pendingContext = '';
    return { send: true, text: context ? `${text}\n\n<${CONTEXT_TAG}>\n${context}\n</${CONTEXT_TAG}>` : text };
  }

  /** The message to continue the turn with when a `Stop` hook blocks the stop; undefined: the turn ends. */
  async turnEnded(continued: boolean): Promise<string | undefined> {
    if (!this.hooks) return undefined;
    const verdict = await this.hooks.run('Stop', { stop_hook_active: continued });
    verdict.notices.forEach(this.notify);
    if (verdict.block === undefined || continued) return undefined;
    return `A Stop hook asks you to continue: ${verdict.block}`;
  }
}
