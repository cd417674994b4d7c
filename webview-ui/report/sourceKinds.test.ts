import { describe, expect, it } from 'vitest';
import { sourceKey, sourceSlots } from './sourceKinds';

describe('sources across requests', () => {
  it('are the same source when only their count changed; two rules files stay two', () => {
    expect(sourceKey('conversation: 12 messages')).toBe('conversation');
    expect(sourceKey('tools: 8 tools')).toBe('tools');
    expect(sourceKey('rules: AGENTS.md')).toBe('rules: AGENTS.md');
    expect(sourceKey('preamble')).toBe('preamble');
  });

  it('keep one colour per kind, distinct within a request, whatever their order', () => {
    const host = ['tools: 8 tools', 'preamble', 'rules: AGENTS.md', 'project_context', 'session_date', 'conversation: 3 messages'];
    const slots = sourceSlots(host);
    expect(new Set(slots).size).toBe(host.length);
    expect(sourceSlots(['conversation: 9 messages', 'preamble'])).toEqual([slots[5], slots[1]]);
    // Unknown kinds take slots no known kind of the request uses.
    const mixed = sourceSlots(['preamble', 'something new', 'conversation: 1 message', 'another']);
    expect(new Set(mixed).size).toBe(4);
  });

  it('give thinking, web pages and images a colour each, apart from every other kind', () => {
    const all = [
      'preamble',
      'tools: 8 tools',
      'rules: AGENTS.md',
      'project_context',
      'session_date',
      'conversation: 3 messages',
      'mcp_tools',
    ];
    const slots = sourceSlots([...all, 'thinking', 'web_pages: 2 pages', 'images: 2 images']);
    expect(new Set(slots).size).toBe(slots.length);
  });
});
