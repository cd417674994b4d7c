import { dominantEol } from '../text/lines';
import type { Workspace } from '../ports';
import type { EditArgs, EditSpec, MultiEditArgs, WriteArgs } from './args';
import { writePlan, type PlanDeps, type PlanOutcome } from './changePlan';
import { describeError, readTextFile } from './fileText';
import { errorOutcome, type ToolOutcome } from './outcome';

/** Told to the model after every failed edit, so it knows the file is as it was. */
const NOTHING_CHANGED = 'Nothing was changed.';

export interface EditDeps {
  readonly workspace: Workspace;
  /** Told about every path this session writes or deletes (the hash cache forgets it). */
  readonly onWritten: (relative: string) => void;
}

/** What a write will do: the file's whole new content. */
export async function planWrite(args: WriteArgs, deps: PlanDeps): Promise<PlanOutcome> {
  try {
    const before = await readTextFile(deps.workspace, args.path);
    const relative = (await deps.workspace.resolve(args.path)).relative;
    const file = {
      relative,
      displayPath: args.path,
      before: before.exists ? before.text : null,
      after: args.content,
      ...(before.exists && before.binary ? { binaryBefore: true } : {}),
    };
    return {
      ok: true,
      plan: { files: [file], changes: [{ relative, displayPath: args.path, kind: before.exists ? 'updated' : 'created' }] },
    };
  } catch (error) {
    return { ok: false, message: `${describeError(error, args.path)} ${NOTHING_CHANGED}` };
  }
}

export async function runWrite(args: WriteArgs, deps: EditDeps): Promise<ToolOutcome> {
  const planned = await planWrite(args, deps);
  return planned.ok ? writePlan(planned.plan, deps) : errorOutcome(planned.message);
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

/** What an edit (or a multiedit's edits, in order) will do to the file, worked out in memory. */
export async function planEdits(path: string, edits: readonly EditSpec[], deps: PlanDeps, numbered: boolean): Promise<PlanOutcome> {
  const refuse = (message: string): PlanOutcome => ({ ok: false, message });
  try {
    const file = await readTextFile(deps.workspace, path);
    if (!file.exists) return refuse(`${path} does not exist. ${NOTHING_CHANGED} Use write to create it, or glob to find the right path.`);
    if (file.binary) return refuse(`${path} is a binary file and cannot be edited as text. ${NOTHING_CHANGED}`);
    if (!file.validUtf8) {
      return refuse(
        `${path} is not valid UTF-8, so an edit would damage the bytes it cannot read. ${NOTHING_CHANGED} Use bash (e.g. sed) for this file, or write its whole content.`,
      );
    }
    let text = file.text;
    for (let i = 0; i < edits.length; i++) {
      const result = replaceOnce(text, edits[i]!, path);
      if (!result.ok) {
        const where = numbered ? `Edit ${i + 1} of ${edits.length}: ` : '';
        return refuse(`${where}${result.message} ${NOTHING_CHANGED}`);
      }
      text = result.text;
    }
    const planned = { relative: file.relative, displayPath: path, before: file.text, after: text };
    return { ok: true, plan: { files: [planned], changes: [{ relative: file.relative, displayPath: path, kind: 'updated' }] } };
  } catch (error) {
    return refuse(`${describeError(error, path)} ${NOTHING_CHANGED}`);
  }
}

async function applyEdits(path: string, edits: readonly EditSpec[], deps: EditDeps, numbered: boolean): Promise<ToolOutcome> {
  const planned = await planEdits(path, edits, deps, numbered);
  return planned.ok ? writePlan(planned.plan, deps) : errorOutcome(planned.message);
}

export function runEdit(args: EditArgs, deps: EditDeps): Promise<ToolOutcome> {
  return applyEdits(args.path, [args], deps, false);
}

export function runMultiEdit(args: MultiEditArgs, deps: EditDeps): Promise<ToolOutcome> {
  return applyEdits(args.path, args.edits, deps, true);
}
