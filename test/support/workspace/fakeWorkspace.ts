import picomatch from 'picomatch';
import type { DirEntry, ExecOptions, ExecResult, FileStat, GrepMatch, GrepQuery, ResolvedPath, Workspace } from '../../../src/core/ports';

/** Named like the real one so the tools' error handling is exercised the same way. */
export class FakeWorkspacePathError extends Error {
  override readonly name = 'WorkspacePathError';
}

function enoent(path: string): NodeJS.ErrnoException {
  const error = new Error(`ENOENT: no such file: ${path}`) as NodeJS.ErrnoException;
  error.code = 'ENOENT';
  return error;
}

export type FakeExec = (command: string, options: ExecOptions) => Promise<ExecResult> | ExecResult;

/**
 * An in-memory workspace for unit tests that isolate the tools and the ledger from the disk. Files
 * carry an mtime that moves on every write (a counter, so tests control it); `.gitignore` is not
 * modelled. The conformance suite and the node tests use the real NodeWorkspace instead.
 */
export class FakeWorkspace implements Workspace {
  readonly root = '/fake';
  readonly files = new Map<string, { bytes: Uint8Array; mtimeMs: number }>();
  reads = 0;
  private tick = 1_000_000;

  constructor(
    files: Record<string, string | Uint8Array> = {},
    private readonly onExec?: FakeExec,
  ) {
    for (const [path, content] of Object.entries(files)) this.put(path, content);
  }

  /** Writes a file "from outside the session". */
  put(path: string, content: string | Uint8Array, mtimeMs?: number): void {
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
    this.files.set(path, { bytes, mtimeMs: mtimeMs ?? (this.tick += 1000) });
  }

  text(path: string): string | undefined {
    const file = this.files.get(path);
    return file ? new TextDecoder().decode(file.bytes) : undefined;
  }

  async resolve(path: string): Promise<ResolvedPath> {
    if (path.includes('\0')) throw new FakeWorkspacePathError(`Path contains a NUL byte.`);
    let rel = path;
    if (rel.startsWith('/')) {
      if (rel === this.root || rel.startsWith(`${this.root}/`)) rel = rel.slice(this.root.length + 1);
      else throw new FakeWorkspacePathError(`Path "${path}" is outside the workspace root ${this.root}. Use a path relative to the root.`);
    }
    const out: string[] = [];
    for (const part of rel.split('/')) {
      if (part === '' || part === '.') continue;
      if (part === '..') {
        if (out.length === 0)
          throw new FakeWorkspacePathError(`Path "${path}" is outside the workspace root ${this.root}. Use a path relative to the root.`);
        out.pop();
      } else out.push(part);
    }
    const relative = out.join('/');
    return { relative, absolute: relative ? `${this.root}/${relative}` : this.root };
  }

  private isDir(rel: string): boolean {
    if (rel === '') return true;
    for (const key of this.files.keys()) if (key.startsWith(`${rel}/`)) return true;
    return false;
  }

  async stat(path: string): Promise<FileStat | null> {
    const rel = (await this.resolve(path)).relative;
    const file = this.files.get(rel);
    if (file) return { kind: 'file', size: file.bytes.length, mtimeMs: file.mtimeMs, relative: rel };
    return this.isDir(rel) ? { kind: 'directory', size: 0, mtimeMs: 0, relative: rel } : null;
  }

  async readFile(path: string): Promise<Uint8Array> {
    const rel = (await this.resolve(path)).relative;
    const file = this.files.get(rel);
    if (!file) throw enoent(path);
    this.reads++;
    return file.bytes;
  }

  async writeFile(path: string, content: string | Uint8Array): Promise<void> {
    this.put((await this.resolve(path)).relative, content);
  }

  async deleteFile(path: string): Promise<void> {
    const rel = (await this.resolve(path)).relative;
    if (!this.files.delete(rel)) throw enoent(path);
  }

  async listDir(path: string): Promise<DirEntry[]> {
    const rel = (await this.resolve(path)).relative;
    const prefix = rel === '' ? '' : `${rel}/`;
    const entries = new Map<string, DirEntry['kind']>();
    for (const key of this.files.keys()) {
      if (!key.startsWith(prefix)) continue;
      const rest = key.slice(prefix.length);
      const slash = rest.indexOf('/');
      if (slash === -1) entries.set(rest, 'file');
      else entries.set(rest.slice(0, slash), 'directory');
    }
    return [...entries].map(([name, kind]) => ({ name, kind }));
  }

  async glob(pattern: string, under?: string): Promise<string[]> {
    const base = under ? (await this.resolve(under)).relative : '';
    const isMatch = picomatch(base ? `${base}/${pattern}` : pattern, { dot: true });
    return [...this.files.keys()].filter((k) => isMatch(k)).sort();
  }

  async grep(query: GrepQuery): Promise<GrepMatch[]> {
    const re = new RegExp(query.pattern, query.ignoreCase ? 'i' : '');
    const base = query.path ? (await this.resolve(query.path)).relative : '';
    const globMatch = query.glob ? picomatch(query.glob, { dot: true, matchBase: !query.glob.includes('/') }) : undefined;
    const out: GrepMatch[] = [];
    for (const [path, file] of [...this.files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (base && path !== base && !path.startsWith(`${base}/`)) continue;
      if (globMatch && !globMatch(path)) continue;
      new TextDecoder()
        .decode(file.bytes)
        .split('\n')
        .forEach((text, i) => {
          if (re.test(text)) out.push({ path, line: i + 1, text });
        });
    }
    return out;
  }

  async exec(command: string, options: ExecOptions): Promise<ExecResult> {
    if (!this.onExec) throw new Error('FakeWorkspace has no exec handler');
    return this.onExec(command, options);
  }
}
