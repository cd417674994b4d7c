import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/node/scenario/scenario';
import { idlePattern, longBreakSeconds, withIdlePattern } from './idlePattern';

const MINUTE = 60;

describe('idlePattern', () => {
  it('takes the long break as the median of the published 45–90 minute gaps: 60.4 minutes', () => {
    // 146 gaps in 45–60, 97 in 60–75 and a third of 161 in 75–90: 296.7, half of them past 60 minutes and 22 s.
    expect(longBreakSeconds()).toBe(3622);
  });

  it.each(Array.from({ length: 37 }, (_, i) => i + 4))(
    'a day of %i user turns: none before the first, most gaps under two minutes, ⌈0.27 × gaps⌉ over five, one of them 45–90 minutes',
    (turns) => {
      const pattern = idlePattern(turns);
      expect(pattern).toHaveLength(turns);
      expect(pattern[0]).toBe(0);
      const gaps = pattern.slice(1);
      const overFive = gaps.filter((g) => g > 5 * MINUTE);
      expect(overFive).toHaveLength(Math.ceil(0.27 * gaps.length));
      const long = gaps.filter((g) => g >= 45 * MINUTE);
      expect(long).toEqual([3622]);
      expect(gaps.indexOf(3622)).toBe(Math.floor(gaps.length / 2));
      for (const g of overFive.filter((g) => g < 45 * MINUTE)) {
        expect(g).toBeGreaterThanOrEqual(5 * MINUTE);
        expect(g).toBeLessThanOrEqual(30 * MINUTE);
      }
      const short = gaps.filter((g) => g <= 5 * MINUTE);
      for (const g of short) {
        expect(g).toBeGreaterThanOrEqual(15);
        expect(g).toBeLessThan(2 * MINUTE);
      }
      // Most, from six turns on; a day of four or five has half its gaps short.
      if (turns >= 6) expect(short.length).toBeGreaterThan(gaps.length / 2);
      else expect(short.length).toBeGreaterThanOrEqual(gaps.length / 2);
      expect(idlePattern(turns)).toEqual(pattern);
    },
  );

  it('is the pattern the long days use (ten user turns)', () => {
    expect(idlePattern(10)).toEqual([0, 18, 101, 470, 25, 3622, 71, 1150, 36, 50]);
  });

  it('gives a day too short for a long break its one gap over five minutes as a 5–30 minute one', () => {
    expect(idlePattern(0)).toEqual([]);
    expect(idlePattern(1)).toEqual([0]);
    expect(idlePattern(2)).toEqual([0, 735]);
    expect(idlePattern(3)).toEqual([0, 42, 735]);
    expect(() => idlePattern(2.5)).toThrow(RangeError);
  });

  it('puts idle on the user turns only, none where it is 0, and leaves every other turn as it was', () => {
    const assistant = { assistant: { text: 'ok' } };
    const turns = [{ user: 'a' }, assistant, { user: 'b' }, assistant, { user: 'c' }, assistant, { user: 'd' }, assistant];
    const played = withIdlePattern(turns);
    expect(played).toEqual([
      { user: 'a' },
      assistant,
      { user: 'b', idle: 25 },
      assistant,
      { user: 'c', idle: 3622 },
      assistant,
      { user: 'd', idle: 71 },
      assistant,
    ]);
    expect(turns[2]).toEqual({ user: 'b' });
  });
});

describe('the long days carry the pattern', () => {
  it.each(['yaml-day', 'diff-day', 'acorn-day'])('%s.json: the idle of its user turns is idlePattern of their count', (name) => {
    const file = join(__dirname, `${name}.json`);
    const scenario = parseScenario(JSON.parse(readFileSync(file, 'utf8')), file);
    const idle = scenario.turns.flatMap((t) => (t.kind === 'user' ? [t.idleSeconds ?? 0] : []));
    expect(idle.length).toBeGreaterThanOrEqual(9);
    expect(idle).toEqual(idlePattern(idle.length));
  });
});
