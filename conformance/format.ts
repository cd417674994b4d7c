/**
 * The conformance file format (issue 2 §4). It is a contract: files outside this repository are run
 * with the same runner, so the parser is strict about shapes and says exactly what is wrong.
 */
export type FileSpec = string | { lines: number; text: string };

export interface Expectations {
  expect?: string;
  expect_prefix?: string;
  expect_contains?: string[];
  expect_not_contains?: string[];
  expect_regex?: string;
}

export type Step =
  | ({ kind: 'call'; call: string; args: unknown; as?: string } & Expectations)
  | { kind: 'fs-write'; path: string; content: string }
  | { kind: 'fs-append'; path: string; content: string }
  | { kind: 'fs-delete'; path: string }
  | ({ kind: 'compact'; summary: string } & Expectations)
  | ({ kind: 'elide' } & Expectations)
  | { kind: 'expect-file'; path: string; content: string }
  | { kind: 'expect-no-file'; path: string }
  // Issue 18: skills, packs and the working memory (conformance/skillsStep.ts).
  | ({ kind: 'skills'; enable: string[]; disable: string[] } & Expectations)
  | ({ kind: 'user'; text: string } & Expectations)
  | ({ kind: 'active' } & Expectations)
  | ({ kind: 'catalog' } & Expectations)
  | ({ kind: 'skills-compact'; keep: number } & Expectations)
  | ({ kind: 'state' } & Expectations)
  | ({ kind: 'fold'; texts: string[] } & Expectations)
  | ({ kind: 'packs'; tokens: number; maxChars?: number; packs: PackSpec[] } & Expectations);

export interface PackSpec {
  label: string;
  priority: 'required' | 'high' | 'medium' | 'low';
  full: string;
  compact?: string;
}

export interface ConformanceCase {
  name: string;
  spec?: string;
  config?: Record<string, unknown>;
  files: Record<string, FileSpec>;
  steps: Step[];
  /** Set when the case itself is malformed: it fails with this message and runs nothing. */
  invalid?: string;
}

export interface ConformanceFile {
  about?: string;
  config?: Record<string, unknown>;
  cases: ConformanceCase[];
}

export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}

const EXPECT_KEYS = ['expect', 'expect_prefix', 'expect_contains', 'expect_not_contains', 'expect_regex'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function str(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new FormatError(`${what} must be a string, got ${JSON.stringify(value)}.`);
  return value;
}

function strList(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new FormatError(`${what} must be a list of strings.`);
  return value;
}

function onlyKeys(record: Record<string, unknown>, allowed: readonly string[], what: string): void {
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) throw new FormatError(`${what} has an unknown key "${key}" (known: ${allowed.join(', ')}).`);
  }
}

function expectations(record: Record<string, unknown>, what: string): Expectations {
  const out: Expectations = {};
  if (record.expect !== undefined) out.expect = str(record.expect, `${what}.expect`);
  if (record.expect_prefix !== undefined) out.expect_prefix = str(record.expect_prefix, `${what}.expect_prefix`);
  if (record.expect_contains !== undefined) out.expect_contains = strList(record.expect_contains, `${what}.expect_contains`);
  if (record.expect_not_contains !== undefined)
    out.expect_not_contains = strList(record.expect_not_contains, `${what}.expect_not_contains`);
  if (record.expect_regex !== undefined) out.expect_regex = str(record.expect_regex, `${what}.expect_regex`);
  return out;
}

function parseStep(raw: unknown, what: string): Step {
  if (!isRecord(raw)) throw new FormatError(`${what} must be an object.`);
  if ('call' in raw) {
    onlyKeys(raw, ['call', 'args', 'as', ...EXPECT_KEYS], what);
    const step: Step = { kind: 'call', call: str(raw.call, `${what}.call`), args: raw.args ?? {}, ...expectations(raw, what) };
    if (raw.as !== undefined) step.as = str(raw.as, `${what}.as`);
    return step;
  }
  if ('fs' in raw) {
    onlyKeys(raw, ['fs'], what);
    const fs = raw.fs;
    if (!isRecord(fs) || Object.keys(fs).length !== 1) throw new FormatError(`${what}.fs must hold exactly one of write, append, delete.`);
    if (isRecord(fs.write))
      return {
        kind: 'fs-write',
        path: str(fs.write.path, `${what}.fs.write.path`),
        content: str(fs.write.content, `${what}.fs.write.content`),
      };
    if (isRecord(fs.append))
      return {
        kind: 'fs-append',
        path: str(fs.append.path, `${what}.fs.append.path`),
        content: str(fs.append.content, `${what}.fs.append.content`),
      };
    if (fs.delete !== undefined) return { kind: 'fs-delete', path: str(fs.delete, `${what}.fs.delete`) };
    throw new FormatError(`${what}.fs must be {"write": {path, content}}, {"append": {path, content}} or {"delete": PATH}.`);
  }
  if ('compact' in raw) {
    onlyKeys(raw, ['compact', ...EXPECT_KEYS], what);
    if (!isRecord(raw.compact)) throw new FormatError(`${what}.compact must be {"summary": TEXT}.`);
    return { kind: 'compact', summary: str(raw.compact.summary, `${what}.compact.summary`), ...expectations(raw, what) };
  }
  if ('elide' in raw) {
    onlyKeys(raw, ['elide', ...EXPECT_KEYS], what);
    if (!isRecord(raw.elide) || Object.keys(raw.elide).length > 0) throw new FormatError(`${what}.elide must be {}.`);
    return { kind: 'elide', ...expectations(raw, what) };
  }
  if ('expect_file' in raw) {
    onlyKeys(raw, ['expect_file'], what);
    const f = raw.expect_file;
    if (!isRecord(f)) throw new FormatError(`${what}.expect_file must be {path, content}.`);
    return { kind: 'expect-file', path: str(f.path, `${what}.expect_file.path`), content: str(f.content, `${what}.expect_file.content`) };
  }
  if ('expect_no_file' in raw) {
    onlyKeys(raw, ['expect_no_file'], what);
    return { kind: 'expect-no-file', path: str(raw.expect_no_file, `${what}.expect_no_file`) };
  }
  const skillStep = parseSkillStep(raw, what);
  if (skillStep) return skillStep;
  throw new FormatError(
    `${what} is not a step: it needs one of call, fs, compact, elide, expect_file, expect_no_file, skills, user, active, catalog, skills_compact, state, fold, packs.`,
  );
}

const PRIORITIES = ['required', 'high', 'medium', 'low'];

/** The steps of issue 18's cases; undefined when `raw` is none of them. */
function parseSkillStep(raw: Record<string, unknown>, what: string): Step | undefined {
  const bare = (key: string): boolean => {
    onlyKeys(raw, [key, ...EXPECT_KEYS], what);
    if (raw[key] !== undefined && !isRecord(raw[key])) throw new FormatError(`${what}.${key} must be {}.`);
    return true;
  };
  if ('skills' in raw) {
    onlyKeys(raw, ['skills', ...EXPECT_KEYS], what);
    const s = raw.skills;
    if (!isRecord(s)) throw new FormatError(`${what}.skills must be {"enable": [names], "disable": [names]}.`);
    onlyKeys(s, ['enable', 'disable'], `${what}.skills`);
    return {
      kind: 'skills',
      enable: strList(s.enable ?? [], `${what}.skills.enable`),
      disable: strList(s.disable ?? [], `${what}.skills.disable`),
      ...expectations(raw, what),
    };
  }
  if ('user' in raw) {
    onlyKeys(raw, ['user', ...EXPECT_KEYS], what);
    return { kind: 'user', text: str(raw.user, `${what}.user`), ...expectations(raw, what) };
  }
  if ('active' in raw && bare('active')) return { kind: 'active', ...expectations(raw, what) };
  if ('catalog' in raw && bare('catalog')) return { kind: 'catalog', ...expectations(raw, what) };
  if ('state' in raw && bare('state')) return { kind: 'state', ...expectations(raw, what) };
  if ('skills_compact' in raw) {
    onlyKeys(raw, ['skills_compact', ...EXPECT_KEYS], what);
    const c = raw.skills_compact;
    if (!isRecord(c) || !Number.isInteger(c.keep) || (c.keep as number) < 0) {
      throw new FormatError(`${what}.skills_compact must be {"keep": N}, N the messages kept (0 or more).`);
    }
    return { kind: 'skills-compact', keep: c.keep as number, ...expectations(raw, what) };
  }
  if ('fold' in raw) {
    onlyKeys(raw, ['fold', ...EXPECT_KEYS], what);
    return { kind: 'fold', texts: strList(raw.fold, `${what}.fold`), ...expectations(raw, what) };
  }
  if ('packs' in raw) {
    onlyKeys(raw, ['packs', ...EXPECT_KEYS], what);
    const p = raw.packs;
    if (!isRecord(p) || !Number.isInteger(p.tokens) || !Array.isArray(p.packs)) {
      throw new FormatError(`${what}.packs must be {"tokens": N, "max_chars"?: N, "packs": [{label, priority, full, compact?}]}.`);
    }
    onlyKeys(p, ['tokens', 'max_chars', 'packs'], `${what}.packs`);
    if (p.max_chars !== undefined && !Number.isInteger(p.max_chars))
      throw new FormatError(`${what}.packs.max_chars must be a whole number.`);
    const packs = p.packs.map((pack, i): PackSpec => {
      const at = `${what}.packs.packs[${i}]`;
      if (!isRecord(pack)) throw new FormatError(`${at} must be {label, priority, full, compact?}.`);
      onlyKeys(pack, ['label', 'priority', 'full', 'compact'], at);
      const priority = str(pack.priority, `${at}.priority`);
      if (!PRIORITIES.includes(priority)) throw new FormatError(`${at}.priority must be one of ${PRIORITIES.join(', ')}.`);
      return {
        label: str(pack.label, `${at}.label`),
        priority: priority as PackSpec['priority'],
        full: str(pack.full, `${at}.full`),
        ...(pack.compact !== undefined ? { compact: str(pack.compact, `${at}.compact`) } : {}),
      };
    });
    return {
      kind: 'packs',
      tokens: p.tokens as number,
      ...(p.max_chars !== undefined ? { maxChars: p.max_chars as number } : {}),
      packs,
      ...expectations(raw, what),
    };
  }
  return undefined;
}

function parseFiles(raw: unknown, what: string): Record<string, FileSpec> {
  if (raw === undefined) return {};
  if (!isRecord(raw)) throw new FormatError(`${what} must be an object of PATH: content.`);
  const out: Record<string, FileSpec> = {};
  for (const [path, spec] of Object.entries(raw)) {
    if (typeof spec === 'string') out[path] = spec;
    else if (isRecord(spec) && Number.isInteger(spec.lines) && (spec.lines as number) >= 0 && typeof spec.text === 'string') {
      out[path] = { lines: spec.lines as number, text: spec.text };
    } else throw new FormatError(`${what}["${path}"] must be a string or {"lines": N, "text": T}.`);
  }
  return out;
}

function parseCase(raw: unknown, index: number): ConformanceCase {
  const fallbackName = `case ${index + 1}`;
  try {
    if (!isRecord(raw)) throw new FormatError('a case must be an object.');
    onlyKeys(raw, ['name', 'spec', 'config', 'files', 'steps'], fallbackName);
    const name = str(raw.name, `${fallbackName}.name`);
    if (raw.config !== undefined && !isRecord(raw.config)) throw new FormatError(`${name}: config must be an object of dotted names.`);
    if (!Array.isArray(raw.steps) || raw.steps.length === 0) throw new FormatError(`${name}: steps must be a non-empty list.`);
    const c: ConformanceCase = {
      name,
      files: parseFiles(raw.files, `${name}: files`),
      steps: raw.steps.map((s, i) => parseStep(s, `step ${i + 1}`)),
    };
    if (raw.spec !== undefined) c.spec = str(raw.spec, `${name}: spec`);
    if (raw.config !== undefined) c.config = raw.config as Record<string, unknown>;
    return c;
  } catch (error) {
    const name = isRecord(raw) && typeof raw.name === 'string' ? raw.name : fallbackName;
    return { name, files: {}, steps: [], invalid: error instanceof Error ? error.message : String(error) };
  }
}

/** Parses a whole file; a malformed case becomes an invalid case (it fails alone), a malformed file throws. */
export function parseConformanceFile(text: string): ConformanceFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new FormatError(`not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!isRecord(raw)) throw new FormatError('the file must be a JSON object with "cases".');
  if (!Array.isArray(raw.cases)) throw new FormatError('the file needs a "cases" list.');
  if (raw.config !== undefined && !isRecord(raw.config)) throw new FormatError('"config" must be an object of dotted names.');
  const file: ConformanceFile = { cases: raw.cases.map(parseCase) };
  if (typeof raw.about === 'string') file.about = raw.about;
  if (raw.config !== undefined) file.config = raw.config as Record<string, unknown>;
  return file;
}

/** `{"lines": N, "text": T}`: N lines, each T with `{n}` the line number, each ending in `\n`. */
export function fileContent(spec: FileSpec): string {
  if (typeof spec === 'string') return spec;
  let out = '';
  for (let n = 1; n <= spec.lines; n++) out += `${spec.text.split('{n}').join(String(n))}\n`;
  return out;
}
