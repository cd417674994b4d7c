import { diffHunks } from '../text/diffs';
import { dominantEol, splitLines } from '../text/lines';
import { sha256Hex } from '../text/sha';
import type { Workspace } from '../ports';
import type { EditArgs, EditSpec, MultiEditArgs, WriteArgs } from './args';
import { describeError, readTextFile } from './fileText';
import { errorOutcome, type FileChange, type ToolOutcome } from './outcome';

/** Told to the model after every failed edit, so it knows the file is as it was. */
const NOTHING_CHANGED = 'Nothing was changed.';

export interface EditDeps {
  readonly workspace: Workspace;
  /** Told about every path this session writes or deletes (the hash cache forgets it). */
  readonly onWritten: (relative: string) => void;
}

export async function runWrite(args: WriteArgs, deps: EditDeps): Promise<ToolOutcome> {
  try {
    const before = await readTextFile(deps.workspace, args.path);
    const relative = (await deps.workspace.resolve(args.path)).relative;
    const sha = sha256Hex(args.content);
    if (before.exists && !before.binary && before.text === args.content) {
      return { type: 'files', changes: [{ displayPath: args.path, relative, kind: 'unchanged', sha }] };
    }
    await deps.workspace.writeFile(relative, args.content);
    deps.onWritten(relative);
    if (!before.exists) {
      return {
        type: 'files',
        changes: [{ displayPath: args.path, relative, kind: 'created', sha, lineCount: splitLines(args.content).length }],
      };
    }
    const hunks = diffHunks(before.binary ? '' : before.text, args.content);
    return { type: 'files', changes: [{ displayPath: args.path, relative, kind: 'updated', sha, hunks }] };
  } catch (error) {
    return errorOutcome(`${describeError(error, args.path)} ${NOTHING_CHANGED}`);
  }
}

export type ReplaceResult = { ok: true; text: string } | { ok: false; message: string };

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/**
 * One replacement on in-memory text. When the file uses `\r\n` and the model wrote `\n` (it sees
 * lines, not endings), the strings are matched and written with the file's ending instead.
 */
export function replaceOnce(text: string, edit: EditSpec, path: string): ReplaceResult {
  if (edit.old_string === '') {
    return { ok: false, message: `old_string is empty. To create ${path} or replace all of it, use write.` };
  }
  let oldString = edit.old_string;
  let newString = edit.new_string;
  let count = countOccurrences(text, oldString);
  if (count === 0 && dominantEol(text) === '\r\n' && !oldString.includes('\r\n') && oldString.includes('\n')) {
    oldString = oldString.replace(/\n/g, '\r\n');
    newString = newString.replace(/\r?\n/g, '\r\n');
    count = countOccurrences(text, oldString);
  }
  if (count === 0) {
    // A common slip: copying a read's `N: ` line prefixes into old_string.
    const numbered = edit.old_string
      .split('\n')
      .filter((l) => l !== '')
      .every((l) => /^\s*\d+: /.test(l));
    const hint = numbered
      ? ' Leave out the "N: " line numbers a read shows; they are not part of the file.'
      : ' Read the file again and copy the text exactly, whitespace and indentation included.';
    return { ok: false, message: `old_string was not found in ${path}.${hint}` };
  }
  if (count > 1 && !edit.replace_all) {
    return {
      ok: false,
      message: `old_string occurs ${count} times in ${path}. Include more surrounding lines so it occurs once, or set replace_all to true to replace every occurrence.`,
    };
  }
  // split/join rather than String.replace: `$&` and friends in new_string must stay literal.
  return { ok: true, text: edit.replace_all ? text.split(oldString).join(newString) : spliceFirst(text, oldString, newString) };
}

function spliceFirst(text: string, oldString: string, newString: string): string {
  const at = text.indexOf(oldString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

async function applyEdits(path: string, edits: readonly EditSpec[], deps: EditDeps, numbered: boolean): Promise<ToolOutcome> {
  try {
    const file = await readTextFile(deps.workspace, path);
    if (!file.exists)
      return errorOutcome(`${path} does not exist. ${NOTHING_CHANGED} Use write to create it, or glob to find the right path.`);
    if (file.binary) return errorOutcome(`${path} is a binary file and cannot be edited as text. ${NOTHING_CHANGED}`);
    if (!file.validUtf8) {
      return errorOutcome(
        `${path} is not valid UTF-8, so an edit would damage the bytes it cannot read. ${NOTHING_CHANGED} Use bash (e.g. sed) for this file, or write its whole content.`,
      );
    }
    let text = file.text;
    for (let i = 0; i < edits.length; i++) {
      const result = replaceOnce(text, edits[i]!, path);
      if (!result.ok) {
        const where = numbered ? `Edit ${i + 1} of ${edits.length}: ` : '';
        return errorOutcome(`${where}${result.message} ${NOTHING_CHANGED}`);
      }
      text = result.text;
    }
    const sha = sha256Hex(text);
    const base = { displayPath: path, relative: file.relative, sha };
    if (text === file.text) return { type: 'files', changes: [{ ...base, kind: 'unchanged' }] };
    await deps.workspace.writeFile(file.relative, text);
    deps.onWritten(file.relative);
    const change: FileChange = { ...base, kind: 'updated', hunks: diffHunks(file.text, text) };
    return { type: 'files', changes: [change] };
  } catch (error) {
    return errorOutcome(`${describeError(error, path)} ${NOTHING_CHANGED}`);
  }
}

export function runEdit(args: EditArgs, deps: EditDeps): Promise<ToolOutcome> {
  return applyEdits(args.path, [args], deps, false);
}

export function runMultiEdit(args: MultiEditArgs, deps: EditDeps): Promise<ToolOutcome> {
  return applyEdits(args.path, args.edits, deps, true);
}
