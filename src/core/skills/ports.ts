import type { SkillInfo, SkillProblem } from './skill';

/** What discovery found: the usable skills by name (the workspace's winning a clash) and the ones skipped. */
export interface SkillDiscovery {
  /** Sorted by name. */
  readonly skills: readonly SkillInfo[];
  readonly problems: readonly SkillProblem[];
}

/**
 * Port: finds skills on disk and reads a skill's body when it is activated. The Node implementation is
 * `src/node/fileSkillSource.ts`; tests use real folders too. Workspace skills are left out by the
 * implementation when the workspace is not trusted.
 */
export interface SkillSource {
  discover(): Promise<SkillDiscovery>;
  /** The SKILL.md's body (after the frontmatter) as it is now; undefined when the skill is gone or no longer valid. */
  readBody(name: string): Promise<{ readonly skill: SkillInfo; readonly body: string } | undefined>;
}

/** No skills (tests, and sessions that read none). */
export const noSkills: SkillSource = {
  discover: async () => ({ skills: [], problems: [] }),
  readBody: async () => undefined,
};
