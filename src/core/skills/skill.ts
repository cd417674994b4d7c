import { parseFrontmatter } from './frontmatter';

/** Where a skill was found: the workspace's folders win over the user's on a name clash. */
export type SkillScope = 'workspace' | 'user';

/** A skill as discovered: its frontmatter and where it lives. The body is read when it is activated. */
export interface SkillInfo {
  /** 1–64 characters, lowercase letters, digits and hyphens; equal to its folder's name. */
  readonly name: string;
  /** 1–1024 characters: what the skill does and when to use it (the catalog shows it). */
  readonly description: string;
  /** `disable-model-invocation: true`: only the user can activate it; the catalog leaves it out. */
  readonly modelInvocable: boolean;
  /** `user-invocable: false`: only the model can activate it (no `/name`, not in the chat's list). */
  readonly userInvocable: boolean;
  readonly scope: SkillScope;
  /** The SKILL.md as shown to people: relative to the workspace, or `~/…` for the user's. */
  readonly file: string;
  /** The folder holding SKILL.md and its bundled files, as shown to people. */
  readonly folder: string;
}

/** A skill that could not be loaded, and why: reported once, then skipped. */
export interface SkillProblem {
  readonly name: string;
  readonly file: string;
  readonly problem: string;
}

export const SKILL_NAME_MAX = 64;
export const SKILL_DESCRIPTION_MAX = 1024;
const NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Whether `name` is a valid skill name (the check the `skill` tool and `/name` use before looking it up). */
export function isSkillName(name: string): boolean {
  return name.length >= 1 && name.length <= SKILL_NAME_MAX && NAME_PATTERN.test(name);
}

/**
 * A SKILL.md's frontmatter checked against the Agent Skills format. `folderName` is the skill's
 * folder; `file` and `folder` are the display paths. The body is returned as read (the caller keeps it
 * only when the skill is activated).
 */
export function parseSkillFile(
  text: string,
  where: { folderName: string; file: string; folder: string; scope: SkillScope },
): { ok: true; skill: SkillInfo; body: string } | { ok: false; problem: SkillProblem } {
  const fail = (problem: string) => ({ ok: false as const, problem: { name: where.folderName, file: where.file, problem } });
  const parsed = parseFrontmatter(text);
  if (!parsed.ok) return fail(parsed.problem);
  const { fields } = parsed;
  const name = fields.get('name');
  if (typeof name !== 'string' || name.length === 0)
    return fail('The frontmatter has no `name` (1–64 lowercase letters, digits, hyphens).');
  if (!isSkillName(name)) {
    return fail(`The name ${JSON.stringify(name.slice(0, 80))} is not 1–64 lowercase letters, digits and single hyphens.`);
  }
  if (name !== where.folderName)
    return fail(`The name \`${name}\` differs from its folder \`${where.folderName}\`; rename one so they match.`);
  const description = fields.get('description');
  if (typeof description !== 'string' || description.trim().length === 0) {
    return fail('The frontmatter has no `description` (1–1024 characters saying what the skill does and when to use it).');
  }
  if (description.length > SKILL_DESCRIPTION_MAX) {
    return fail(`The description is ${description.length} characters; the format allows at most ${SKILL_DESCRIPTION_MAX}.`);
  }
  const flag = (key: string, fallback: boolean): boolean | string => {
    const value = fields.get(key);
    if (value === undefined) return fallback;
    return typeof value === 'boolean' ? value : `\`${key}\` must be true or false, not ${JSON.stringify(value)}.`;
  };
  const disable = flag('disable-model-invocation', false);
  if (typeof disable === 'string') return fail(disable);
  const userInvocable = flag('user-invocable', true);
  if (typeof userInvocable === 'string') return fail(userInvocable);
  return {
    ok: true,
    skill: {
      name,
      description: description.trim(),
      modelInvocable: !disable,
      userInvocable,
      scope: where.scope,
      file: where.file,
      folder: where.folder,
    },
    body: parsed.body,
  };
}
