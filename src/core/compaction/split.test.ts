import { describe, expect, it } from 'vitest';
import type { ConversationEntry } from '../conversation/conversation';
import { splitForCompaction } from './split';

const user = (text: string, synthetic = false): ConversationEntry => ({
  message: { role: 'user', content: [{ type: 'text', text }] },
  ...(synthetic ? { synthetic } : {}),
});
const call = (id: string): ConversationEntry => ({
  message: { role: 'assistant', content: [{ type: 'tool_use', id, name: 'read', input: {} }] },
});
const results = (id: string): ConversationEntry => ({
  message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: '[#aaaa]' }] },
});
const say = (text: string): ConversationEntry => ({ message: { role: 'assistant', content: [{ type: 'text', text }] } });

/** n turns, each: user text, a tool call, its result, an answer. */
function turns(n: number): ConversationEntry[] {
  return Array.from({ length: n }, (_, i) => [user(`u${i}`), call(`t${i}`), results(`t${i}`), say(`a${i}`)]).flat();
}

describe('splitForCompaction', () => {
  it('normal keeps the 3 most recent turns', () => {
    const split = splitForCompaction(turns(5), 'normal', 3)!;
    expect(split.tailStart).toBe(8);
    expect(split.turnsKept).toBe(3);
  });

  it('does not apply in the normal stage when there are no more turns than it keeps', () => {
    expect(splitForCompaction(turns(3), 'normal', 3)).toBeUndefined();
  });

  it('moves the cut back to keep the latest real user message', () => {
    // The last turns were written by Cairn (continue prompts), not typed by the user.
    const entries = [...turns(2), user('continue', true), say('x'), user('continue', true), say('y'), user('continue', true), say('z')];
    const split = splitForCompaction(entries, 'normal', 3)!;
    expect(split.tailStart).toBe(4);
    expect(split.anchoredToUser).toBe(true);
  });

  it('never separates a tool call from its result', () => {
    for (let n = 1; n <= 6; n++) {
      const entries = turns(n);
      for (const stage of ['normal', 'emergency'] as const) {
        const split = splitForCompaction(entries, stage, stage === 'normal' ? 3 : 1);
        if (!split) continue;
        const first = entries[split.tailStart]!;
        expect(first.message.content.some((b) => b.type === 'tool_result')).toBe(false);
      }
    }
  });

  it('emergency cuts inside one long turn between exchanges', () => {
    const entries = [user('do it'), call('a'), results('a'), call('b'), results('b'), call('c'), results('c')];
    const split = splitForCompaction(entries, 'emergency', 1)!;
    expect(split.tailStart).toBe(5);
    expect(split.turnsKept).toBe(0);
    expect(splitForCompaction(entries, 'normal', 3)).toBeUndefined();
  });

  it('never summarizes the previous summary alone', () => {
    const entries = [user('summary…', true), call('a'), results('a')];
    expect(splitForCompaction(entries, 'emergency', 1)).toBeUndefined();
  });
});
