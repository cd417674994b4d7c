import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { OutputThrottle } from './outputThrottle';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

it("sends a command's output at most every interval, bounded, in order before other events", () => {
  const sent: [string, string][] = [];
  const throttle = new OutputThrottle((callId, text) => sent.push([callId, text]), 100, 10);
  for (let i = 0; i < 50; i++) throttle.add('a', `${i % 10}`);
  expect(sent).toEqual([]);
  vi.advanceTimersByTime(100);
  expect(sent).toEqual([['a', '0123456789']]);
  throttle.add('a', 'more');
  throttle.flush();
  expect(sent.at(-1)).toEqual(['a', 'more']);
  throttle.add('b', 'gone');
  throttle.drop('b');
  vi.advanceTimersByTime(500);
  expect(sent).toHaveLength(2);
});
