import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../conversation/conversation';
import { renderTranscript } from './transcript';

const entries: ConversationEntry[] = [
  { message: { role: 'user', content: [{ type: 'text', text: 'Fix the parser, and keep the public API.' }] } },
  {
    message: {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'secret plan', signature: 's' },
        { type: 'tool_use', id: 't1', name: 'read', input: { path: 'p.ts' } },
      ],
    },
  },
  {
    message: {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: '[#a3f2 p.ts lines 1-6 of 6 sha 1c9e04ab]\n1: a\n2: b\n3: c\n4: d\n5: e\n6: f' },
      ],
    },
  },
];

describe('the transcript the summarizer sees', () => {
  it('shows results by bracket and first lines, with their ids, and leaves reasoning out', () => {
    const { text } = renderTranscript(entries, 60_000);
    expect(text).toContain('User: Fix the parser, and keep the public API.');
    expect(text).toContain('Assistant called read {"path":"p.ts"}');
    expect(text).toContain(
      'Result: [#a3f2 p.ts lines 1-6 of 6 sha 1c9e04ab]\n1: a\n2: b\n3: c\n(3 more lines; recall the id for all of it)',
    );
    expect(text).not.toContain('secret plan');
  });

  it('keeps the newest history within the limit and says what it left out', () => {
    const { text, droppedChars } = renderTranscript(entries, 150);
    expect(droppedChars).toBeGreaterThan(0);
    expect(text.startsWith(`[${droppedChars} characters of older history left out]`)).toBe(true);
    expect(text).toContain('[#a3f2');
    expect(text).not.toContain('Fix the parser');
  });
});
