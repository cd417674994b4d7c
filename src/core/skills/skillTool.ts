import type { ExternalToolOutcome, ExternalTools } from '../ledger/types';
import type { ToolDefinition } from '../model/types';
import type { SessionSkills } from './sessionSkills';

export const SKILL_TOOL_NAME = 'skill';

/**
 * Fixed for the whole session: a name is a free string, never an enum of the skills on disk, so adding
 * or removing a skill never changes the tool definitions (the cached prefix). The catalog says which exist.
 */
export const SKILL_TOOL: ToolDefinition = {
  name: SKILL_TOOL_NAME,
  description:
    'Loads a skill: instructions (and the folder of files bundled with them) for a kind of task. Call it with a name from the ' +
    'skills catalog in the system prompt when the task matches that skill’s description, then follow what it says. ' +
    'Loading the same unchanged skill again answers that the result is the same as before.',
  input_schema: {
    type: 'object',
    properties: { name: { type: 'string', description: 'The skill’s name as the catalog lists it, e.g. "release-notes".' } },
    required: ['name'],
    additionalProperties: false,
  },
};

/**
 * The `skill` tool as the ledger runs it: the body is the result, so it gets an id, is stored and can be
 * recalled; an unchanged second activation answers "Same result as #id" (the ledger's stub for a result
 * that is not a file read).
 */
export class SkillTool implements ExternalTools {
  constructor(private readonly skills: Pick<SessionSkills, 'forModel'>) {}

  has(name: string): boolean {
    return name === SKILL_TOOL_NAME;
  }

  async run(_name: string, input: unknown): Promise<ExternalToolOutcome> {
    const name = typeof input === 'object' && input !== null ? (input as { name?: unknown }).name : undefined;
    const outcome = await this.skills.forModel(name);
    return { text: outcome.text, isError: outcome.isError, sameResultDedupe: !outcome.isError };
  }
}
