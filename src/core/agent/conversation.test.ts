import { describe, expect, it } from 'vitest';
import { Conversation } from './conversation';
import { INTERRUPTION_NOTE, projectForProvider } from './projection';

describe('the conversation of a generation', () => {
  it('joins user content to a trailing user message no request has carried, and never to a sent one', () => {
    const c = new Conversation();
    c.appendUser([{ type: 'text', text: 'a' }]);
    c.appendUser([{ type: 'text', text: 'b' }]);
    expect(c.length).toBe(1);
    c.markSent();
    c.appendUser([{ type: 'text', text: 'c' }]);
    expect(c.length).toBe(2);
    expect(c.messages()[0]!.content).toHaveLength(2);
  });

  it('freezes what it stores, so nothing sent can be changed', () => {
    const c = new Conversation();
    const blocks = [{ type: 'text' as const, text: 'a' }];
    c.appendUser(blocks);
    blocks[0]!.text = 'changed';
    expect((c.messages()[0]!.content[0] as { text: string }).text).toBe('a');
    expect(() => {
      (c.messages()[0]!.content[0] as { text: string }).text = 'x';
    }).toThrow();
  });

  it('sends an interrupted message exactly as stored, plus a note', () => {
    const c = new Conversation();
    c.appendUser([{ type: 'text', text: 'go' }]);
    c.appendAssistant({ role: 'assistant', content: [{ type: 'text', text: 'half an ans' }] }, { incomplete: true });
    const projected = projectForProvider(c.all());
    expect(projected[1]!.content).toEqual([{ type: 'text', text: 'half an ans' }, { type: 'text', text: INTERRUPTION_NOTE }]);
    expect(c.all()[1]!.message.content).toHaveLength(1);
  });
});
