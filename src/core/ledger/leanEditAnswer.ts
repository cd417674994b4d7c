/**
 * `edit.answer: "lean"` (`cairn.editAnswer`): an edit answers with where it landed, not with what the model wrote.
 *
 * Spec 3.0.0 §5 answers `edit`, `multiedit` and `write` over an existing file with the unified diff (three lines
 * of context). Of that diff the model wrote every `-` line (its `old_string`) and every `+` line (its
 * `new_string`) moments ago; what it cannot know is where the change landed (the hunk headers) and any line the
 * tool changed beyond its own text (a line a reviewer revised, a second match). The lean answer keeps the hunk
 * headers, each file's own bracket line and those unexpected lines, and leaves out the context and the model's
 * own lines. The whole diff stays the stored result, so `recall` of the id shows it.
 *
 * Why it is a setting and not the default: it changes a result the spec defines, and the model no longer sees
 * the lines around its change (a model that checks its indentation or a neighbouring line from the diff must
 * recall or read). Measured in bench/RESULTS.md (Session 13); the spec's diff stays the default.
 */

import type { Answer } from './answer';

/** The lines the model itself supplied, as the old and new sides of its change. */
export interface ModelWrittenLines {
  readonly removed: ReadonlySet<string>;
  readonly added: ReadonlySet<string>;
}

/** What the model wrote in an `edit`, `multiedit` or `write` call; undefined for any other tool or input the lean answer leaves alone. */
export function modelWrittenLines(tool: string, input: unknown): ModelWrittenLines | undefined {
  const fields = (input ?? {}) as Record<string, unknown>;
  const pairs: Array<{ old: unknown; new: unknown }> = [];
  if (tool === 'edit') pairs.push({ old: fields['old_string'], new: fields['new_string'] });
  else if (tool === 'multiedit' && Array.isArray(fields['edits'])) {
    for (const edit of fields['edits'] as unknown[]) {
      const one = (edit ?? {}) as Record<string, unknown>;
      pairs.push({ old: one['old_string'], new: one['new_string'] });
    }
  } else if (tool === 'write') pairs.push({ old: '', new: fields['content'] });
  else return undefined;
  const removed = new Set<string>();
  const added = new Set<string>();
  for (const pair of pairs) {
    if (typeof pair.old !== 'string' || typeof pair.new !== 'string') return undefined;
    // A `write` names no old text: its `-` lines are the file's, which the model did not write.
    if (pair.old !== '') for (const line of pair.old.split('\n')) removed.add(line);
    for (const line of pair.new.split('\n')) added.add(line);
  }
  return { removed, added };
}

/** The sentence a lean answer carries after its bracket: how much changed, what was left out, and how to see it. */
export function leanEditSentence(id: string, added: number, removed: number): string {
  return `Applied as you wrote it, +${added} −${removed} lines; where it landed below (context and your own lines left out, recall ${id} shows the diff).`;
}

/** The lines a lean sentence says were added and removed (the chat's tool line reads them); undefined for any other text. */
export function leanEditCounts(line: string): { added: number; removed: number } | undefined {
  const counts = /Applied as you wrote it, \+(\d+) −(\d+) lines; where it landed below/.exec(line);
  return counts ? { added: Number(counts[1]), removed: Number(counts[2]) } : undefined;
}

/**
 * The diff body with the context and the model's own lines left out; undefined when nothing would be left out
 * (the answer is then the spec's diff, unchanged).
 */
export function leanEditBody(body: readonly string[], own: ModelWrittenLines): string[] | undefined {
  const kept: string[] = [];
  let dropped = 0;
  for (const line of body) {
    const mark = line[0];
    const rest = line.slice(1);
    const leaveOut =
      mark === ' ' || line.startsWith('\\ No newline') || (mark === '+' && own.added.has(rest)) || (mark === '-' && own.removed.has(rest));
    if (leaveOut) dropped++;
    else kept.push(line);
  }
  return dropped === 0 ? undefined : kept;
}

/**
 * An edit's diff answer made lean: the bracket keeps its sentence (a move) and gains the lean one; the body
 * keeps the hunk headers and unexpected lines. The stored body is the whole diff, untouched. An answer with
 * nothing to leave out, or a tool the lean answer leaves alone, comes back as it was.
 */
export function leanEditAnswer(answer: Answer, id: string, tool: string, input: unknown): Answer {
  const own = modelWrittenLines(tool, input);
  if (!own || typeof answer.body === 'string') return answer;
  const body = leanEditBody(answer.body, own);
  if (!body) return answer;
  const added = answer.body.filter((line) => line.startsWith('+')).length;
  const removed = answer.body.filter((line) => line.startsWith('-')).length;
  const lean = leanEditSentence(id, added, removed);
  return { ...answer, sentence: answer.sentence === undefined ? lean : `${answer.sentence} ${lean}`, body };
}
