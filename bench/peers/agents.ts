/** Every agent the peers benchmark knows, by the name `--agent` takes. */
import type { BenchAgent } from './agent';
import { cairnAgent } from './cairnAgent';
import { claudeCodeAgent } from './claudeCode';
import { clineAgent } from './cline';
import { kiloAgent, opencodeAgent } from './opencode';

export const AGENTS: readonly BenchAgent[] = [cairnAgent, claudeCodeAgent, opencodeAgent, clineAgent, kiloAgent];

export function agentsNamed(names: readonly string[]): BenchAgent[] {
  if (names.length === 0) return [...AGENTS];
  return names.map((name) => {
    const agent = AGENTS.find((a) => a.name === name);
    if (!agent) throw new Error(`Unknown agent "${name}"; the agents are ${AGENTS.map((a) => a.name).join(', ')}.`);
    return agent;
  });
}
