import { describe, expect, it } from 'vitest';
import { renderChanges, resultText } from './render';

const sha = '7d0a91c3'.padEnd(64, '0');

describe('edit brackets', () => {
  it('gives one file its own bracket with the id', () => {
    expect(
      resultText(
        renderChanges(
          '#e201',
          [{ displayPath: 'src/app.ts', relative: 'src/app.ts', kind: 'updated', sha, hunks: ['@@ -1,1 +1,1 @@', '-a', '+b'] }],
          8,
        ),
      ),
    ).toBe('[#e201 src/app.ts sha 7d0a91c3]\n@@ -1,1 +1,1 @@\n-a\n+b');
    expect(resultText(renderChanges('#e202', [{ displayPath: 'n.md', relative: 'n.md', kind: 'created', sha, lineCount: 1 }], 8))).toBe(
      '[#e202 n.md sha 7d0a91c3] Created, 1 line.',
    );
    expect(resultText(renderChanges('#e203', [{ displayPath: 'old.md', relative: 'old.md', kind: 'deleted' }], 8))).toBe(
      '[#e203 old.md deleted]',
    );
    expect(resultText(renderChanges('#e204', [{ displayPath: 'a', relative: 'a', kind: 'unchanged', sha }], 8))).toBe(
      '[#e204 a sha 7d0a91c3] No change.',
    );
    expect(
      resultText(
        renderChanges('#e205', [{ displayPath: 'b', relative: 'b', kind: 'updated', sha, hunks: ['@@ -1,1 +1,1 @@'], movedFrom: 'a' }], 8),
      ),
    ).toBe('[#e205 b sha 7d0a91c3] Moved from a.\n@@ -1,1 +1,1 @@');
  });

  it('gives several files the id alone, then each in its own bracket in order', () => {
    const text = resultText(
      renderChanges(
        '#e204',
        [
          { displayPath: 'src/a.ts', relative: 'src/a.ts', kind: 'updated', sha, hunks: ['@@ -1,2 +1,2 @@'] },
          { displayPath: 'docs/new.md', relative: 'docs/new.md', kind: 'created', sha, lineCount: 14 },
          { displayPath: 'old.md', relative: 'old.md', kind: 'deleted' },
        ],
        8,
      ),
    );
    expect(text).toBe('[#e204]\n[src/a.ts sha 7d0a91c3]\n@@ -1,2 +1,2 @@\n[docs/new.md sha 7d0a91c3] Created, 14 lines.\n[old.md deleted]');
  });
});
