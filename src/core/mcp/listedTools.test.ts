import { describe, expect, it } from 'vitest';
import { listedToolsPage } from './listedTools';

describe('listedToolsPage', () => {
  it('copies only the fields of McpToolInfo, keeping an odd schema as sent', () => {
    const page = listedToolsPage('s', {
      tools: [
        {
          name: 'a',
          title: 'Tool A',
          description: 'does a',
          inputSchema: 'string',
          outputSchema: { type: 'object' },
          annotations: { readOnlyHint: true, idempotentHint: 'yes', destructiveHint: false, extra: 1 },
          _meta: { x: 1 },
        },
      ],
      nextCursor: 'next',
    });
    expect(page).toEqual({
      tools: [
        {
          server: 's',
          name: 'a',
          description: 'does a',
          inputSchema: 'string',
          annotations: { title: 'Tool A', readOnlyHint: true, destructiveHint: false },
        },
      ],
      dropped: [],
      nextCursor: 'next',
    });
  });

  it('drops entries with no name or a description that is not text, naming why; never throws', () => {
    const page = listedToolsPage('s', {
      tools: [null, 7, { inputSchema: {} }, { name: '' }, { name: 'd', description: { text: 'no' } }, { name: 'ok' }],
    });
    expect(page.tools).toEqual([{ server: 's', name: 'ok', inputSchema: undefined }]);
    expect(page.dropped).toEqual([
      's: tool #1 has no name; dropped.',
      's: tool #2 has no name; dropped.',
      's: tool #3 has no name; dropped.',
      's: tool #4 has no name; dropped.',
      's: tool "d" has a description that is not text; dropped.',
    ]);
  });

  it('reads an answer that is not a tool list as an empty page with the reason, and ignores an empty or non-text cursor', () => {
    expect(listedToolsPage('s', 'nope')).toEqual({ tools: [], dropped: ['s: its tools/list answer has no list of tools.'] });
    expect(listedToolsPage('s', { tools: [], nextCursor: '' }).nextCursor).toBeUndefined();
    expect(listedToolsPage('s', { tools: [], nextCursor: 3 }).nextCursor).toBeUndefined();
  });
});
