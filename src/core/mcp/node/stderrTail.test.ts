import { describe, expect, it } from 'vitest';
import { StderrTail } from './stderrTail';

describe('StderrTail', () => {
  it('keeps only the last characters and quotes the last non-empty line, bounded', () => {
    const tail = new StderrTail(100);
    tail.append('first line\n'.repeat(50));
    tail.append(Buffer.from('Error: the last one\n\n'));
    expect(tail.lastLine()).toBe('Error: the last one');
    tail.append(`${'y'.repeat(90)}`);
    expect(tail.lastLine()).toBe('y'.repeat(90));
    const long = new StderrTail();
    long.append('z'.repeat(1000));
    expect(long.lastLine()).toBe(`${'z'.repeat(300)}…`);
    long.clear();
    expect(long.lastLine()).toBeUndefined();
  });
});
