/**
 * Playing a delegating scenario to a peer through its own sub-agent tool. Cairn marks a child's requests
 * with `x-cairn-agent`; a peer sends its sub-agent's requests like any other, so they are recognised by
 * what every sub-agent's conversation opens with: the task prompt its parent wrote. The scenario's
 * parent `task` calls, in order, name the children the way Cairn does (`explore-1`, `explore-2`,
 * `general-3`: one counter per session), so the same child turns answer a peer's sub-agent.
 */
import type { WireRequest } from '../../src/node/localServer/wire';
import type { Scenario } from '../../src/node/scenario/types';

export interface ScriptedTask {
  readonly agent: string;
  readonly kind: string;
  readonly prompt: string;
}

/** The parent's `task` calls in script order, with the child id Cairn gives each. */
export function scriptedTasks(scenario: Scenario): ScriptedTask[] {
  const tasks: ScriptedTask[] = [];
  for (const turn of scenario.turns) {
    if (turn.kind !== 'assistant' || turn.agent !== undefined) continue;
    for (const call of turn.toolCalls) {
      if (call.name !== 'task') continue;
      const input = call.input as { kind?: unknown; prompt?: unknown };
      const kind = typeof input.kind === 'string' ? input.kind : 'general';
      tasks.push({ agent: `${kind}-${tasks.length + 1}`, kind, prompt: String(input.prompt ?? '') });
    }
  }
  return tasks;
}

/** The child a request belongs to: its first user message holds that child's task prompt. */
export function childAgentOf(request: WireRequest, tasks: readonly ScriptedTask[]): string | undefined {
  const first = request.messages.find((m) => m.role === 'user');
  if (!first) return undefined;
  const texts = first.content.flatMap((b) => (b.type === 'text' && typeof b.text === 'string' ? [b.text] : []));
  return tasks.find((task) => task.prompt !== '' && texts.some((text) => text.includes(task.prompt)))?.agent;
}
