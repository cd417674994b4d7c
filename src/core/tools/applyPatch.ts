import { dominantEol, splitLines } from '../text/lines';
import type { ApplyPatchArgs } from './args';
import { writePlan, type PlanDeps, type PlannedChange, type PlanOutcome } from './changePlan';
import type { EditDeps } from './editTools';
import { describeError, FileTooLargeError, readTextFile } from './fileText';
import { errorOutcome, type ToolOutcome } from './outcome';
import { parsePatch, PatchParseError, type PatchChunk, type PatchOperation } from './patchParser';

class PatchApplyError extends Error {}

/** Lines compared exactly first, then ignoring trailing blanks, then ignoring blanks at both ends: models often get indentation whitespace slightly wrong. */
const MATCHERS: Array<(a: string, b: string) => boolean> = [
  (a, b) => a === b,
  (a, b) => a.trimEnd() === b.trimEnd(),
  (a, b) => a.trim() === b.trim(),
];

function findSequence(lines: readonly string[], wanted: readonly string[], from: number, atEnd: boolean): number {
  for (const same of MATCHERS) {
    const fits = (at: number) => wanted.every((w, k) => same(lines[at + k]!, w));
    if (atEnd) {
      const at = lines.length - wanted.length;
      if (at >= from && fits(at)) return at;
    }
    for (let at = from; at + wanted.length <= lines.length; at++) if (fits(at)) return at;
  }
  return -1;
}

function findLine(lines: readonly string[], wanted: string, from: number): number {
  for (const same of MATCHERS) {
    for (let at = from; at < lines.length; at++) if (same(lines[at]!, wanted)) return at;
  }
  return -1;
}

function preview(lines: readonly string[]): string {
  const shown = lines.slice(0, 6).map((l) => `  |${l}`);
  if (lines.length > 6) shown.push(`  … and ${lines.length - 6} more`);
  return shown.join('\n');
}

/** Applies an update's hunks to the text of one file, in order; throws PatchApplyError when one does not fit. */
export function applyChunks(text: string, chunks: readonly PatchChunk[], path: string): string {
  const lines = splitLines(text);
  const eol = dominantEol(text);
  const endsWithNewline = text === '' || text.endsWith('\n');
  let cursor = 0;
  chunks.forEach((chunk, index) => {
    const name = `Hunk ${index + 1} of ${path}`;
    if (chunk.header !== undefined) {
      const at = findLine(lines, chunk.header, cursor);
      if (at === -1) throw new PatchApplyError(`${name}: the @@ line "${chunk.header}" was not found.`);
      cursor = at + 1;
    }
    if (chunk.oldLines.length === 0) {
      const at = chunk.header !== undefined && !chunk.atEnd ? cursor : lines.length;
      lines.splice(at, 0, ...chunk.newLines);
      cursor = at + chunk.newLines.length;
      return;
    }
    const at = findSequence(lines, chunk.oldLines, cursor, chunk.atEnd);
    if (at === -1) {
      throw new PatchApplyError(
        `${name} did not match. These lines were not found${cursor > 0 ? ` after line ${cursor}` : ''}:\n${preview(chunk.oldLines)}`,
      );
    }
    lines.splice(at, chunk.oldLines.length, ...chunk.newLines);
    cursor = at + chunk.newLines.length;
  });
  if (lines.length === 0) return '';
  return lines.join(eol) + (endsWithNewline ? eol : '');
}

interface PatchFile {
  readonly relative: string;
  readonly displayPath: string;
  /** Content before the patch (null: did not exist). */
  readonly before: string | null;
  /** Content after (null: deleted). */
  after: string | null;
}

/**
 * Works the whole patch out in memory (every file read, every hunk fitted) without writing anything: what
 * the approval shows and what `runApplyPatch` writes.
 */
export async function planPatch(args: ApplyPatchArgs, deps: PlanDeps): Promise<PlanOutcome> {
  let ops: PatchOperation[];
  try {
    ops = parsePatch(args.patch);
  } catch (error) {
    const message = error instanceof PatchParseError ? error.message : String(error);
    return { ok: false, message: `The patch could not be read: ${message} Nothing was changed.` };
  }
  const files = new Map<string, PatchFile>();
  const changes: PlannedChange[] = [];
  let current = '';
  try {
    const load = async (path: string): Promise<PatchFile> => {
      current = path;
      const relative = (await deps.workspace.resolve(path)).relative;
      const known = files.get(relative);
      if (known) return known;
      const file = await readTextFile(deps.workspace, relative);
      if (file.exists && file.binary) throw new PatchApplyError(`${path} is a binary file and cannot be patched as text.`);
      if (file.exists && !file.validUtf8)
        throw new PatchApplyError(
          `${path} is not valid UTF-8; patching it would damage the bytes that cannot be read. Use bash for this file.`,
        );
      const planned: PatchFile = {
        relative,
        displayPath: path,
        before: file.exists ? file.text : null,
        after: file.exists ? file.text : null,
      };
      files.set(relative, planned);
      return planned;
    };
    for (const op of ops) {
      const file = await load(op.path);
      if (op.type === 'add') {
        if (file.after !== null) throw new PatchApplyError(`${op.path} already exists. Use "*** Update File:" to change it.`);
        file.after = op.lines.length === 0 ? '' : `${op.lines.join('\n')}\n`;
        changes.push({ displayPath: op.path, relative: file.relative, kind: 'created' });
      } else if (op.type === 'delete') {
        if (file.after === null) throw new PatchApplyError(`${op.path} does not exist, so it cannot be deleted.`);
        file.after = null;
        changes.push({ displayPath: op.path, relative: file.relative, kind: 'deleted' });
      } else {
        if (file.after === null) throw new PatchApplyError(`${op.path} does not exist. Use "*** Add File:" to create it.`);
        const updated = applyChunks(file.after, op.chunks, op.path);
        if (op.moveTo !== undefined) {
          const target = await load(op.moveTo);
          if (target.relative !== file.relative) {
            if (target.after !== null) throw new PatchApplyError(`Cannot move ${op.path} to ${op.moveTo}: ${op.moveTo} already exists.`);
            file.after = null;
          }
          target.after = updated;
          changes.push({
            displayPath: op.moveTo,
            relative: target.relative,
            kind: 'updated',
            movedFrom: { displayPath: op.path, relative: file.relative },
          });
        } else {
          file.after = updated;
          changes.push({ displayPath: op.path, relative: file.relative, kind: 'updated' });
        }
      }
    }
  } catch (error) {
    const message = error instanceof PatchApplyError ? error.message : describeError(error, current);
    // Re-reading cannot help with a file too large to patch; the message already says to use bash.
    const advice = error instanceof FileTooLargeError ? '' : " Read the files again and make each hunk's lines match them exactly.";
    return { ok: false, message: `The patch was not applied: ${message}\nNothing was changed.${advice}` };
  }
  return { ok: true, plan: { files: [...files.values()], changes } };
}

/** Plans the whole patch first, then writes it: all or nothing (a write that fails part-way is put back). */
export async function runApplyPatch(args: ApplyPatchArgs, deps: EditDeps): Promise<ToolOutcome> {
  const planned = await planPatch(args, deps);
  if (!planned.ok) return errorOutcome(planned.message);
  const outcome = await writePlan(planned.plan, deps);
  return outcome.type === 'error' ? errorOutcome(`The patch was not applied: ${outcome.message}`) : outcome;
}
