import { describe, expect, it } from 'vitest';
import { mcpResultText } from './resultText';

describe('mcpResultText', () => {
  it('joins text and text resources; names binary content by type and size, without its bytes', () => {
    const png = Buffer.alloc(3000, 1).toString('base64');
    const text = mcpResultText({
      isError: false,
      content: [
        { type: 'text', text: 'hello' },
        { type: 'image', mimeType: 'image/png', data: png },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inside' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', blob: Buffer.alloc(10).toString('base64') } },
        { type: 'resource_link', uri: 'file:///c', name: 'c' },
        { type: 'unknown', original: '{"type":"hologram"}' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'hello',
      '[image image/png, 2.9 KB: not shown]',
      '[resource file:///a.txt text/plain]',
      'inside',
      '[resource file:///b.bin, 10 bytes: binary, not shown]',
      '[resource link file:///c (c)]',
      '[content of a kind Cairn does not show: {"type":"hologram"}]',
    ]);
    expect(text).not.toContain(png.slice(0, 40));
  });

  it('shows structured content when there is nothing else, and says when there is no output at all', () => {
    expect(mcpResultText({ isError: false, content: [], structuredContent: { n: 1 } })).toBe('{\n  "n": 1\n}');
    expect(mcpResultText({ isError: false, content: [] })).toBe('(no output)');
  });
});
