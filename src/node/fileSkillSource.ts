import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { SkillDiscovery, SkillSource } from '../core/skills/ports';
import { parseSkillFile, type SkillInfo, type SkillProblem, type SkillScope } from '../core/skills/skill';
import { sourceFolders, type MarkdownSourceOptions } from './markdownSourceFolders';
import { readConfined } from './workspace/confinedRead';
import { PathResolver } from './workspace/pathResolver';
import { WorkspaceFileError, WorkspacePathError } from './workspace/workspaceErrors';

/** The folders skills are looked for in, under a workspace folder and under the user's home, in this order. */
export const SKILL_FOLDERS = ['.cairn/skills', '.agents/skills', '.claude/skills'] as const;

/**
 * Most bytes of a SKILL.md read. The model is given at most 106,496 bytes of a body (`SKILL_CAP_BYTES`,
 * with a notice when cut); a file ten times that is a mistake or an attack (a link to /dev/zero read half
 * a gigabyte per discovery), and is a problem instead of a skill.
 */
export const SKILL_FILE_MAX_BYTES = 1024 * 1024;

/** Workspace skills are untrusted input and load only in a trusted workspace. */
export type FileSkillSourceOptions = MarkdownSourceOptions;

interface Located {
  /** The read tool's rules over the folder this skill must stay in (see `FileSkillSource`). */
  readonly confinement: PathResolver;
  /** SKILL.md's path relative to that folder. */
  readonly path: string;
  readonly where: { folderName: string; file: string; folder: string; scope: SkillScope };
}

type SkillText = { readonly text: string } | { readonly problem: SkillProblem } | 'missing';

/**
 * Skills on disk: `<folder>/<name>/SKILL.md` under each workspace folder's `.cairn/skills`,
 * `.agents/skills`, `.claude/skills`, then the user's `~/.cairn/skills`, `~/.agents/skills`,
 * `~/.claude/skills`. The first found of a name wins, so the workspace wins a clash; an invalid skill is
 * a problem (name, file, what is wrong) and is skipped.
 *
 * A SKILL.md is read under the read tool's rules (`readConfined`), so it can neither hang discovery (a
 * FIFO, a link to /dev/stdin: only regular files are read, and nothing is opened in a way that blocks)
 * nor carry a file the read tool would refuse into the model's context:
 * - a workspace skill's SKILL.md must really be inside its workspace folder, as any file `read` reads
 *   (links inside it are followed; a link out of it, at any depth, makes the skill a problem);
 * - a user skill's SKILL.md must really be inside that skill's own folder. The folder itself may be a
 *   link (installing a skill by linking it from a clone or a dotfiles folder is the user's choice), but
 *   what is in it is someone else's text, perhaps a cloned repository's: a SKILL.md linked out of it (to
 *   `~/.ssh/…`, to another skill, to /dev/zero) is refused.
 * At most `SKILL_FILE_MAX_BYTES` are read. Time is bounded by these: nothing that can block is opened or
 * read, and a file is read only to that size (no timer: a file system that stops answering stops every
 * file operation of the process, which a timer here could not cure).
 */
export class FileSkillSource implements SkillSource {
  /** One resolver per workspace folder: it keeps the folder's real location between discoveries. */
  private readonly workspaceResolvers = new Map<string, PathResolver>();

  constructor(private readonly options: FileSkillSourceOptions) {}

  async discover(): Promise<SkillDiscovery> {
    const found = new Map<string, SkillInfo>();
    const problems: SkillProblem[] = [];
    for (const located of await this.locate()) {
      const read = await readSkillText(located);
      if (read === 'missing') continue;
      if ('problem' in read) {
        problems.push(read.problem);
        continue;
      }
      const parsed = parseSkillFile(read.text, located.where);
      if (!parsed.ok) problems.push(parsed.problem);
      else if (!found.has(parsed.skill.name)) found.set(parsed.skill.name, parsed.skill);
    }
    const skills = [...found.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return { skills, problems };
  }

  async readBody(name: string): Promise<{ skill: SkillInfo; body: string } | undefined> {
    for (const located of await this.locate()) {
      if (located.where.folderName !== name) continue;
      const read = await readSkillText(located);
      if (read === 'missing' || 'problem' in read) continue;
      const parsed = parseSkillFile(read.text, located.where);
      if (parsed.ok) return { skill: parsed.skill, body: parsed.body };
    }
    return undefined;
  }

  private async locate(): Promise<Located[]> {
    const out: Located[] = [];
    for (const source of sourceFolders(this.options, { workspace: SKILL_FOLDERS, user: SKILL_FOLDERS })) {
      for (const { folderName, where } of await skillsIn(source.dir, source.display, source.scope)) {
        out.push(
          source.scope === 'workspace'
            ? { confinement: this.workspaceResolver(source.root), path: `${source.folder}/${folderName}/SKILL.md`, where }
            : { confinement: new PathResolver(join(source.dir, folderName)), path: 'SKILL.md', where },
        );
      }
    }
    return out;
  }

  private workspaceResolver(root: string): PathResolver {
    let resolver = this.workspaceResolvers.get(root);
    if (!resolver) {
      resolver = new PathResolver(root);
      this.workspaceResolvers.set(root, resolver);
    }
    return resolver;
  }
}

async function skillsIn(dir: string, display: string, scope: SkillScope): Promise<{ folderName: string; where: Located['where'] }[]> {
  let names: string[];
  try {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    names = entries.filter((e) => e.isDirectory() || e.isSymbolicLink()).map((e) => e.name);
  } catch {
    return [];
  }
  return names.sort().map((folderName) => ({
    folderName,
    where: { folderName, file: `${display}/${folderName}/SKILL.md`, folder: `${display}/${folderName}`, scope },
  }));
}

/** SKILL.md's text, `missing` when the folder has none (not a skill), or why it is not read. */
async function readSkillText(located: Located): Promise<SkillText> {
  const { where } = located;
  try {
    const bytes = await readConfined(located.confinement, located.path, { maxBytes: SKILL_FILE_MAX_BYTES });
    return { text: bytes.toString('utf8') };
  } catch (error) {
    if (error instanceof WorkspaceFileError && (error.code === 'ENOENT' || error.code === 'ENOTDIR')) return 'missing';
    // A path refused before anything was opened is a problem only where a SKILL.md is there to be had: a
    // folder without one is not a skill, wherever its link leads.
    if (error instanceof WorkspacePathError && !(await exists(join(located.confinement.root, located.path)))) return 'missing';
    return { problem: { name: where.folderName, file: where.file, problem: problemOf(error, where.scope) } };
  }
}

/** What is wrong, and what to do, in words for the user (the read tool's messages speak to the model). */
function problemOf(error: unknown, scope: SkillScope): string {
  if (error instanceof WorkspacePathError) {
    if (error.rule === 'symlink-loop') return 'SKILL.md goes through a loop of symbolic links. Replace the link with the file.';
    return scope === 'workspace'
      ? 'SKILL.md leads outside the workspace (through a symbolic link); skills are read only from inside it, as the read tool ' +
          "reads files. Put the file itself in the skill's folder, or install the skill under ~/.cairn/skills."
      : "SKILL.md leads outside the skill's folder (through a symbolic link); a skill's SKILL.md must be a file inside its " +
          'folder. Put the file itself there.';
  }
  if (error instanceof WorkspaceFileError) {
    switch (error.code) {
      case 'EINVAL':
        return 'SKILL.md is not a regular file (a pipe, socket or device), so it is not read. Replace it with a file.';
      case 'EFBIG':
        return `SKILL.md is over 1 MiB (${SKILL_FILE_MAX_BYTES} bytes); the model is given at most 106,496 bytes of a skill. Shorten it, or move detail into files beside it.`;
      case 'EISDIR':
        return 'SKILL.md is a folder. A skill is a folder holding a file named SKILL.md.';
      default:
        return `SKILL.md cannot be read (${error.code}): ${error.message}`;
    }
  }
  return `SKILL.md cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

async function exists(path: string): Promise<boolean> {
  return fs.lstat(path).then(
    () => true,
    () => false,
  );
}
