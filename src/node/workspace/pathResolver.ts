import { promises as fs } from 'node:fs';
import * as nodePath from 'node:path';
import type { ResolvedPath } from '../../core/ports';
import { WorkspacePathError } from './workspaceErrors';

/** Longest single file name most file systems accept (NAME_MAX), in UTF-8 bytes. */
export const MAX_NAME_BYTES = 255;
/** Longest whole path we accept (PATH_MAX on Linux), in UTF-8 bytes. */
export const MAX_PATH_BYTES = 4096;
/** Symlink hops before we call it a loop, as Linux does (MAXSYMLINKS). */
const MAX_SYMLINK_HOPS = 40;

/** A resolved path plus where it really lives once every symlink is followed. */
export interface PhysicalPath extends ResolvedPath {
  /** The real location (symlinks followed, missing tail appended): writes and renames go here. */
  readonly physical: string;
}

/**
 * Decides whether a path given by the model stays inside the workspace root, and where it lives.
 *
 * The checks are lexical first (`..`, absolute paths), then physical: the deepest part of the path
 * that exists is followed through every symlink, so a link to a file or folder outside the root
 * is refused at any depth, and so is a path that does not exist yet below such a link (a write
 * must not create a file outside). A dangling link is followed by reading its target.
 *
 * This is a check, then a use: a process racing us on the same tree could swap a folder for a
 * link in between. Closing that fully needs openat2(RESOLVE_BENEATH), which Node does not offer. Reads
 * close it another way (`NodeWorkspace.readFile`, `confinedOpen.ts`): they open `physical` with
 * O_NOFOLLOW and, on Linux, check where the descriptor really is before using a byte.
 */
export class PathResolver {
  readonly root: string;
  private realRoot: Promise<string> | undefined;

  constructor(root: string) {
    this.root = nodePath.resolve(root);
  }

  async resolve(input: string): Promise<PhysicalPath> {
    if (typeof input !== 'string') {
      throw new WorkspacePathError('empty', String(input), 'A path must be a string relative to the workspace root.');
    }
    if (input.includes('\0')) {
      throw new WorkspacePathError(
        'nul-byte',
        input,
        `Path ${JSON.stringify(input)} contains a NUL byte, which no file name can hold. Remove it and try again.`,
      );
    }
    const path = await this.normaliseSeparators(input);
    checkLength(input, path);

    const lexical = nodePath.resolve(this.root, path);
    const lexicalRelative = nodePath.relative(this.root, lexical);
    if (escapes(lexicalRelative) && !nodePath.isAbsolute(path)) {
      throw new WorkspacePathError(
        'outside-root',
        input,
        `Path "${input}" is outside the workspace root ${this.root}. Use a path relative to the root.`,
      );
    }
    const realRoot = await this.getRealRoot();
    const physical = await physicalPath(lexical, input, 0);

    if (escapes(lexicalRelative)) {
      // An absolute path can still be inside the root under another spelling (the root reached
      // through a symlink such as /tmp -> /private/tmp, or a case-insensitive disk).
      if (nodePath.isAbsolute(path) && isInside(realRoot, physical)) {
        const relative = nodePath.relative(realRoot, physical);
        return { relative: toSlashes(relative), absolute: nodePath.join(this.root, relative), physical };
      }
      throw new WorkspacePathError(
        'absolute-outside-root',
        input,
        `Path "${input}" is outside the workspace root ${this.root}. Use a path relative to the root.`,
      );
    }
    if (!isInside(realRoot, physical)) {
      throw new WorkspacePathError(
        'symlink-outside-root',
        input,
        `Path "${input}" goes through a symbolic link to ${physical}, which is outside the workspace root ${this.root}. ` +
          'Only files whose real location is inside the root can be used.',
      );
    }
    return { relative: toSlashes(lexicalRelative), absolute: lexical, physical };
  }

  /** A physical path from `resolve`, relative to the root's real location, `/`-separated. */
  async realRelative(physical: string): Promise<string> {
    return toSlashes(nodePath.relative(await this.getRealRoot(), physical));
  }

  /** The root with every symlink followed: where every opened file must really be. */
  getRealRoot(): Promise<string> {
    this.realRoot ??= fs.realpath(this.root).catch((error: NodeJS.ErrnoException) => {
      this.realRoot = undefined;
      throw new WorkspacePathError(
        'outside-root',
        '',
        `The workspace root ${this.root} cannot be opened (${error.code ?? error.message}). Open an existing folder.`,
      );
    });
    return this.realRoot;
  }

  /**
   * `\` is a Windows separator but a legal file-name character on POSIX. We read it as a separator
   * unless a file with that literal name exists, which is the only case where the other reading is
   * plausible. Windows absolute forms (`C:\x`, `\\server\share`) are refused on POSIX, not
   * treated as odd relative names.
   */
  private async normaliseSeparators(input: string): Promise<string> {
    if (nodePath.sep === '\\') return input;
    if (/^[A-Za-z]:[\\/]/.test(input) || input.startsWith('\\\\')) {
      throw new WorkspacePathError(
        'windows-absolute',
        input,
        `Path "${input}" is a Windows absolute path, but the workspace root ${this.root} is on a POSIX file system. ` +
          'Use a path relative to the root.',
      );
    }
    if (!input.includes('\\')) return input;
    const literal = nodePath.resolve(this.root, input);
    const literalExists = await fs.lstat(literal).then(
      () => true,
      () => false,
    );
    return literalExists && !escapes(nodePath.relative(this.root, literal)) ? input : input.replace(/\\/g, '/');
  }
}

function checkLength(input: string, path: string): void {
  if (Buffer.byteLength(path, 'utf8') > MAX_PATH_BYTES) {
    throw new WorkspacePathError(
      'too-long',
      input,
      `Path "${input.slice(0, 80)}…" is ${Buffer.byteLength(path, 'utf8')} bytes long; paths are limited to ${MAX_PATH_BYTES} bytes. Use a shorter path.`,
    );
  }
  for (const name of path.split(/[\\/]/)) {
    const bytes = Buffer.byteLength(name, 'utf8');
    if (bytes > MAX_NAME_BYTES) {
      throw new WorkspacePathError(
        'too-long',
        input,
        `The name "${name.slice(0, 40)}…" in path "${input.slice(0, 80)}" is ${bytes} bytes long; ` +
          `file and folder names are limited to ${MAX_NAME_BYTES} bytes. Use a shorter name.`,
      );
    }
  }
}

/**
 * The real location of `absolute`: symlinks followed where the path exists, the missing tail
 * appended to the deepest existing ancestor, dangling links followed through their target.
 */
async function physicalPath(absolute: string, input: string, hops: number): Promise<string> {
  try {
    return await fs.realpath(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw loopError(input);
    // ENOENT: not there yet. ENOTDIR: a file in the middle (the operation will say so).
    // EACCES: cannot look further; the operation itself will fail with the same error.
    if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EACCES') throw error;
  }
  const parent = nodePath.dirname(absolute);
  if (parent === absolute) return absolute;
  const realParent = await physicalPath(parent, input, hops);
  const candidate = nodePath.join(realParent, nodePath.basename(absolute));
  const stat = await fs.lstat(candidate).catch(() => undefined);
  if (!stat?.isSymbolicLink()) return candidate;
  if (hops >= MAX_SYMLINK_HOPS) throw loopError(input);
  // A link whose target is missing: where a write through it would land.
  const target = await fs.readlink(candidate);
  return physicalPath(nodePath.resolve(realParent, target), input, hops + 1);
}

function loopError(input: string): WorkspacePathError {
  return new WorkspacePathError(
    'symlink-loop',
    input,
    `Path "${input}" goes through a loop of symbolic links. Use a path that does not pass through that link.`,
  );
}

function escapes(relative: string): boolean {
  return relative === '..' || relative.startsWith(`..${nodePath.sep}`) || nodePath.isAbsolute(relative);
}

export function isInside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  const prefix = root.endsWith(nodePath.sep) ? root : root + nodePath.sep;
  return candidate.startsWith(prefix);
}

function toSlashes(relative: string): string {
  return nodePath.sep === '/' ? relative : relative.split(nodePath.sep).join('/');
}
