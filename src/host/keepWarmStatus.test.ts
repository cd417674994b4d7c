import { describe, expect, it } from 'vitest';
import { keepWarmStatus } from './keepWarmStatus';

const NOW = Date.UTC(2026, 11, 6, 12, 0, 0);

describe('what the status bar says of keep-warm', () => {
  it('says nothing while the setting is off', () => {
    expect(keepWarmStatus({ kind: 'off' }, NOW)).toBeUndefined();
    expect(keepWarmStatus(undefined, NOW)).toBeUndefined();
  });

  it('marks the item while requests are planned, and says when the next goes and during what', () => {
    const away = keepWarmStatus(
      { kind: 'warming', during: 'pause', pingsSent: 1, pingsPlanned: 3, nextPingAt: NOW + 150_000, cacheExpiresAt: NOW + 180_000 },
      NOW,
    )!;
    expect(away.mark).toBe(' · $(flame) warm');
    expect(away.line).toMatch(/^Keeping the cache warm while you are away: 1 of 3 requests sent, the next in 3 min /);
    expect(away.line).toContain('cairn.cache.keepWarm');
    const run = keepWarmStatus(
      { kind: 'warming', during: 'tool_run', pingsSent: 0, pingsPlanned: 1, nextPingAt: NOW + 20_000, cacheExpiresAt: NOW + 50_000 },
      NOW,
    )!;
    expect(run.line).toMatch(/^Keeping the cache warm during a long tool run: 0 of 1 request sent, the next in 20 s /);
  });

  it('says why it stopped, or why nothing was planned, without the mark', () => {
    expect(keepWarmStatus({ kind: 'stopped', reason: 'cache_expired', pingsSent: 2 }, NOW)).toEqual({
      mark: '',
      line: 'Keep-warm stopped after 2 requests: the cache expired before the next request was due (the machine slept?).',
    });
    expect(keepWarmStatus({ kind: 'idle', reason: 'Not worth keeping warm.' }, NOW)).toEqual({
      mark: '',
      line: 'Keep-warm: Not worth keeping warm.',
    });
  });
});
