import type { Pack } from '../compose/packs';
import type { SkillInfo } from './skill';

/** The catalog's share of the model's window by default (issue 18: 1%). */
export const CATALOG_WINDOW_SHARE = 0.01;

const INTRO =
  'Skills available in this session. Call the `skill` tool with a name to load its instructions when a task matches its description; ' +
  'the user may also activate skills, which then arrive in <cairn-skill> envelopes at the start of their message.';

/**
 * The catalog as a pack: the model-invocable skills sorted by name, each with its description (full),
 * or the names alone (compact, when the descriptions would take more than the budget). Empty when no
 * skill is model-invocable (the pack is then skipped and the static part has no catalog block).
 */
export function catalogPack(skills: readonly SkillInfo[]): Pack {
  const listed = skills.filter((s) => s.modelInvocable).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (listed.length === 0) return { label: 'skills catalog', priority: 'medium', full: '', compact: '' };
  const full = `# Skills\n\n${INTRO}\n\n${listed.map((s) => `- ${s.name}: ${oneLine(s.description)}`).join('\n')}`;
  const compact = `# Skills\n\n${INTRO} (Names only, to save context; the tool's result says what each does.)\n\n${listed.map((s) => s.name).join(', ')}`;
  return { label: 'skills catalog', priority: 'medium', full, compact };
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The catalog's budget in tokens for a window: 1% of it, at least enough for a handful of names. */
export function catalogBudgetTokens(windowTokens: number): number {
  return Math.max(64, Math.floor(windowTokens * CATALOG_WINDOW_SHARE));
}
