import { describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../model/types';
import { CacheBreakDetector } from './cacheBreak';
import { encodeRequest } from './requestEncoding';

function request(messages: Message[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: 'm', max_tokens: 100,
    system: [{ type: 'text', text: 'system' }],
    tools: [{ name: 'read', description: 'Read a file', input_schema: { type: 'object', properties: {} } }],
    messages, ...overrides,
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
    const grown: Message = { role: 'user', content: [{ type: 'text', text: 'c' }, { type: 'text', text: 'd' }] };
    expect(detector.observe(encodeRequest(request([user('a'), assistant('b'), grown])), 0)).toBeNull();
    expect(detector.count).toBe(0);
  });

  it('names the first difference: a dropped message, a changed system block, tools, the model', () => {
    const detector = new CacheBreakDetector();
    detector.observe(encodeRequest(request([user('a'), assistant('b'), user('c')])), 0);
    expect(detector.observe(encodeRequest(request([user('a')])), 0)).toMatchObject({ zone: 'messages', index: 1, block: null });
    detector.observe(encodeRequest(request([user('a')])), 0);
    expect(detector.observe(encodeRequest(request([user('a')], { system: [{ type: 'text', text: 'system!' }] })), 0))
      .toMatchObject({ zone: 'system', index: 0, reason: expect.stringMatching(/system block 0 changed: first difference at character \d+/) });
    expect(detector.observe(encodeRequest(request([user('a')], { system: [{ type: 'text', text: 'system!' }], tools: [] })), 0))
      .toMatchObject({ zone: 'tools', index: 0 });
    expect(detector.observe(encodeRequest(request([user('a')], { model: 'n', tools: [] , system: [{ type: 'text', text: 'system!' }] })), 0))
      .toMatchObject({ zone: 'request', reason: 'model changed from m to n' });
    expect(detector.count).toBe(4);
  });

  it('flags a message that gained blocks after a later message was sent', () => {
    const detector = new CacheBreakDetector();
    detector.observe(encodeRequest(request([user('a'), assistant('b'), user('c')])), 0);
    const rewritten: Message = { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'late' }] };
    expect(detector.observe(encodeRequest(request([rewritten, assistant('b'), user('c')])), 0))
      .toMatchObject({ zone: 'messages', index: 0, block: 1 });
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
});
