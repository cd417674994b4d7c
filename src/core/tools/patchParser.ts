/**
 * The `*** Begin Patch` envelope (the format codex and others teach models):
 *
 *   *** Begin Patch
 *   *** Add File: path        then `+` lines: the new file's content
 *   *** Delete File: path
 *   *** Update File: path     optionally `*** Move to: path`, then hunks:
 *   @@ optional line to find first
 *    context / -removed / +added lines, `*** End of File` to pin a hunk to the end
 *   *** End Patch
 *
 * The parser only reads the text; `applyPatch` decides whether it fits the files. A path holding a
 * control, line-separator, bidi or zero-width character is refused here (see visibleText.ts).
 */
import { hiddenCharProblem } from '../text/visibleText';

export interface PatchChunk {
  /** Text after `@@`: a line to find before the hunk's own lines. */
  readonly header?: string;
  readonly oldLines: readonly string[];
  readonly newLines: readonly string[];
  /** `*** End of File` followed the hunk: it must match at the end of the file. */
  readonly atEnd: boolean;
}

export type PatchOperation =
  | { readonly type: 'add'; readonly path: string; readonly lines: readonly string[] }
  | { readonly type: 'delete'; readonly path: string }
  | { readonly type: 'update'; readonly path: string; readonly moveTo?: string; readonly chunks: readonly PatchChunk[] };

export class PatchParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PatchParseError';
  }
}

const BEGIN = '*** Begin Patch';
const END = '*** End Patch';
const ADD = '*** Add File: ';
const DELETE = '*** Delete File: ';
const UPDATE = '*** Update File: ';
const MOVE = '*** Move to: ';
const END_OF_FILE = '*** End of File';

function isFileHeader(line: string): boolean {
  return line.startsWith(ADD) || line.startsWith(DELETE) || line.startsWith(UPDATE) || line.trim() === END;
}

function pathAfter(line: string, prefix: string, lineNo: number): string {
  // Checked before trimming: trim() would quietly drop a leading `\r` or U+2028 that a summary reading
  // the text another way would not.
  const hidden = hiddenCharProblem(line.slice(prefix.length));
  if (hidden) throw new PatchParseError(`Line ${lineNo}: ${hidden}`);
  const path = line.slice(prefix.length).trim();
  if (!path) throw new PatchParseError(`Line ${lineNo}: "${prefix.trim()}" needs a path after it.`);
  return path;
}

/**
 * The patch's lines: split on `\n` only (`\r\n` is one ending). The one splitter for the patch text, so
 * what the approval prompt lists and what is applied are read the same way.
 */
function patchLines(text: string): string[] {
  return text.replace(/\r\n/g, '\n').split('\n');
}

export function parsePatch(text: string): PatchOperation[] {
  const lines = patchLines(text);
  while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
  let start = 0;
  while (start < lines.length && lines[start]!.trim() === '') start++;
  if (lines[start]?.trim() !== BEGIN) {
    throw new PatchParseError(`The patch must start with "${BEGIN}". Wrap the changes in "${BEGIN}" ... "${END}".`);
  }
  if (lines.length - 1 <= start || lines[lines.length - 1]!.trim() !== END) {
    throw new PatchParseError(`The patch must end with "${END}".`);
  }
  const body = lines.slice(start + 1, lines.length - 1);
  const ops: PatchOperation[] = [];
  let i = 0;
  const lineNo = (index: number) => start + 2 + index;
  while (i < body.length) {
    const line = body[i]!;
    if (line.startsWith(ADD)) {
      const path = pathAfter(line, ADD, lineNo(i));
      const content: string[] = [];
      i++;
      while (i < body.length && !isFileHeader(body[i]!)) {
        const l = body[i]!;
        if (!l.startsWith('+')) {
          throw new PatchParseError(`Line ${lineNo(i)}: every line of an added file must start with "+" (in ${path}).`);
        }
        content.push(l.slice(1));
        i++;
      }
      ops.push({ type: 'add', path, lines: content });
    } else if (line.startsWith(DELETE)) {
      ops.push({ type: 'delete', path: pathAfter(line, DELETE, lineNo(i)) });
      i++;
    } else if (line.startsWith(UPDATE)) {
      const path = pathAfter(line, UPDATE, lineNo(i));
      i++;
      let moveTo: string | undefined;
      if (i < body.length && body[i]!.startsWith(MOVE)) {
        moveTo = pathAfter(body[i]!, MOVE, lineNo(i));
        i++;
      }
      const chunks: PatchChunk[] = [];
      while (i < body.length && !isFileHeader(body[i]!)) {
        const first = body[i]!;
        let header: string | undefined;
        if (first.startsWith('@@')) {
          const rest = first.slice(2).trim();
          header = rest === '' ? undefined : rest;
          i++;
        } else if (chunks.length > 0) {
          throw new PatchParseError(`Line ${lineNo(i)}: expected "@@" to start the next hunk of ${path}, found "${first}".`);
        }
        const oldLines: string[] = [];
        const newLines: string[] = [];
        let atEnd = false;
        while (i < body.length && !isFileHeader(body[i]!) && !body[i]!.startsWith('@@')) {
          const l = body[i]!;
          if (l.trim() === END_OF_FILE) {
            atEnd = true;
            i++;
            break;
          }
          const mark = l[0];
          if (l === '') {
            // Editors strip the lone space of an empty context line; read it as one.
            oldLines.push('');
            newLines.push('');
          } else if (mark === ' ') {
            oldLines.push(l.slice(1));
            newLines.push(l.slice(1));
          } else if (mark === '-') {
            oldLines.push(l.slice(1));
          } else if (mark === '+') {
            newLines.push(l.slice(1));
          } else {
            throw new PatchParseError(`Line ${lineNo(i)}: a hunk line must start with " ", "-" or "+", found "${l}" (in ${path}).`);
          }
          i++;
        }
        if (oldLines.length === 0 && newLines.length === 0) {
          throw new PatchParseError(`Line ${lineNo(i)}: a hunk of ${path} has no lines.`);
        }
        chunks.push(header === undefined ? { oldLines, newLines, atEnd } : { header, oldLines, newLines, atEnd });
      }
      if (chunks.length === 0 && moveTo === undefined) {
        throw new PatchParseError(`"${UPDATE}${path}" has no hunks. Add @@ hunks, or leave the file out of the patch.`);
      }
      ops.push(moveTo === undefined ? { type: 'update', path, chunks } : { type: 'update', path, moveTo, chunks });
    } else if (line.trim() === '') {
      i++;
    } else {
      throw new PatchParseError(`Line ${lineNo(i)}: expected "${ADD}", "${DELETE}" or "${UPDATE}", found "${line}".`);
    }
  }
  if (ops.length === 0) throw new PatchParseError('The patch changes no file.');
  return ops;
}
