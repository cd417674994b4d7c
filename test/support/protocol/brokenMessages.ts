/**
 * Ways to break a valid webview message one field at a time, from what its fields take (`webviewMessages.ts`):
 * `src/shared/protocolValidation.test.ts` checks the validator refuses each (a sweep over every named way, and a
 * fuzz that adds random values of the wrong kind and random unknown fields).
 */
import type { WebviewToHost } from '../../../src/shared/protocol';
import { BAD_STRINGS, type OptionalRule, type WebviewMessageExample } from './webviewMessages';

export type Path = readonly (string | number)[];
type Rules = Readonly<Record<string, OptionalRule>>;

/** A field of a message at any depth (an object's field by key, a list's item by index), and its rule. */
export interface Field {
  readonly path: Path;
  readonly rule: OptionalRule;
  /** The message is wrong without it (a list's item taken out leaves a hole). */
  readonly required: boolean;
}

/** Every field of an example, at any depth. */
export function fieldsOf({ message, fields }: WebviewMessageExample): Field[] {
  return fieldsIn(message, fields, []);
}

function fieldsIn(value: object, rules: Rules, path: Path): Field[] {
  return Object.entries(rules)
    .filter(([key]) => Object.hasOwn(value, key))
    .flatMap(([key, rule]) => fieldAt((value as Record<string, unknown>)[key], rule, [...path, key], !rule.optional));
}

function fieldAt(value: unknown, rule: OptionalRule, path: Path, required: boolean): Field[] {
  const here = { path, rule, required };
  if (rule.kind === 'object') return [here, ...fieldsIn(value as object, rule.fields, path)];
  if (rule.kind === 'list') return [here, ...(value as unknown[]).flatMap((item, i) => fieldAt(item, rule.item, [...path, i], true))];
  return [here];
}

/** The objects of an example (itself, a request's params, an image) and the fields each may have. */
export function objectsOf(example: WebviewMessageExample): { path: Path; known: readonly string[] }[] {
  const nested = fieldsOf(example).flatMap(({ path, rule }) => (rule.kind === 'object' ? [{ path, known: Object.keys(rule.fields) }] : []));
  return [{ path: [], known: Object.keys(example.fields) }, ...nested];
}

/** Every field name any kind has (at any depth): a field of one kind added to another must be refused. */
export function fieldNames(examples: readonly WebviewMessageExample[]): string[] {
  return [...new Set(examples.flatMap(objectsOf).flatMap(({ known }) => known))].sort();
}

export const REMOVED = Symbol('removed');

/** A copy of `message` with the field at `path` set to `value`, or taken out when `value` is REMOVED. */
export function edited(message: WebviewToHost, path: Path, value: unknown): unknown {
  const copy: unknown = structuredClone(message);
  let parent = copy as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const key = path[path.length - 1]!;
  if (value === REMOVED) delete parent[key];
  else parent[key] = value;
  return copy;
}

export function valueAt(message: WebviewToHost, path: Path): unknown {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], message);
}

/** The JavaScript kinds of value a field may be given; a field takes values of one only. */
export type ValueKind = 'undefined' | 'null' | 'boolean' | 'number' | 'string' | 'list' | 'object';

export const OWN_KIND: Readonly<Record<OptionalRule['kind'], ValueKind>> = {
  token: 'string',
  text: 'string',
  integer: 'number',
  boolean: 'boolean',
  list: 'list',
  object: 'object',
};

/** The kinds whose every value is wrong for the field (not undefined for an optional one: that is no field). */
export function otherKinds(rule: OptionalRule): ValueKind[] {
  const all: ValueKind[] = ['undefined', 'null', 'boolean', 'number', 'string', 'list', 'object'];
  return all.filter((kind) => kind !== OWN_KIND[rule.kind] && !(kind === 'undefined' && rule.optional));
}

/** Wrong values of the field's own kind, as its rule names them: bad strings, out of range, lists too short or long. */
export function wrongOfOwnKind(rule: OptionalRule, current: unknown): unknown[] {
  switch (rule.kind) {
    case 'token':
      return [...BAD_STRINGS.filter((s) => !rule.alsoValid?.includes(s)), ...(rule.alsoWrong ?? [])];
    case 'text':
      return ['x'.repeat(rule.max + 1), ...(rule.nonBlank ? ['', ' \n\t'] : []), ...(rule.alsoWrong ?? [])];
    case 'integer':
      return [rule.min - 1, rule.max + 1, 2 ** 60, -(2 ** 60), rule.min + 0.5, Number.NaN, Number.NEGATIVE_INFINITY];
    case 'boolean':
      return [];
    case 'list': {
      const items = current as unknown[];
      const tooShort = rule.min > 0 ? [items.slice(0, rule.min - 1)] : [];
      const tooLong = items.length > 0 ? [Array<unknown>(rule.max + 1).fill(items[0])] : [];
      return [...tooShort, ...tooLong];
    }
    case 'object':
      return [{ notAField: 1 }];
  }
}
