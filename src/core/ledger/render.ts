import type { FileChange } from '../tools/outcome';
import { shortSha } from '../text/sha';

/** A result as the model sees it: the bracket, an optional sentence on the same line, then body lines. */
export interface Rendered {
  readonly bracket: string;
  readonly sentence?: string;
  readonly body: readonly string[];
}

/** `body` as lines, or as one string already joined by `\n` (a command's output; it is at least one line). */
export function resultText(r: { bracket: string; sentence?: string | undefined; body: readonly string[] | string }): string {
  const head = r.sentence === undefined ? r.bracket : `${r.bracket} ${r.sentence}`;
  if (typeof r.body === 'string') return `${head}\n${r.body}`;
  return r.body.length > 0 ? `${head}\n${r.body.join('\n')}` : head;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The sentence and body for one file's change, without the bracket's opening. */
function describeChange(change: FileChange, shaDigits: number): { label: string; sentence?: string; body: readonly string[] } {
  if (change.kind === 'deleted') return { label: `${change.displayPath} deleted`, body: [] };
  const label = `${change.displayPath} sha ${shortSha(change.sha ?? '', shaDigits)}`;
  const moved = change.movedFrom !== undefined ? `Moved from ${change.movedFrom}.` : undefined;
  switch (change.kind) {
    case 'created':
      return { label, sentence: `Created, ${plural(change.lineCount ?? 0, 'line')}.`, body: [] };
    case 'unchanged':
      return { label, sentence: moved ? `${moved} Content unchanged.` : 'No change.', body: [] };
    case 'updated':
      return moved ? { label, sentence: moved, body: change.hunks ?? [] } : { label, body: change.hunks ?? [] };
  }
}

/**
 * Edits answer with their diff (spec §5). One file: its own bracket with the id. Several (a patch):
 * the id alone, then each file in its own bracket, in the patch's order.
 */
export function renderChanges(id: string, changes: readonly FileChange[], shaDigits: number): Rendered {
  if (changes.length === 1) {
    const one = describeChange(changes[0]!, shaDigits);
    return one.sentence === undefined
      ? { bracket: `[${id} ${one.label}]`, body: one.body }
      : { bracket: `[${id} ${one.label}]`, sentence: one.sentence, body: one.body };
  }
  const body: string[] = [];
  for (const change of changes) {
    const one = describeChange(change, shaDigits);
    body.push(one.sentence === undefined ? `[${one.label}]` : `[${one.label}] ${one.sentence}`);
    body.push(...one.body);
  }
  return { bracket: `[${id}]`, body };
}
