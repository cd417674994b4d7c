import { describe, expect, it } from 'vitest';
import { BoundedOutput } from './boundedOutput';

describe('BoundedOutput', () => {
  it('keeps everything under the bound', () => {
    const output = new BoundedOutput(100);
    output.append('hello ');
    output.append('world\n');
    expect(output.text()).toBe('hello world\n');
    expect(output.omittedChars).toBe(0);
  });

  it('keeps the first and last halves and counts the middle, whatever the chunk sizes', () => {
    const text = Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join('');
    for (const size of [1, 7, 64, 5000]) {
      const output = new BoundedOutput(200);
      for (let i = 0; i < text.length; i += size) output.append(text.slice(i, i + size));
      expect(output.omittedChars).toBe(text.length - 200);
      expect(output.text()).toBe(
        `${text.slice(0, 100)}\n[${text.length - 200} characters of output not kept in memory]\n${text.slice(-100)}`,
      );
    }
  });
});
