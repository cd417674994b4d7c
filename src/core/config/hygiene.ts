/**
 * Every number of the context-hygiene rules, under the names spec 3.0.0 gives them.
 * Conformance files and settings override these by the same dotted names, so the names are a contract.
 */
/** How a command's output over the cap is cut (`cap.command_output`). */
export type CommandOutputShape = 'head-tail' | 'failures';

/** How an edit answers (`edit.answer`): the spec's diff, or where it landed without the model's own lines. */
export type EditAnswerShape = 'diff' | 'lean';

export interface HygieneConfig {
  /** Minimum hex digits in a result id (`#a3f2`). */
  'ids.digits': number;
  /** Hex digits of the SHA-256 shown in a bracket. */
  sha_digits: number;
  'cap.max_lines': number;
  'cap.max_chars': number;
  'cap.head_lines': number;
  'cap.head_chars': number;
  'cap.tail_lines': number;
  'cap.tail_chars': number;
  /**
   * How a command's output over the cap is cut: `head-tail` (spec 3.0.0, the default) or `failures` (what
   * the runner or compiler reports, failures, errors, warnings and the summary, over the rest, never longer
   * than the head-and-tail cut; `ledger/outputShape/`). Not a spec name: the spec leaves output's shape to
   * the cap, so this is Cairn's own, off by default (issue 16 §3).
   */
  'cap.command_output': CommandOutputShape;
  /**
   * How `edit`, `multiedit` and `write` over a file answer: `diff` (spec 3.0.0 §5, the default) or `lean` (the
   * hunk headers and any line the tool changed beyond the model's own text; the context and the model's own
   * lines left out, the whole diff stored and recallable; `ledger/leanEditAnswer.ts`). Not a spec name.
   */
  'edit.answer': EditAnswerShape;
  /** Lines a read shows by default. */
  'read.window': number;
  /** Lines a recall shows by default, and at most (the spec: "up to 2000 lines from offset"). */
  'recall.window': number;
  /**
   * Characters one recall shows at most (its lines joined). Not a spec name: the spec bounds a recall by
   * lines only, so a 60 MB line was one 60 MB answer (issue 28). The window stops before the line that
   * would pass it, and a single longer line is cut; the answer says what is left.
   */
  'recall.max_chars': number;
  /** Longest line a read shows before cutting it with ` […cut]`. */
  'read.max_line_chars': number;
  /** Tools whose same call with the same result is answered "Same result as". */
  'dedupe.by_result': readonly string[];
  /** Most rows in the files table after a compaction. */
  'compaction.rows': number;
}

export const DEFAULT_HYGIENE: Readonly<HygieneConfig> = Object.freeze({
  'ids.digits': 4,
  sha_digits: 8,
  'cap.max_lines': 400,
  'cap.max_chars': 40_000,
  'cap.head_lines': 200,
  'cap.head_chars': 20_000,
  'cap.tail_lines': 100,
  'cap.tail_chars': 10_000,
  'cap.command_output': 'head-tail',
  'edit.answer': 'diff',
  'read.window': 2000,
  'recall.window': 2000,
  'recall.max_chars': 100_000,
  'read.max_line_chars': 2000,
  'dedupe.by_result': Object.freeze(['list', 'glob', 'grep', 'search']),
  'compaction.rows': 50,
});

export type HygieneOverrides = Partial<Record<keyof HygieneConfig, unknown>>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** Applies dotted-name overrides, rejecting unknown names and values of the wrong kind with a message that says which. */
export function resolveHygiene(...layers: Array<HygieneOverrides | undefined>): HygieneConfig {
  const out: Record<string, unknown> = { ...DEFAULT_HYGIENE };
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) {
      if (!(key in DEFAULT_HYGIENE)) {
        throw new ConfigError(`Unknown hygiene setting "${key}". Known settings: ${Object.keys(DEFAULT_HYGIENE).join(', ')}.`);
      }
      const expected = DEFAULT_HYGIENE[key as keyof HygieneConfig];
      if (key === 'cap.command_output') {
        if (value !== 'head-tail' && value !== 'failures') {
          throw new ConfigError(`Hygiene setting "${key}" must be "head-tail" or "failures", got ${JSON.stringify(value)}.`);
        }
      } else if (key === 'edit.answer') {
        if (value !== 'diff' && value !== 'lean') {
          throw new ConfigError(`Hygiene setting "${key}" must be "diff" or "lean", got ${JSON.stringify(value)}.`);
        }
      } else if (Array.isArray(expected)) {
        if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) {
          throw new ConfigError(`Hygiene setting "${key}" must be a list of tool names, got ${JSON.stringify(value)}.`);
        }
      } else if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
        throw new ConfigError(`Hygiene setting "${key}" must be a whole number of at least 1, got ${JSON.stringify(value)}.`);
      }
      out[key] = value;
    }
  }
  return out as unknown as HygieneConfig;
}
