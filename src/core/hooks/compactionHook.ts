/**
 * `PreCompact` as the compactor raises it, for every compaction whoever starts it (the chat's `/compact`, the
 * Compact… form, `Cairn: Compact Context`, the headless runner's step, the automatic and the overflow ones):
 * the hooks get Claude Code's `trigger` (`manual` or `auto`) and the user's instructions on stdin; a block
 * (exit 2, or `{"decision": "block"}`) is the reason returned, in the user's words.
 */
import type { SessionHooks } from './sessionHooks';

export function preCompactHook(
  hooks: SessionHooks,
  notify: (message: string) => void,
): (trigger: 'manual' | 'auto', instructions: string | undefined, signal: AbortSignal) => Promise<string | undefined> {
  return async (trigger, instructions, signal) => {
    const verdict = await hooks.run('PreCompact', { trigger, custom_instructions: instructions ?? '' }, { signal });
    verdict.notices.forEach(notify);
    return verdict.block === undefined ? undefined : `A PreCompact hook stopped the compaction: ${verdict.block}`;
  };
}
