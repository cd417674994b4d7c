import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_HYGIENE, resolveHygiene } from './hygiene';

describe('resolveHygiene', () => {
  it('starts from the spec defaults', () => {
    expect(resolveHygiene()).toEqual(DEFAULT_HYGIENE);
    expect(DEFAULT_HYGIENE['cap.max_lines']).toBe(400);
    expect(DEFAULT_HYGIENE['ids.digits']).toBe(4);
  });

  it('applies layers in order by dotted name', () => {
    const config = resolveHygiene({ 'cap.max_lines': 10 }, { 'cap.max_lines': 20, 'dedupe.by_result': ['glob'] });
    expect(config['cap.max_lines']).toBe(20);
    expect(config['dedupe.by_result']).toEqual(['glob']);
    expect(config['cap.max_chars']).toBe(40_000);
  });

  it('refuses unknown names and wrong kinds, saying which', () => {
    expect(() => resolveHygiene({ 'cap.maxlines': 1 } as never)).toThrow(ConfigError);
    expect(() => resolveHygiene({ 'cap.maxlines': 1 } as never)).toThrow(/Unknown hygiene setting "cap.maxlines"/);
    expect(() => resolveHygiene({ 'ids.digits': 0 })).toThrow(/"ids.digits" must be a whole number of at least 1/);
    expect(() => resolveHygiene({ 'dedupe.by_result': 'grep' })).toThrow(/list of tool names/);
  });

  it('takes the two shapes by name, the spec’s by default, and refuses any other', () => {
    expect(DEFAULT_HYGIENE['edit.answer']).toBe('diff');
    expect(DEFAULT_HYGIENE['cap.command_output']).toBe('head-tail');
    expect(resolveHygiene({ 'edit.answer': 'lean' })['edit.answer']).toBe('lean');
    expect(() => resolveHygiene({ 'edit.answer': 'short' })).toThrow(/"edit.answer" must be "diff" or "lean", got "short"/);
    expect(() => resolveHygiene({ 'cap.command_output': 'tail' })).toThrow(/must be "head-tail" or "failures"/);
  });
});
