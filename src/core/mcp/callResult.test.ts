import { describe, expect, it } from 'vitest';
import { MAX_UNKNOWN_CONTENT_CHARS, mcpCallResult, mcpContent } from './callResult';

describe('mcpCallResult', () => {
  it('maps the protocol content types and keeps isError and structured content', () => {
    const result = mcpCallResult({
      content: [
        { type: 'text', text: 'hi', annotations: { audience: ['user'] } },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'BBBB' },
        { type: 'resource', resource: { uri: 'file:///a', mimeType: 'text/plain', text: 'a' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
      ],
      isError: true,
      structuredContent: { n: 1 },
    });
    expect(result).toEqual({
      content: [
        { type: 'text', text: 'hi' },
        { type: 'image', mimeType: 'image/png', data: 'AAAA' },
        { type: 'audio', mimeType: 'audio/wav', data: 'BBBB' },
        { type: 'resource', resource: { uri: 'file:///a', mimeType: 'text/plain', text: 'a' } },
        { type: 'resource_link', uri: 'file:///b', name: 'b' },
      ],
      isError: true,
      structuredContent: { n: 1 },
    });
  });

  it('names unknown or malformed contents as unknown, cut at a bound', () => {
    expect(mcpContent({ type: 'hologram', depth: 3 })).toEqual({ type: 'unknown', original: '{"type":"hologram","depth":3}' });
    expect(mcpContent({ type: 'text', text: 5 })).toEqual({ type: 'unknown', original: '{"type":"text","text":5}' });
    const big = mcpContent({ type: 'blob', data: 'x'.repeat(10_000) });
    expect(big).toMatchObject({ type: 'unknown', truncated: true });
    expect(big.type === 'unknown' ? big.original.length : 0).toBe(MAX_UNKNOWN_CONTENT_CHARS);
  });

  it('is undefined for an answer that is not a result; a missing content is an empty one', () => {
    expect(mcpCallResult('text')).toBeUndefined();
    expect(mcpCallResult({ content: 'not a list' })).toBeUndefined();
    expect(mcpCallResult({})).toEqual({ content: [], isError: false });
  });
});
