import { describe, expect, it } from 'vitest';
import { completeSlash, slashMatches } from './slashCompletion';

const commands = [
  { name: 'compact', description: 'c', argumentHint: '[instructions]' },
  { name: 'export', description: 'e' },
  { name: 'new', description: 'n' },
  { name: 'report', description: 'r' },
];

describe('slashMatches', () => {
  it('offers every command for a bare slash, then narrows: names that start with the word first, then names containing it', () => {
    expect(slashMatches('/', commands).map((c) => c.name)).toEqual(['compact', 'export', 'new', 'report']);
    expect(slashMatches('/re', commands).map((c) => c.name)).toEqual(['report']);
    expect(slashMatches('/e', commands).map((c) => c.name)).toEqual(['export', 'new', 'report']);
    expect(slashMatches('/zz', commands)).toEqual([]);
  });

  it('offers nothing once text follows the name, or when the slash is not first', () => {
    expect(slashMatches('/compact keep', commands)).toEqual([]);
    expect(slashMatches('see /compact', commands)).toEqual([]);
    expect(slashMatches('', commands)).toEqual([]);
  });

  it('completes to the name and a space, ready for the command’s text', () => {
    expect(completeSlash(commands[0]!)).toBe('/compact ');
  });
});
