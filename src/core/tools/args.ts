/**
 * Checks a tool call's input against the tool's arguments and turns it into typed arguments, or into
 * a message that says exactly what was wrong and what the call should look like. Nothing here throws:
 * bad input from the model is a result, not an exception in the loop.
 */
export interface ReadArgs {
  path: string;
  offset?: number;
  limit?: number;
}
export interface WriteArgs {
  path: string;
  content: string;
}
export interface EditSpec {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}
export interface EditArgs extends EditSpec {
  path: string;
}
export interface MultiEditArgs {
  path: string;
  edits: EditSpec[];
}
export interface ApplyPatchArgs {
  patch: string;
}
export interface ListArgs {
  path?: string;
}
export interface GlobArgs {
  pattern: string;
  path?: string;
}
export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
}
export interface BashArgs {
  command: string;
  timeout_ms?: number;
}
export interface RecallArgs {
  id: string;
  offset?: number;
  limit?: number;
}

export interface ToolArgs {
  read: ReadArgs;
  write: WriteArgs;
  edit: EditArgs;
  multiedit: MultiEditArgs;
  apply_patch: ApplyPatchArgs;
  list: ListArgs;
  glob: GlobArgs;
  grep: GrepArgs;
  bash: BashArgs;
  recall: RecallArgs;
}

export type ToolName = keyof ToolArgs;

export type ParsedCall = { [K in ToolName]: { tool: K; args: ToolArgs[K] } }[ToolName];

export type ArgsCheck = { ok: true; call: ParsedCall } | { ok: false; message: string };

type Kind = 'string' | 'integer' | 'boolean' | 'edits';

interface Field {
  readonly kind: Kind;
  readonly required: boolean;
  /** Smallest allowed value for integers. */
  readonly min?: number;
}

const s = (required: boolean): Field => ({ kind: 'string', required });
const int = (min: number): Field => ({ kind: 'integer', required: false, min });
const bool: Field = { kind: 'boolean', required: false };

export const TOOL_FIELDS: { readonly [K in ToolName]: Readonly<Record<keyof ToolArgs[K] & string, Field>> } = {
  read: { path: s(true), offset: int(1), limit: int(1) },
  write: { path: s(true), content: s(true) },
  edit: { path: s(true), old_string: s(true), new_string: s(true), replace_all: bool },
  multiedit: { path: s(true), edits: { kind: 'edits', required: true } },
  apply_patch: { patch: s(true) },
  list: { path: s(false) },
  glob: { pattern: s(true), path: s(false) },
  grep: { pattern: s(true), path: s(false), glob: s(false), ignore_case: bool },
  bash: { command: s(true), timeout_ms: int(1) },
  recall: { id: s(true), offset: int(1), limit: int(1) },
};

export const TOOL_NAMES: readonly ToolName[] = (Object.keys(TOOL_FIELDS) as ToolName[]).sort();

export function isToolName(name: string): name is ToolName {
  return Object.prototype.hasOwnProperty.call(TOOL_FIELDS, name);
}

function usage(tool: ToolName): string {
  const fields = TOOL_FIELDS[tool] as Record<string, Field>;
  const parts = Object.entries(fields).map(
    ([name, f]) => `${name}${f.required ? '' : '?'}: ${f.kind === 'edits' ? '[{old_string, new_string, replace_all?}]' : f.kind}`,
  );
  return `${tool} takes {${parts.join(', ')}}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  return typeof value === 'object' ? 'an object' : `${typeof value} ${shortJson(value)}`;
}

/** Echoes what the model sent, but never all of it: a wrong 100 KB argument must not come back as a 100 KB error. */
function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= 120) return text;
  // Never end on half of a surrogate pair: a lone surrogate is not valid text for the API.
  const end = /[\ud800-\udbff]/.test(text.charAt(99)) ? 99 : 100;
  return `${text.slice(0, end)}…" (${text.length} characters)`;
}

function checkField(tool: ToolName, name: string, field: Field, value: unknown): string | undefined {
  switch (field.kind) {
    case 'string':
      return typeof value === 'string' ? undefined : `Argument "${name}" must be a string, got ${describe(value)}.`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `Argument "${name}" must be true or false, got ${describe(value)}.`;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value))
        return `Argument "${name}" must be a whole number, got ${describe(value)}.`;
      if (field.min !== undefined && value < field.min) return `Argument "${name}" must be at least ${field.min}, got ${value}.`;
      return undefined;
    case 'edits': {
      if (!Array.isArray(value))
        return `Argument "edits" must be a list of {old_string, new_string, replace_all?}, got ${describe(value)}.`;
      if (value.length === 0) return 'Argument "edits" is empty; give at least one {old_string, new_string}.';
      const editFields = { old_string: s(true), new_string: s(true), replace_all: bool };
      for (let i = 0; i < value.length; i++) {
        const problem = checkObject(tool, value[i], editFields, `edits[${i + 1}]`);
        if (problem) return problem;
      }
      return undefined;
    }
  }
}

function checkObject(tool: ToolName, input: unknown, fields: Record<string, Field>, where: string): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return `${where} must be an object, got ${describe(input)}.`;
  }
  const record = input as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (!Object.prototype.hasOwnProperty.call(fields, key)) return `Unknown argument ${shortJson(key)} in ${where}.`;
  }
  for (const [name, field] of Object.entries(fields)) {
    const value = record[name];
    if (value === undefined) {
      if (field.required) return `Missing argument "${name}" in ${where}.`;
      continue;
    }
    const problem = checkField(tool, name, field, value);
    if (problem) return where === 'the arguments' ? problem : `${where}: ${problem}`;
  }
  return undefined;
}

/** Validates a call's input; the message names the problem and the tool's arguments. */
export function checkArgs(name: string, input: unknown): ArgsCheck {
  if (!isToolName(name)) {
    return { ok: false, message: `Unknown tool ${shortJson(name)}. The tools are: ${TOOL_NAMES.join(', ')}.` };
  }
  const problem = checkObject(name, input ?? {}, TOOL_FIELDS[name] as Record<string, Field>, 'the arguments');
  if (problem) return { ok: false, message: `Bad arguments for ${name}: ${problem} (${usage(name)}.)` };
  return { ok: true, call: { tool: name, args: (input ?? {}) as never } };
}
