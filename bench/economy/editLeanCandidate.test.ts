import { describe, expect, it } from 'vitest';
import type { LedgerResult, ToolCall } from '../../src/core/ledger/types';
import { leanEditAnswer, modelWrittenLines } from './editLeanCandidate';

const diffResult = (body: string[]): LedgerResult => ({
  id: '#a1b2',
  tool: 'edit',
  bracket: '[#a1b2 src/app.ts sha 1c9e04]',
  text: ['[#a1b2 src/app.ts sha 1c9e04]', ...body].join('\n'),
  kind: 'diff',
  fullChars: 400,
  isError: false,
});

const editCall = (old_string: string, new_string: string): ToolCall =>
  ({ callId: 'toolu_1', name: 'edit', input: { path: 'src/app.ts', old_string, new_string } }) as ToolCall;

describe('edit-lean candidate', () => {
  it('keeps the hunk header and drops the context and the lines the model wrote', () => {
    const call = editCall('  return a + b;', '  const sum = a + b;\n  return sum;');
    const result = diffResult([
      '@@ -10,7 +10,8 @@',
      ' function add(a, b) {',
      ' // adds',
      ' // two',
      '-  return a + b;',
      '+  const sum = a + b;',
      '+  return sum;',
      ' }',
      ' ',
      ' export {}',
    ]);
    const lean = leanEditAnswer(result, modelWrittenLines(call)!);
    expect(lean.text).toBe(
      '[#a1b2 src/app.ts sha 1c9e04] Applied as you wrote it; where it landed below (context and your own lines left out, recall #a1b2 shows the diff):\n@@ -10,7 +10,8 @@',
    );
    expect(lean.id).toBe('#a1b2');
    expect(lean.kind).toBe('diff');
  });

  it('keeps a changed line the model did not write (the tool went beyond its text)', () => {
    const call = editCall('x = 1', 'x = 2');
    const result = diffResult(['@@ -1,2 +1,2 @@', '-x = 1', '+x = 2', '-y = x', '+y = x + 0']);
    const lean = leanEditAnswer(result, modelWrittenLines(call)!);
    expect(lean.text.split('\n').slice(1)).toEqual(['@@ -1,2 +1,2 @@', '-y = x', '+y = x + 0']);
  });

  it('a write over a file keeps the old lines: the model wrote only the new content', () => {
    const call = { callId: 't', name: 'write', input: { path: 'a.txt', content: 'new\n' } } as ToolCall;
    const result = diffResult(['@@ -1,1 +1,1 @@', '-old', '+new']);
    expect(leanEditAnswer(result, modelWrittenLines(call)!).text.split('\n').slice(1)).toEqual(['@@ -1,1 +1,1 @@', '-old']);
  });

  it('leaves other tools and answers with nothing to leave out as they were', () => {
    expect(modelWrittenLines({ callId: 't', name: 'bash', input: { command: 'ls' } } as ToolCall)).toBeUndefined();
    const result = diffResult(['@@ -1,1 +1,1 @@', '-a', '+b']);
    expect(leanEditAnswer(result, { removed: new Set(), added: new Set() })).toBe(result);
  });
});
