import { utf8Bytes } from '../text/utf8Bytes';
import { ComposeError } from './errors';

/** Byte budgets of the sources that have one. Rules files and the preamble are never cut. */
export interface SourceBudgets {
  /** Workspace folders, git branch and status, shallow file tree. */
  projectContext: number;
}

export const DEFAULT_SOURCE_BUDGETS: Readonly<SourceBudgets> = Object.freeze({ projectContext: 8000 });

/** Applies overrides over the defaults; a negative or non-integer budget is a `ComposeError`. */
export function resolveBudgets(overrides: Partial<SourceBudgets> = {}): SourceBudgets {
  const out: SourceBudgets = { ...DEFAULT_SOURCE_BUDGETS };
  for (const [name, value] of Object.entries(overrides)) {
    if (!(name in DEFAULT_SOURCE_BUDGETS)) {
      throw new ComposeError(`Unknown context budget "${name}". Budgets exist for: ${Object.keys(DEFAULT_SOURCE_BUDGETS).join(', ')}.`);
    }
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new ComposeError(
        `The context budget "${name}" must be a whole number of bytes, 0 or more; got ${JSON.stringify(value)}. ` +
          'Set it to 0 to leave the source out, or remove the setting to use the default.',
      );
    }
    out[name as keyof SourceBudgets] = value;
  }
  return out;
}

export interface BudgetedText {
  /** What goes into the request ('' when nothing fits). */
  text: string;
  /** UTF-8 bytes of `text`. */
  bytes: number;
  /** UTF-8 bytes of the full variant, before any cut. */
  fullBytes: number;
  /** Which variant was used. */
  variant: 'full' | 'compact';
  /** The text was cut to fit (the cut text ends with a marker saying so). */
  truncated: boolean;
}

/**
 * Fits a source into its budget (seed 004's packs): the full text when it fits, else the compact
 * variant when there is one and it fits, else the smaller of the two cut at the budget on a UTF-8
 * boundary (at a line end when one is near) and ending with a marker that says it was cut.
 */
export function fitToBudget(full: string, compact: string | undefined, budgetBytes: number, label: string): BudgetedText {
  const fullBytes = utf8Bytes(full);
  if (fullBytes <= budgetBytes) return { text: full, bytes: fullBytes, fullBytes, variant: 'full', truncated: false };
  if (compact !== undefined) {
    const compactBytes = utf8Bytes(compact);
    if (compactBytes <= budgetBytes) {
      return { text: compact, bytes: compactBytes, fullBytes, variant: 'compact', truncated: false };
    }
  }
  const variant = compact !== undefined ? 'compact' : 'full';
  const source = compact ?? full;
  const marker = `\n[truncated: ${label} exceeded its ${budgetBytes}-byte budget]`;
  const markerBytes = utf8Bytes(marker);
  if (markerBytes > budgetBytes) return { text: '', bytes: 0, fullBytes, variant, truncated: true };
  const text = cutAtBytes(source, budgetBytes - markerBytes) + marker;
  return { text, bytes: utf8Bytes(text), fullBytes, variant, truncated: true };
}

/** The longest prefix of `text` within `maxBytes` UTF-8 bytes, ending at a line end if one is in its last half. */
export function cutAtBytes(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    const size = utf8Bytes(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  const prefix = text.slice(0, end);
  const lineEnd = prefix.lastIndexOf('\n');
  return lineEnd >= prefix.length / 2 ? prefix.slice(0, lineEnd) : prefix;
}
