/**
 * The `recall` tool's answer (spec §4): lines `offset`.. of a stored result, "up to 2000 lines from
 * offset" (`recall.window`; a larger `limit` is held to it) and at most `recall.max_chars` characters
 * (Cairn's own bound: the spec bounds lines only, and one 60 MB line was one 60 MB answer, issue 28).
 * When it shows less than was asked for, a last line says what is left and how to get it; an answer
 * that shows everything asked for is exactly the spec's.
 */
import type { HygieneConfig } from '../config/hygiene';
import type { RecallArgs } from '../tools/args';
import { errorAnswer, type Answer } from './answer';
import { referenceTo } from './bodyReference';
import type { BodyReference, ResultStore, StoredSlice } from './types';

export async function recallAnswer(store: ResultStore, config: HygieneConfig, id: string, args: RecallArgs): Promise<Answer> {
  const bare = args.id.trim().replace(/^#/, '').toLowerCase();
  const target = `#${bare}`;
  const missing = `No stored result ${target} in this session.`;
  if (!/^[0-9a-f]+$/.test(bare) || !store.has(target)) return errorAnswer(id, missing);
  const offset = args.offset ?? 1;
  const window = config['recall.window'];
  const asked = args.limit ?? window;
  const slice = await store.readLines(target, offset, Math.min(asked, window), config['recall.max_chars']);
  if (!slice) return errorAnswer(id, missing);
  const base = { kind: 'recall' as const, isError: false, cappable: false, refersTo: [target] };
  if (slice.total === 0) return { ...base, bracket: `[${id} recall ${target} empty]`, body: [], stored: { lines: [] } };
  if (offset > slice.total) {
    return errorAnswer(
      id,
      `Result ${target} has ${slice.total} line${slice.total === 1 ? '' : 's'}; offset ${offset} is past its end. Use an offset from 1 to ${slice.total}.`,
    );
  }
  // An image result answers with the image again after its lines (the loop sends it after the results).
  const image = offset === 1 ? await store.readImage?.(target) : undefined;
  const cut = slice.firstLineChars !== undefined;
  const lines = cut ? [`${slice.lines[0]} […cut]`] : slice.lines;
  const note = whatIsLeft(target, slice, asked, config);
  return {
    ...base,
    bracket: `[${id} recall ${target} lines ${slice.from}-${slice.to} of ${slice.total}]`,
    body: note === undefined ? lines : [...lines, note],
    // Stored as a reference to the lines it stands for (which may themselves be a reference: a recall of a
    // stub): a recall of this recall shows those lines, within the same bounds.
    stored: { ref: referenceOf(target, slice) },
    ...(image ? { image: { type: 'image' as const, source: image } } : {}),
  };
}

/** The reference to a slice's lines; a cut line stands for the whole line. */
function referenceOf(target: string, slice: StoredSlice): BodyReference {
  if (slice.firstLineChars === undefined) return referenceTo(target, slice.from, slice.lines);
  return { id: target, from: slice.from, to: slice.from, chars: slice.firstLineChars };
}

/** The last line of an answer that shows less than was asked for: what was left out and how to see it. */
function whatIsLeft(target: string, slice: StoredSlice, asked: number, config: HygieneConfig): string | undefined {
  const maxChars = config['recall.max_chars'];
  const rest = slice.to < slice.total ? ` Recall ${target} with offset ${slice.to + 1} for the rest.` : '';
  if (slice.firstLineChars !== undefined) {
    return (
      `[Line ${slice.from} has ${slice.firstLineChars} characters; only its first ${slice.lines[0]!.length} are shown ` +
      `(one recall shows at most ${maxChars} characters), and recall shows no more of one line: if it is a command's output, ` +
      `run the command again with its lines folded (for example through \`fold -w 2000\`).${rest}]`
    );
  }
  if (rest === '' || slice.lines.length >= asked) return undefined;
  return (
    `[Lines ${slice.from}-${slice.to} of ${slice.total} shown (one recall shows at most ${config['recall.window']} lines ` +
    `and ${maxChars} characters); recall ${target} with offset ${slice.to + 1} for the rest.]`
  );
}
