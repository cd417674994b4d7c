/**
 * Keep-warm (`cairn.cache.keepWarm`, `src/core/session/keepWarm.ts`) through the headless runner and the local
 * server on one virtual clock: while the user is away 15 minutes, the session sends its planned minimal requests
 * at their time, and the next message reads the prefix a five-minute cache would have lost.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_COMPACTION_SETTINGS } from '../../core/compaction/settings';
import { parseScenario } from '../scenario/scenario';
import { runHeadless } from './runner';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function away15Minutes(keepWarm: 'off' | 'auto') {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-keep-warm-'));
  dirs.push(dir);
  return runHeadless({
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    compaction: { ...DEFAULT_COMPACTION_SETTINGS, cache: { ttl: '5m', keepWarm } },
    scenario: parseScenario({
      turns: [
        { user: 'hello' },
        { assistant: { text: 'hi' } },
        { user: 'back from a meeting', idle: 900 },
        { assistant: { text: 'welcome back' } },
      ],
    }),
  });
}

describe('keep-warm while the user is away', () => {
  it('sends its planned requests at their time, so the next message reads the prefix; off, it is written again', async () => {
    const off = await away15Minutes('off');
    const [, coldSecond] = off.server!.requests.filter((r) => r.kind === 'main');
    expect(coldSecond!.usage!.cache_read_input_tokens).toBe(0);
    expect(off.server!.requests.filter((r) => r.kind === 'keep_warm')).toHaveLength(0);

    const on = await away15Minutes('auto');
    const pings = on.server!.requests.filter((r) => r.kind === 'keep_warm');
    // Four and a half minutes apart: 3 in 15 minutes (the plan over the prior's 15- and 90-minute pauses).
    expect(pings).toHaveLength(3);
    for (const ping of pings) {
      expect((ping.body as { max_tokens: number }).max_tokens).toBe(1);
      expect(ping.usage!.cache_creation_input_tokens).toBe(0);
      expect(ping.usage!.cache_read_input_tokens).toBeGreaterThan(1024);
    }
    const [first, second] = on.server!.requests.filter((r) => r.kind === 'main');
    expect(second!.usage!.cache_read_input_tokens).toBeGreaterThanOrEqual(first!.usage!.cache_creation_input_tokens);
    // Each leaves a snapshot with the plan's prediction; the script's turns were all played by main requests.
    const snapshots = on.snapshots.filter((s) => s.purpose === 'keep_warm');
    expect(snapshots).toHaveLength(3);
    expect(snapshots[0]!.decisions[0]).toMatchObject({ kind: 'keep_warm', keepWarm: { planned: 3, ping: 1 } });
    expect(snapshots[0]!.decisions[0]!.keepWarm!.predictedSaving).toBeGreaterThan(0);
    expect(on.server!.notices).toEqual([]);
  });
});
