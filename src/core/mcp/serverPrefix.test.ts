import { describe, expect, it } from 'vitest';
import { MAX_SERVER_PREFIX_CHARS, mcpServerPrefix } from './serverPrefix';

describe('mcpServerPrefix', () => {
  it('keeps a plain name, and writes what the API refuses as _', () => {
    expect(mcpServerPrefix('github')).toBe('github');
    expect(mcpServerPrefix('memory-2')).toBe('memory-2');
    expect(mcpServerPrefix('my tools')).toBe('my_tools');
    expect(mcpServerPrefix('my.tools')).toBe('my_tools');
  });

  it('never holds __ nor starts or ends with _, so the first __ after mcp__ ends it', () => {
    expect(mcpServerPrefix('github__x')).toBe('github_x');
    expect(mcpServerPrefix('a_')).toBe('a');
    expect(mcpServerPrefix('__a__b__')).toBe('a_b');
    for (const name of ['a_', '_', '__', 'x . y', '..', 'ü', 'a\u202eb', 'long'.repeat(20)]) {
      const prefix = mcpServerPrefix(name);
      expect(prefix, name).toMatch(/^[a-zA-Z0-9-](?:[a-zA-Z0-9-]|_(?!_))*$/);
      expect(prefix.endsWith('_'), name).toBe(false);
      expect(prefix.length, name).toBeLessThanOrEqual(MAX_SERVER_PREFIX_CHARS);
    }
  });

  it('gives a name with nothing usable, or one too long, a short hash, so different names stay apart', () => {
    expect(mcpServerPrefix('日本')).toMatch(/^server-[0-9a-f]{8}$/);
    expect(mcpServerPrefix('日本')).not.toBe(mcpServerPrefix('中国'));
    const a = mcpServerPrefix(`${'x'.repeat(40)}a`);
    const b = mcpServerPrefix(`${'x'.repeat(40)}b`);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^x{21}-[0-9a-f]{8}$/);
  });
});
