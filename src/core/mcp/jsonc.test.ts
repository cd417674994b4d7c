import { describe, expect, it } from 'vitest';
import { parseJsonc } from './jsonc';

describe('parseJsonc', () => {
  it('reads comments and trailing commas, and leaves // inside strings alone', () => {
    const text = `// servers for the app
{
  /* block
     comment */
  "servers": {
    "web": { "url": "https://example.com/mcp", }, // trailing comma above
    "tricky": { "command": "node", "args": ["a//b", "/* not a comment */", "quote \\" // still a string",], },
  },
}`;
    const parsed = parseJsonc(text);
    expect(parsed).toEqual({
      ok: true,
      value: {
        servers: {
          web: { url: 'https://example.com/mcp' },
          tricky: { command: 'node', args: ['a//b', '/* not a comment */', 'quote " // still a string'] },
        },
      },
    });
  });

  it('keeps a comma inside a string before a closing brace', () => {
    expect(parseJsonc('{"a": ",}"}')).toEqual({ ok: true, value: { a: ',}' } });
  });

  it('reads an empty file (or only comments) as nothing, and a byte order mark as blank', () => {
    expect(parseJsonc('  // nothing yet\n')).toEqual({ ok: true, value: undefined });
    expect(parseJsonc('\uFEFF{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  it('says where the JSON is wrong', () => {
    const parsed = parseJsonc('{\n  "servers": {\n    "a": 1 x\n  }\n}');
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error).toMatch(/line 3, column \d+/);
    const quoted = parseJsonc('{"token": sk-live-123}');
    expect(quoted).toEqual({ ok: false, error: "Unexpected token 's'" });
    const open = parseJsonc('{ /* never closed ');
    expect(open).toEqual({ ok: false, error: 'a /* comment is not closed (line 1, column 3)' });
  });
});
