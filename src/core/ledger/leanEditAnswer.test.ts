import { describe, expect, it } from 'vitest';
import type { Answer } from './answer';
import { leanEditAnswer, leanEditBody, modelWrittenLines } from './leanEditAnswer';

const diffAnswer = (body: string[], sentence?: string): Answer => ({
  bracket: '[#a1b2 src/app.ts sha 1c9e04]',
  ...(sentence !== undefined ? { sentence } : {}),
  body,
  kind: 'diff',
  isError: false,
  stored: { lines: body },
  cappable: true,
});

describe('the lean edit answer (edit.answer: "lean")', () => {
  it('keeps the hunk header and leaves out the context and the lines the model wrote; the stored diff is whole', () => {
    const body = [
      '@@ -10,7 +10,8 @@',
      ' function add(a, b) {',
      ' // adds',
      '-  return a + b;',
      '+  const sum = a + b;',
      '+  return sum;',
      ' }',
    ];
    const lean = leanEditAnswer(diffAnswer(body), '#a1b2', 'edit', {
      path: 'src/app.ts',
      old_string: '  return a + b;',
      new_string: '  const sum = a + b;\n  return sum;',
    });
    expect(lean.body).toEqual(['@@ -10,7 +10,8 @@']);
    expect(lean.sentence).toBe(
      'Applied as you wrote it, +2 −1 lines; where it landed below (context and your own lines left out, recall #a1b2 shows the diff).',
    );
    expect(lean.stored).toEqual({ lines: body });
    expect(lean.kind).toBe('diff');
  });

  it('keeps a changed line the model did not write (the tool, or a reviewer, went beyond its text)', () => {
    const own = modelWrittenLines('edit', { old_string: 'x = 1', new_string: 'x = 2' })!;
    expect(leanEditBody(['@@ -1,2 +1,2 @@', '-x = 1', '+x = 2', '-y = x', '+y = x + 0'], own)).toEqual([
      '@@ -1,2 +1,2 @@',
      '-y = x',
      '+y = x + 0',
    ]);
  });

  it("a write over a file keeps the file's old lines, blank ones too: the model wrote only the new content", () => {
    const own = modelWrittenLines('write', { path: 'a.txt', content: 'new\n' })!;
    expect(leanEditBody(['@@ -1,2 +1,1 @@', '-old', '-', '+new'], own)).toEqual(['@@ -1,2 +1,1 @@', '-old', '-']);
  });

  it('a multiedit counts every one of its edits as the model’s own', () => {
    const own = modelWrittenLines('multiedit', {
      edits: [
        { old_string: 'a', new_string: 'b' },
        { old_string: 'c', new_string: 'd' },
      ],
    })!;
    expect(leanEditBody(['@@ -1,3 +1,3 @@', '-a', '+b', ' x', '-c', '+d'], own)).toEqual(['@@ -1,3 +1,3 @@']);
  });

  it('a move keeps its sentence before the lean one', () => {
    const lean = leanEditAnswer(diffAnswer(['@@ -1 +1 @@', '-a', '+b'], 'Moved from old.ts.'), '#a1b2', 'edit', {
      old_string: 'a',
      new_string: 'b',
    });
    expect(lean.sentence).toMatch(/^Moved from old\.ts\. Applied as you wrote it, \+1 −1 lines;/);
  });

  it('leaves other tools, malformed input and answers with nothing to leave out as they were', () => {
    expect(modelWrittenLines('bash', { command: 'ls' })).toBeUndefined();
    expect(modelWrittenLines('apply_patch', { patch: '…' })).toBeUndefined();
    expect(modelWrittenLines('edit', { old_string: 3, new_string: 'b' })).toBeUndefined();
    const answer = diffAnswer(['@@ -1,1 +1,1 @@', '-a', '+b']);
    expect(leanEditAnswer(answer, '#a1b2', 'edit', { old_string: 'q', new_string: 'r' })).toBe(answer);
    expect(leanEditAnswer(answer, '#a1b2', 'bash', { command: 'ls' })).toBe(answer);
  });
});
