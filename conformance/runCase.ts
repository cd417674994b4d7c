import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { appendFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { diffLines } from 'diff';
import { resolveHygiene, type HygieneOverrides } from '../src/core/config/hygiene';
import { CaseCompaction } from './compactionStep';
import { CaseSkills, foldText, packsText } from './skillsStep';
import { HashCache } from '../src/core/tools/hashCache';
import { IdAllocator, seedFromString } from '../src/core/ledger/ids';
import { MemoryResultStore } from '../test/support/ledger/memoryResultStore';
import { ResultLedger } from '../src/core/ledger/resultLedger';
import type { Workspace } from '../src/core/ports';
import { fileContent, type ConformanceCase, type Expectations, type Step } from './format';
import { expand, type PlaceholderScope } from './placeholders';

export type WorkspaceFactory = (root: string) => Workspace;

export interface CaseReport {
  readonly name: string;
  readonly passed: boolean;
  /** Why it failed, readable: which step, and a diff of expected and actual. */
  readonly failures: string[];
}

const trimNewlines = (text: string) => text.replace(/[\r\n]+$/, '');

function indent(text: string, prefix = '    '): string {
  return text
    .split('\n')
    .map((l) => `${prefix}${l}`)
    .join('\n');
}

/** A line diff of expected against actual: `-` lines were expected, `+` lines came. */
export function readableDiff(expected: string, actual: string): string {
  const out: string[] = [];
  for (const part of diffLines(`${expected}\n`, `${actual}\n`)) {
    const mark = part.added ? '+ ' : part.removed ? '- ' : '  ';
    for (const line of part.value.replace(/\n$/, '').split('\n')) out.push(`${mark}${line}`);
  }
  return ['(- expected, + actual)', ...out].join('\n');
}

function check(actualRaw: string, ex: Expectations, scope: PlaceholderScope): string[] {
  const actual = trimNewlines(actualRaw);
  const problems: string[] = [];
  if (ex.expect !== undefined) {
    const expected = trimNewlines(expand(ex.expect, scope));
    if (actual !== expected) problems.push(`text differs:\n${indent(readableDiff(expected, actual))}`);
  }
  if (ex.expect_prefix !== undefined) {
    const prefix = trimNewlines(expand(ex.expect_prefix, scope));
    if (!actual.startsWith(prefix))
      problems.push(`does not start with the expected prefix:\n${indent(readableDiff(prefix, actual.slice(0, prefix.length + 200)))}`);
  }
  for (const fragment of ex.expect_contains ?? []) {
    const want = expand(fragment, scope);
    if (!actual.includes(want)) problems.push(`does not contain:\n${indent(want)}\n  actual:\n${indent(actual)}`);
  }
  for (const fragment of ex.expect_not_contains ?? []) {
    const unwanted = expand(fragment, scope);
    if (actual.includes(unwanted)) problems.push(`contains what it must not:\n${indent(unwanted)}\n  actual:\n${indent(actual)}`);
  }
  if (ex.expect_regex !== undefined) {
    const source = expand(ex.expect_regex, scope, true);
    if (!new RegExp(source).test(actual)) problems.push(`does not match /${source}/:\n${indent(actual)}`);
  }
  return problems;
}

/**
 * Arguments may name earlier results (`{"id": "#{r1}"}` for a recall): known labels are replaced in
 * every string; anything else, braces included, is passed as written, since arguments carry code.
 */
function withLabels(value: unknown, labels: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string')
    return value.replace(/\{([A-Za-z_][A-Za-z0-9_.-]*)\}/g, (whole, label: string) => labels.get(label) ?? whole);
  if (Array.isArray(value)) return value.map((v) => withLabels(v, labels));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withLabels(v, labels)]));
  }
  return value;
}

/**
 * A path a case names for the runner itself (files, fs steps, expectations), inside the case's folder.
 * Cases come from files outside this repository: one must never make the runner touch other files.
 */
function inside(root: string, path: string): string {
  const absolute = join(root, path);
  const rel = relative(root, absolute);
  if (isAbsolute(path) || rel === '' || rel.startsWith('..') || isAbsolute(rel)) {
    throw new Error(`path "${path}" is not inside the case's workspace; give a relative path such as "src/a.ts".`);
  }
  return absolute;
}

/** For writes from a case: the folder must still be inside once symlinks (a case can make them with bash) are followed. */
async function writableInside(root: string, path: string): Promise<string> {
  const absolute = inside(root, path);
  await mkdir(dirname(absolute), { recursive: true });
  const realRoot = realpathSync(root);
  const realDir = realpathSync(dirname(absolute));
  if (realDir !== realRoot && !realDir.startsWith(`${realRoot}/`)) {
    throw new Error(`path "${path}" leads outside the case's workspace through a symlink.`);
  }
  return absolute;
}

function describeStep(step: Step): string {
  switch (step.kind) {
    case 'call':
      return `call ${step.call}${step.as ? ` as ${step.as}` : ''} ${JSON.stringify(step.args)}`;
    case 'compact':
      return 'compact';
    case 'elide':
      return 'elide';
    case 'expect-file':
      return `expect_file ${step.path}`;
    case 'expect-no-file':
      return `expect_no_file ${step.path}`;
    case 'skills':
    case 'user':
    case 'active':
    case 'catalog':
    case 'skills-compact':
    case 'state':
    case 'fold':
    case 'packs':
      return step.kind;
    default:
      return `fs ${step.kind.slice(3)} ${step.path}`;
  }
}

/** Runs one case in a fresh temporary workspace through the real tools and ledger. */
export async function runCase(
  c: ConformanceCase,
  fileConfig: Record<string, unknown> | undefined,
  makeWorkspace: WorkspaceFactory,
  seedKey: string,
): Promise<CaseReport> {
  if (c.invalid) return { name: c.name, passed: false, failures: [`the case is malformed: ${c.invalid}`] };
  const failures: string[] = [];
  const disposers: Array<() => Promise<void>> = [];
  const root = mkdtempSync(join(tmpdir(), 'cairn-conformance-'));
  try {
    const config = resolveHygiene(fileConfig as HygieneOverrides | undefined, c.config as HygieneOverrides | undefined);
    for (const [path, spec] of Object.entries(c.files)) {
      const absolute = inside(root, path);
      await mkdir(dirname(absolute), { recursive: true });
      await writeFile(absolute, fileContent(spec));
    }
    const skills = await CaseSkills.create(root);
    const ledger = new ResultLedger({
      externalTools: skills.tools(),
      workspace: makeWorkspace(root),
      store: new MemoryResultStore(),
      config,
      hashCache: new HashCache(),
      ids: new IdAllocator({ digits: config['ids.digits'], seed: seedFromString(seedKey) }),
    });
    const compaction = await CaseCompaction.create(root, ledger);
    disposers.push(() => compaction.dispose());
    const labels = new Map<string, string>();
    const seen = new Set<string>();
    const scope: PlaceholderScope = {
      labels,
      sha8: (path) => {
        const absolute = inside(root, path);
        if (!existsSync(absolute)) throw new Error(`{sha8:${path}}: ${path} does not exist at this step.`);
        return createHash('sha256').update(readFileSync(absolute)).digest('hex').slice(0, 8);
      },
    };
    const idPattern = new RegExp(`^\\[#([0-9a-f]{${config['ids.digits']},})[\\] ]`);
    for (const [index, step] of c.steps.entries()) {
      const where = `step ${index + 1} (${describeStep(step)})`;
      try {
        const problems: string[] = [];
        switch (step.kind) {
          case 'call': {
            const call = { callId: `call-${index + 1}`, name: step.call, input: withLabels(step.args, labels) };
            const result = await ledger.execute(call);
            compaction.recordCall(index + 1, call, result);
            skills.recordCall(call, result.text);
            const match = idPattern.exec(result.text);
            if (!match)
              problems.push(
                `result does not start with "[#" and at least ${config['ids.digits']} lowercase hex digits:\n${indent(result.text)}`,
              );
            else {
              if (seen.has(match[1]!)) problems.push(`result id #${match[1]} was already given in this case.`);
              seen.add(match[1]!);
              if (step.as) labels.set(step.as, match[1]!);
            }
            problems.push(...check(result.text, step, scope));
            break;
          }
          case 'compact':
            problems.push(...check(await compaction.compact(step.summary), step, scope));
            break;
          case 'elide':
            problems.push(...check(await compaction.elide(), step, scope));
            break;
          case 'fs-write':
            await writeFile(await writableInside(root, step.path), step.content);
            break;
          case 'fs-append':
            await appendFile(await writableInside(root, step.path), step.content);
            break;
          case 'fs-delete':
            await rm(await writableInside(root, step.path));
            break;
          case 'expect-file': {
            const absolute = inside(root, step.path);
            if (!existsSync(absolute)) problems.push(`${step.path} does not exist.`);
            else {
              const actual = trimNewlines(await readFile(absolute, 'utf8'));
              const expected = trimNewlines(expand(step.content, scope));
              if (actual !== expected) problems.push(`${step.path} differs:\n${indent(readableDiff(expected, actual))}`);
            }
            break;
          }
          case 'expect-no-file':
            if (existsSync(inside(root, step.path))) problems.push(`${step.path} exists but should not.`);
            break;
          case 'skills':
            problems.push(...check(await skills.toggle(step.enable, step.disable), step, scope));
            break;
          case 'user':
            problems.push(...check(await skills.user(step.text), step, scope));
            break;
          case 'active':
            problems.push(...check(skills.active(), step, scope));
            break;
          case 'catalog':
            problems.push(...check(skills.catalog(), step, scope));
            break;
          case 'skills-compact':
            problems.push(...check(skills.compact(step.keep), step, scope));
            break;
          case 'state':
            problems.push(...check(skills.state(), step, scope));
            break;
          case 'fold':
            problems.push(...check(foldText(step.texts), step, scope));
            break;
          case 'packs':
            problems.push(...check(packsText(step.packs, step.tokens, step.maxChars), step, scope));
            break;
        }
        for (const p of problems) failures.push(`${where}: ${p}`);
      } catch (error) {
        failures.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    for (const dispose of disposers) await dispose().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
  return { name: c.name, passed: failures.length === 0, failures };
}
