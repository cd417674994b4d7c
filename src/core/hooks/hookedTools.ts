/**
 * The loop's tools with the user's `PreToolUse` and `PostToolUse` hooks around each call. A call a
 * `PreToolUse` hook blocks is not run: the ledger answers it (an id, stored, redacted) with the hook's
 * reason, which is what the model sees. A `PostToolUse` hook that exits 2 (or answers `decision: block`)
 * cannot undo the call; its reason is added under the result, as Claude Code shows it to the model.
 * Hooks run after the approval: a hook can refuse what the user allowed, never allow what they did not.
 */
import type { ToolExecutor } from '../agent/ports';
import type { LedgerResult, ToolCall } from '../ledger/types';
import type { SessionHooks } from './sessionHooks';

export class HookedTools<T extends ToolExecutor & { state(): unknown }> implements ToolExecutor {
  readonly propose?: ToolExecutor['propose'];
  /** A pasted image is the user's, not a tool call: no hook runs for it, but it must reach the ledger (else it is not sent). */
  readonly attachImage?: ToolExecutor['attachImage'];

  constructor(
    private readonly inner: T,
    private readonly hooks: SessionHooks,
    /** A hook's failure or timeout, for the user (the chat, the transcript). */
    private readonly notify: (message: string) => void,
  ) {
    if (inner.propose) this.propose = (call) => inner.propose!(call);
    if (inner.attachImage) this.attachImage = (call, name, image) => inner.attachImage!(call, name, image);
  }

  state(): unknown {
    return this.inner.state();
  }

  async execute(call: ToolCall, context?: Parameters<ToolExecutor['execute']>[1]): Promise<LedgerResult> {
    const before = await this.hooks.run(
      'PreToolUse',
      { tool_input: call.input },
      { tool: call.name, ...(context?.signal ? { signal: context.signal } : {}) },
    );
    before.notices.forEach(this.notify);
    if (before.block !== undefined) {
      return this.inner.answerWithoutRunning(call, `Blocked by a PreToolUse hook; the call was not run. The hook says: ${before.block}`);
    }
    const result = await this.inner.execute(call, context);
    const after = await this.hooks.run(
      'PostToolUse',
      { tool_input: call.input, tool_response: { text: result.text, is_error: result.isError } },
      { tool: call.name, ...(context?.signal ? { signal: context.signal } : {}) },
    );
    after.notices.forEach(this.notify);
    if (after.block === undefined) return result;
    return { ...result, text: `${result.text}\n\n[PostToolUse hook] ${after.block}` };
  }

  answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult> {
    return this.inner.answerWithoutRunning(call, message, answer);
  }
}
