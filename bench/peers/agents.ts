/** Every agent the peers benchmark knows, by the name `--agent` takes. */
import type { BenchAgent } from './agent';
import { cairnAgent, cairnFailuresAgent } from './cairnAgent';
import { claudeCode1hAgent, claudeCodeAgent } from './claudeCode';
import { clineAgent } from './cline';
import { kiloAgent, opencodeAgent } from './opencode';

/** Every agent a `peers` run plays by default; `cairn-failures` runs only when named (`--agent cairn-failures`). */
export const AGENTS: readonly BenchAgent[] = [cairnAgent, claudeCodeAgent, claudeCode1hAgent, opencodeAgent, clineAgent, kiloAgent];
const ON_REQUEST: readonly BenchAgent[] = [cairnFailuresAgent];

export function agentsNamed(names: readonly string[]): BenchAgent[] {
  if (names.length === 0) return [...AGENTS];
  return names.map((name) => {
    const agent = [...AGENTS, ...ON_REQUEST].find((a) => a.name === name);
    if (!agent) throw new Error(`Unknown agent "${name}"; the agents are ${[...AGENTS, ...ON_REQUEST].map((a) => a.name).join(', ')}.`);
    return agent;
  });
}
