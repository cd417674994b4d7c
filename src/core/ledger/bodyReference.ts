import { storedText } from '../text/lines';
import type { BodyReference } from './types';

/**
 * A stored body kept as a window of an earlier result (spec: a stub is stored as the text it stands
 * for). Storing the reference instead of a copy makes an unchanged re-read cost no more than its
 * bookkeeping; every store resolves it the same way, here.
 */

/** The text a reference stands for, given the lines of the result it names (as `readLines` sees them). */
export function referencedText(targetLines: readonly string[], ref: BodyReference): string {
  return storedText(targetLines.slice(Math.max(0, ref.from - 1), Math.max(0, ref.to)));
}

/** A reference to a window of `lines` (lines `from`..`to` of result `id`); `chars` is its stored text's length. */
export function referenceTo(id: string, from: number, lines: readonly string[]): BodyReference {
  let chars = lines.length > 0 ? lines.length - 1 : 0;
  for (const line of lines) chars += line.length;
  if (lines.length > 0 && lines[lines.length - 1] === '') chars += 1;
  return { id, from, to: from - 1 + lines.length, chars };
}

/** Why a value is not a usable reference, or undefined when it is. */
export function referenceProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return 'the body reference is not an object';
  const ref = value as Partial<Record<keyof BodyReference, unknown>>;
  if (typeof ref.id !== 'string' || !/^#[0-9a-f]+$/.test(ref.id)) return 'the body reference names no result id';
  const whole = (n: unknown): boolean => Number.isSafeInteger(n) && (n as number) >= 0;
  if (!whole(ref.from) || !whole(ref.to) || !whole(ref.chars)) return 'the body reference has no valid line range or length';
  return undefined;
}

/** A reference naming a result the store does not hold before it: it could never be resolved. */
export class DanglingReferenceError extends Error {
  override readonly name = 'DanglingReferenceError';
  constructor(id: string, target: string) {
    super(`Result ${id} refers to ${target}, which is not stored before it; a stub or recall can only name an earlier stored result.`);
  }
}
