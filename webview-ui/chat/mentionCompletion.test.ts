import { describe, expect, it } from 'vitest';
import { completeMention, droppedUris, mentionQuery } from './mentionCompletion';

describe('@ completion', () => {
  it('finds the mention being typed at the caret, not an email or a finished word', () => {
    expect(mentionQuery('look at @src/ap')).toBe('src/ap');
    expect(mentionQuery('@')).toBe('');
    expect(mentionQuery('mail a@b')).toBeUndefined();
    expect(mentionQuery('look at @src/app.ts ')).toBeUndefined();
  });

  it('replaces the typed part with the picked path and a space', () => {
    expect(completeMention('look at @src/ap', '', 'src/app.ts')).toBe('look at @src/app.ts ');
    expect(completeMention('@a', ' please', 'b/a.ts')).toBe('@b/a.ts please');
  });

  it('reads the file URIs of a drop', () => {
    expect(droppedUris('file:///w/a.ts\r\n# comment\nhttps://x\nfile:///w/b.ts\n')).toEqual(['file:///w/a.ts', 'file:///w/b.ts']);
  });
});
