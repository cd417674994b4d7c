import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { SkillDiscovery, SkillSource } from '../ports';
import { parseSkillFile, type SkillInfo, type SkillProblem, type SkillScope } from '../skill';

/** The folders skills are looked for in, under a workspace folder and under the user's home, in this order. */
export const SKILL_FOLDERS = ['.cairn/skills', '.agents/skills', '.claude/skills'] as const;

export interface FileSkillSourceOptions {
  readonly homeDir: string;
  /** The workspace folders. */
  readonly roots: readonly string[];
  /** Asked at each discovery: workspace skills are untrusted input and load only in a trusted workspace. */
  readonly trusted: () => boolean;
}

interface Located {
  readonly path: string;
  readonly where: { folderName: string; file: string; folder: string; scope: SkillScope };
}

/**
 * Skills on disk: `<folder>/<name>/SKILL.md` under each workspace folder's `.cairn/skills`,
 * `.agents/skills`, `.claude/skills`, then the user's `~/.cairn/skills`, `~/.agents/skills`,
 * `~/.claude/skills`. The first found of a name wins, so the workspace wins a clash; an invalid skill is
 * a problem (name, file, what is wrong) and is skipped.
 */
export class FileSkillSource implements SkillSource {
  constructor(private readonly options: FileSkillSourceOptions) {}

  async discover(): Promise<SkillDiscovery> {
    const found = new Map<string, SkillInfo>();
    const problems: SkillProblem[] = [];
    for (const located of await this.locate()) {
      const text = await readText(located.path);
      if (text === undefined) continue;
      const parsed = parseSkillFile(text, located.where);
      if (!parsed.ok) problems.push(parsed.problem);
      else if (!found.has(parsed.skill.name)) found.set(parsed.skill.name, parsed.skill);
    }
    const skills = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { skills, problems };
  }

  async readBody(name: string): Promise<{ skill: SkillInfo; body: string } | undefined> {
    for (const located of await this.locate()) {
      if (located.where.folderName !== name) continue;
      const text = await readText(located.path);
      if (text === undefined) continue;
      const parsed = parseSkillFile(text, located.where);
      if (parsed.ok) return { skill: parsed.skill, body: parsed.body };
    }
    return undefined;
  }

  private async locate(): Promise<Located[]> {
    const out: Located[] = [];
    if (this.options.trusted()) {
      const many = this.options.roots.length > 1;
      for (const root of this.options.roots) {
        for (const folder of SKILL_FOLDERS) {
          const display = many ? `${basename(root)}/${folder}` : folder;
          out.push(...(await skillsIn(join(root, folder), display, 'workspace')));
        }
      }
    }
    for (const folder of SKILL_FOLDERS) out.push(...(await skillsIn(join(this.options.homeDir, folder), `~/${folder}`, 'user')));
    return out;
  }
}

async function skillsIn(dir: string, display: string, scope: SkillScope): Promise<Located[]> {
  let names: string[];
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort().map((folderName) => ({
    path: join(dir, folderName, 'SKILL.md'),
    where: { folderName, file: `${display}/${folderName}/SKILL.md`, folder: `${display}/${folderName}`, scope },
  }));
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    // A folder without SKILL.md is not a skill; an unreadable one is left for the next discovery.
    return undefined;
  }
}
