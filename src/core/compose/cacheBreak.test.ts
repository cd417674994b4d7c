import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest, ToolDefinition } from '../model/types';
import { CacheBreakDetector, cacheBreakWhere } from './cacheBreak';
import { encodeRequest } from './requestEncoding';

function request(messages: Message[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'm',
    max_tokens: 100,
    system: [{ type: 'text', text: 'system' }],
    tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: {} } }],
    messages,
    ...overrides,
  };
}

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const assistant = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('CacheBreakDetector', () => {
  it('accepts appended messages, moved markers and blocks added to the newest message', () => {
    const detector = new CacheBreakDetector();
    expect(detector.observe(encodeRequest(request([user('a')])), 0)).toBeNull();
    const marked: Message = { role: 'user', content: [{ type: 'text', text: 'a', cache_control: { type: 'ephemeral' } }] };
    expect(detector.observe(encodeRequest(request([marked, assistant('b'), user('c')])), 0)).toBeNull();
    const grown: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'c' },
        { type: 'text', text: 'd' },
      ],
    };
    expect(detector.observe(encodeRequest(request([user('a'), assistant('b'), grown])), 0)).toBeNull();
    expect(detector.count).toBe(0);
  });

  it('names the first difference: a dropped message, a changed system block, tools, the model', () => {
    const detector = new CacheBreakDetector();
    detector.observe(encodeRequest(request([user('a'), assistant('b'), user('c')])), 0);
    expect(detector.observe(encodeRequest(request([user('a')])), 0)).toMatchObject({ zone: 'messages', index: 1, block: null });
    detector.observe(encodeRequest(request([user('a')])), 0);
    expect(detector.observe(encodeRequest(request([user('a')], { system: [{ type: 'text', text: 'system!' }] })), 0)).toMatchObject({
      zone: 'system',
      index: 0,
      reason: expect.stringMatching(/system block 0 changed: first difference at character \d+/),
    });
    expect(
      detector.observe(encodeRequest(request([user('a')], { system: [{ type: 'text', text: 'system!' }], tools: [] })), 0),
    ).toMatchObject({ zone: 'tools', index: 0 });
    expect(
      detector.observe(encodeRequest(request([user('a')], { model: 'n', tools: [], system: [{ type: 'text', text: 'system!' }] })), 0),
    ).toMatchObject({ zone: 'request', where: 'the model changed', reason: 'the model changed: from m to n' });
    expect(detector.count).toBe(4);
  });

  it('flags a message that gained blocks after a later message was sent', () => {
    const detector = new CacheBreakDetector();
    detector.observe(encodeRequest(request([user('a'), assistant('b'), user('c')])), 0);
    const rewritten: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'late' },
      ],
    };
    expect(detector.observe(encodeRequest(request([rewritten, assistant('b'), user('c')])), 0)).toMatchObject({
      zone: 'messages',
      index: 0,
      block: 1,
    });
  });

  it('compares only within a generation, and peek neither remembers nor counts', () => {
    const detector = new CacheBreakDetector();
    detector.observe(encodeRequest(request([user('a'), assistant('b')])), 0);
    expect(detector.peek(encodeRequest(request([user('z')])), 0)).toMatchObject({ index: 0, block: 0 });
    expect(detector.count).toBe(0);
    expect(detector.observe(encodeRequest(request([user('summary')])), 1)).toBeNull();
    detector.reset();
    expect(detector.observe(encodeRequest(request([user('other')])), 1)).toBeNull();
  });

  describe('names the zone and the part that changed', () => {
    const bash: ToolDefinition = {
      name: 'bash',
      description: 'Run a command',
      input_schema: { type: 'object', properties: { command: { type: 'string' } } },
    };
    const read: ToolDefinition = { name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: {} } };
    const tools = [bash, read];
    const first = (detector: CacheBreakDetector, overrides: Partial<ModelRequest>, labels: string[] = []): void => {
      expect(detector.observe(encodeRequest(request([user('a')], { tools, ...overrides })), 0, labels)).toBeNull();
    };

    it('one tool description changed: the tool by name, not "message 0"', () => {
      const detector = new CacheBreakDetector();
      first(detector, {});
      const found = detector.observe(
        encodeRequest(request([user('a')], { tools: [{ ...bash, description: 'Run a shell command' }, read] })),
        0,
      );
      expect(found).toMatchObject({ zone: 'tools', index: 0, block: null, where: 'tools: the description of `bash` changed' });
      expect(found?.reason).toMatch(/^tools: the description of `bash` changed: first difference at character \d+: /);
    });

    it('a tool schema changed, a tool added, a tool removed', () => {
      const detector = new CacheBreakDetector();
      first(detector, {});
      const schema: ToolDefinition = { ...read, input_schema: { type: 'object', properties: { path: { type: 'string' } } } };
      expect(detector.observe(encodeRequest(request([user('a')], { tools: [bash, schema] })), 0)).toMatchObject({
        zone: 'tools',
        index: 1,
        where: 'tools: the input schema of `read` changed',
      });
      const grep: ToolDefinition = { name: 'grep', description: 'Search', input_schema: { type: 'object', properties: {} } };
      expect(detector.observe(encodeRequest(request([user('a')], { tools: [bash, grep, schema] })), 0)).toMatchObject({
        zone: 'tools',
        index: 1,
        where: 'tools: `grep` added',
      });
      expect(detector.observe(encodeRequest(request([user('a')], { tools: [grep, schema] })), 0)).toMatchObject({
        zone: 'tools',
        index: 0,
        where: 'tools: `bash` removed',
      });
      expect(detector.observe(encodeRequest(request([user('a')], { tools: [schema, grep] })), 0)).toMatchObject({
        zone: 'tools',
        where: 'tools: the tools are in another order',
      });
    });

    it('a system block by index and, when known, by source', () => {
      const detector = new CacheBreakDetector();
      const system = [
        { type: 'text' as const, text: 'preamble' },
        { type: 'text' as const, text: 'rules' },
        { type: 'text' as const, text: 'tree' },
      ];
      const labels = ['preamble', 'rules AGENTS.md', 'project context'];
      first(detector, { system }, labels);
      const changed = system.map((b, i) => (i === 2 ? { ...b, text: 'tree!' } : b));
      expect(detector.observe(encodeRequest(request([user('a')], { tools, system: changed })), 0, labels)).toMatchObject({
        zone: 'system',
        index: 2,
        where: 'system block 2 (project context) changed',
      });
      expect(
        detector.observe(encodeRequest(request([user('a')], { tools, system: changed.slice(0, 1) })), 0, labels.slice(0, 1)),
      ).toMatchObject({ zone: 'system', index: 1, where: 'system part changed: system block 1 (rules AGENTS.md) removed' });
      // From a logged body nobody knows the sources: the index alone.
      const plain = new CacheBreakDetector();
      first(plain, { system });
      expect(plain.observe(encodeRequest(request([user('a')], { tools, system: changed })), 0)).toMatchObject({
        where: 'system block 2 changed',
      });
    });

    it('a message by index, role and block', () => {
      const detector = new CacheBreakDetector();
      detector.observe(encodeRequest(request([user('a'), assistant('b'), user('c')])), 0);
      expect(detector.observe(encodeRequest(request([user('a'), assistant('B'), user('c')])), 0)).toMatchObject({
        zone: 'messages',
        index: 1,
        block: 0,
        where: 'message 1 (assistant) block 0 (text) changed',
      });
    });

    it('snapshots journalled before `where` get a location from zone, index and block', () => {
      expect(cacheBreakWhere({ zone: 'tools', index: 3, block: null })).toBe('tools: tool definition 3 changed');
      expect(cacheBreakWhere({ zone: 'system', index: 2, block: null })).toBe('system block 2 changed');
      expect(cacheBreakWhere({ zone: 'messages', index: 4, block: 1 })).toBe('message 4 block 1 changed');
      expect(cacheBreakWhere({ zone: 'tools', index: 0, block: null, where: 'tools: `x` added' })).toBe('tools: `x` added');
    });
  });
});
