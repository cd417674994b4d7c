/**
 * The cache lifetime a main request buys (`cacheLifetime.ts`, `cairn.cache.ttl`), against the local server's
 * prompt cache on one clock shared with the composer: a user's pause between five minutes and an hour costs a
 * five-minute cache the whole prefix, and under "auto" the prefix up to the turn start survives it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../node/localServer/server';
import { parseScenario } from '../../node/scenario/scenario';
import type { ModelRequest, ModelUsage } from '../model/types';
import { TOOL_DEFINITIONS } from '../tools/definitions';
import { ScriptedSession } from '../../../test/support/compose/scriptedSession';
import { Composer } from './composer';
import type { CacheTtlSetting } from './cacheTtlChoice';
import { DecisionQueue } from './decisions';
import type { RequestSnapshot } from './snapshot';

const MODEL = 'claude-sonnet-4-5';
const MINUTE = 60_000;
let server: LocalServer | undefined;
let now = 1_000_000;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function send(request: ModelRequest): Promise<ModelUsage & { cache_creation?: { ephemeral_1h_input_tokens: number } }> {
  const response = await fetch(`${server!.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'test', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ ...request, stream: false }),
  });
  const body = (await response.json()) as { usage?: ModelUsage; error?: { message: string } };
  if (!response.ok || !body.usage) throw new Error(`server answered ${response.status}: ${body.error?.message ?? 'no usage'}`);
  return body.usage;
}

/** Tool steps per turn: more than the API's 20-block lookback, as in a real turn. */
const STEPS = 12;

/**
 * Three user turns of twelve tool steps each, a minute and then `pauseMinutes` apart: the last turn's first request,
 * and every snapshot. (The session's first request writes everything, so an hour bought there costs 0.75 × the
 * whole prefix for one pause's chance: the cost model waits for a turn start it can buy cheaply, the second.)
 */
async function threeTurns(setting: CacheTtlSetting, pauseMinutes: number) {
  const turns = Array.from({ length: 3 * (STEPS + 1) + 1 }, () => ({ assistant: { text: 'ok' } }));
  server = await startLocalServer({ scenario: parseScenario({ about: 'lifetimes', model: { id: MODEL }, turns }), clock: () => now });
  const composer = new Composer({
    decisions: new DecisionQueue(),
    tools: TOOL_DEFINITIONS,
    preamble: 'You are Cairn, a coding agent.',
    rules: { load: async () => [] },
    projectContext: { load: async () => ({ folders: [] }) },
    sessionDate: '2026-12-06',
    clock: { now: () => now },
    cacheTtl: () => setting,
  });
  await composer.prepare();
  const session = new ScriptedSession(5);
  const snapshots: RequestSnapshot[] = [];
  /** Tokens each request wrote at the hour's price. */
  const hourWrites: number[] = [];
  const request = async () => {
    const { request: body, snapshot } = composer.compose({
      model: MODEL,
      maxTokens: 1024,
      generation: 0,
      conversation: session.messages,
      purpose: 'main',
      decisions: [],
    });
    snapshots.push(snapshot);
    const usage = await send(body);
    hourWrites.push(usage.cache_creation?.ephemeral_1h_input_tokens ?? 0);
    now += 10_000;
    return { body, usage };
  };
  const turn = async (text: string) => {
    session.user(text);
    for (let i = 0; i < STEPS; i++) {
      await request();
      session.step();
    }
    await request();
    session.reply();
  };
  await turn('The cache misses on every request. Find out why and fix it.');
  now += MINUTE;
  await turn('Good. Now write a test that fails without the fix.');
  now += pauseMinutes * MINUTE;
  session.user('Now make the cache report its hit share in the status line.');
  const back = await request();
  return { back, snapshots, hourWrites };
}

describe('the cache lifetime a request buys', () => {
  it('"auto" keeps the prefix up to the turn start through a 20-minute pause, which five minutes lose', async () => {
    const fiveMinutes = await threeTurns('5m', 20);
    expect(fiveMinutes.back.usage.cache_read_input_tokens).toBe(0);
    await server!.close();
    server = undefined;
    const auto = await threeTurns('auto', 20);
    // Everything up to the second turn's start (tools, system, the whole first turn) is read, not written again:
    // the request marks that turn start (more than 20 blocks back), where the hour's entry lives.
    const secondStart = auto.snapshots[STEPS + 1]!.estimate.rawTokens;
    expect(auto.back.usage.cache_read_input_tokens).toBeGreaterThan(secondStart * 0.9);
    // One-hour markers come first (tools/system, then the turn start), five-minute ones after: the server took it.
    const ttls = [
      ...auto.back.body.tools.map((tool) => tool.cache_control?.ttl ?? (tool.cache_control ? '5m' : undefined)),
      ...auto.back.body.system.map((block) => block.cache_control?.ttl ?? (block.cache_control ? '5m' : undefined)),
      ...auto.back.body.messages.flatMap((m) =>
        m.content.map((block) => {
          const control = 'cache_control' in block ? block.cache_control : undefined;
          return control?.ttl ?? (control ? '5m' : undefined);
        }),
      ),
    ].filter((ttl) => ttl !== undefined);
    expect(ttls[0]).toBe('1h');
    expect(ttls).toContain('1h');
    expect(ttls.indexOf('5m') === -1 || ttls.lastIndexOf('1h') < ttls.indexOf('5m')).toBe(true);
    // Each turn start is judged once, with the cost model's figures for the report.
    const judged = auto.snapshots.flatMap((s) => s.decisions.filter((d) => d.kind === 'cache_ttl'));
    expect(judged).toHaveLength(3);
    expect(judged[0]!.lifetime).toMatchObject({ stable: '5m', tail: '5m' });
    expect(judged[1]!.lifetime).toMatchObject({ stable: '1h', tail: '5m' });
    expect(judged[1]!.lifetime!.predictedSaving).toBeGreaterThan(0);
    expect(fiveMinutes.snapshots.flatMap((s) => s.decisions.filter((d) => d.kind === 'cache_ttl'))).toHaveLength(0);
  });

  it('"auto" writes the running turn’s tail at five minutes: only a turn start is bought for an hour', async () => {
    const auto = await threeTurns('auto', 1);
    // The second turn: its first request buys the hour, the rest mark the turn start again and write their tail at five minutes.
    const second = auto.snapshots.slice(STEPS + 1, 2 * (STEPS + 1));
    const newest = (s: RequestSnapshot) => s.breakpoints[s.breakpoints.length - 1]!;
    expect(newest(second[0]!).ttl).toBe('1h');
    for (const later of second.slice(1)) {
      expect(newest(later).ttl).toBeUndefined();
      expect(later.breakpoints.some((b) => b.zone === 'messages' && b.ttl === '1h')).toBe(true);
    }
    expect(auto.hourWrites.slice(STEPS + 2, 2 * (STEPS + 1)).every((tokens) => tokens === 0)).toBe(true);
    expect(auto.hourWrites[STEPS + 1]).toBeGreaterThan(0);
  });
});
