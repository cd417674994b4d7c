import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { linkifyIdsHtml, splitResultIds } from './resultIds';

const EVERY_ID = { has: () => true };
const ids = (text: string) => splitResultIds(text, EVERY_ID).flatMap((s) => (s.kind === 'id' ? [s.id] : []));

describe('splitResultIds', () => {
  it('finds ids in brackets, sentences, tables and parentheses', () => {
    expect(ids('[#a3f2 src/app.ts lines 1-200 of 340 sha 1c9e04ab]')).toEqual(['#a3f2']);
    expect(ids('Unchanged since #a3f2, which already shows lines 1-200.')).toEqual(['#a3f2']);
    expect(ids('| src/app.ts | 1-200 of 340 | 1c9e04ab | #a3f2 |')).toEqual(['#a3f2']);
    expect(ids('(see #c9d0e1f)')).toEqual(['#c9d0e1f']);
    expect(ids('[1234 lines elided, full output #c9d0]')).toEqual(['#c9d0']);
  });

  it('leaves alone what is not an id at a word boundary', () => {
    expect(ids('#a3f (three digits) #A3F2 (upper case) #a3f2g (a word) abc#a3f2 ##a3f2 &#1234;')).toEqual([]);
    // A sha without # is not an id.
    expect(ids('sha 1c9e04ab')).toEqual([]);
  });

  it('gives the text back when the segments are joined', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('#a3f2', ' #c9d0 ', '##', '#', 'x#abcd'))).map((parts) => parts.join('')),
        (text) => {
          expect(
            splitResultIds(text, EVERY_ID)
              .map((s) => (s.kind === 'id' ? s.id : s.text))
              .join(''),
          ).toBe(text);
        },
      ),
      { numRuns: 500, seed: 61 },
    );
  });

  it('links only ids the session gave: an id quoted in a file names no result', () => {
    const given = new Set(['#a3f2']);
    const text = '[#a3f2 notes.md lines 1-2 of 2 sha 00000000]\n1: see #beef and #a3f2\n2: `#c0ffee`';
    expect(
      splitResultIds(text, given)
        .filter((s) => s.kind === 'id')
        .map((s) => (s.kind === 'id' ? s.id : '')),
    ).toEqual(['#a3f2', '#a3f2']);
    expect(
      splitResultIds(text, given)
        .map((s) => (s.kind === 'id' ? s.id : s.text))
        .join(''),
    ).toBe(text);
    expect(linkifyIdsHtml('#beef #a3f2', given)).toBe(
      '#beef <button type="button" class="recall-link" data-recall-id="#a3f2" title="Show stored result #a3f2">#a3f2</button>',
    );
  });
});

describe('linkifyIdsHtml', () => {
  it('escapes the text and makes each id a button', () => {
    expect(linkifyIdsHtml('<b> #a3f2 & "x"', EVERY_ID)).toBe(
      '&lt;b&gt; <button type="button" class="recall-link" data-recall-id="#a3f2" title="Show stored result #a3f2">#a3f2</button> &amp; &quot;x&quot;',
    );
  });
});
