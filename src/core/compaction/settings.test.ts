import { describe, expect, it } from 'vitest';
import { CompactionSettingsError, parseThreshold, softLimitTokens } from './settings';

describe('cairn.compaction.threshold', () => {
  it('reads shares and token counts', () => {
    expect(parseThreshold(0.8)).toEqual({ kind: 'share', value: 0.8 });
    expect(parseThreshold('75%')).toEqual({ kind: 'share', value: 0.75 });
    expect(parseThreshold(150000)).toEqual({ kind: 'tokens', value: 150000 });
    expect(parseThreshold('900000')).toEqual({ kind: 'tokens', value: 900000 });
  });

  it('refuses what is neither, saying both forms', () => {
    for (const bad of [0, -1, '150%', 'lots', 12.5, 500, null]) {
      expect(() => parseThreshold(bad)).toThrow(CompactionSettingsError);
    }
    expect(() => parseThreshold('lots')).toThrow(/0\.8 or "80%".*150000/);
  });

  it('caps an absolute threshold below the window', () => {
    expect(softLimitTokens({ kind: 'share', value: 0.8 }, 200000)).toBe(160000);
    expect(softLimitTokens({ kind: 'tokens', value: 500000 }, 200000)).toBe(199999);
  });
});
