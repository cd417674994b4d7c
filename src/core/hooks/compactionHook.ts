/**
 * `PreCompact` as the compactor raises it, for every compaction whoever starts it (the chat's `/compact`, the
 * Compact… form, `Cairn: Compact Context`, the headless runner's step, the automatic and the overflow ones):
 * the hooks get Claude Code's `trigger` (`manual` or `auto`) and the user's instructions on stdin; a block
 * (exit 2, or `{"decision": "block"}`) is the reason returned, in the user's words. A sub-agent's compactions
 * (always `auto`: nobody compacts a child by hand) run the same hooks, their input naming the child as Claude
 * Code's hooks inside a sub-agent do: `agent_id` and `agent_type`.
 */
import type { SessionHooks } from './sessionHooks';

/** The sub-agent whose context is compacted (absent: the session's own agent). */
export interface HookAgent {
  /** `explore-1`, `general-2`… (the id the chat and the journal show). */
  readonly id: string;
  /** Its kind: `explore` or `general`. */
  readonly type: string;
}

export function preCompactHook(
  hooks: SessionHooks,
  notify: (message: string) => void,
  agent?: HookAgent,
): (trigger: 'manual' | 'auto', instructions: string | undefined, signal: AbortSignal) => Promise<string | undefined> {
  const named = agent ? { agent_id: agent.id, agent_type: agent.type } : {};
  return async (trigger, instructions, signal) => {
    const verdict = await hooks.run('PreCompact', { trigger, custom_instructions: instructions ?? '', ...named }, { signal });
    verdict.notices.forEach(notify);
    if (verdict.block === undefined) return undefined;
    return `A PreCompact hook stopped the compaction${agent ? ` of ${agent.id}'s context` : ''}: ${verdict.block}`;
  };
}
