import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../core/agent/events';
import { defaultModel } from '../../core/model/defaultModel';
import { loadScenario } from '../scenario/scenario';
import { runHeadless, type HeadlessOptions } from './runner';
import type { CapQuestion } from '../../core/spending/spendingCap';

/**
 * Issue 32 §3 through the real loop, sub-agents and the local server: the sub-agents sample (the parent
 * starts two explore children in one response, then a general child, then answers), with a turn cap.
 *
 * The prices make every estimate the same, whatever the prompts weigh: output costs $1,000 per million
 * tokens and a response may have 1,000, so each request is estimated at $1.00 (its prompt at a thousandth
 * of a cent per million), while what it is billed is its real output: the parent's first answer, 84 tokens,
 * $0.084. With a cap of $1.05 the first request goes ($0 + $1.00), each child's share is half of what is
 * left ($0.48, less than a request) so both stop before their first request, and the parent's second
 * request ($0.084 + $1.00) could pass the cap: the user is asked.
 */
const SAMPLE = resolve(__dirname, '..', 'scenario', 'samples', 'subagents.json');

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function capped(pastCap: 'stop' | 'once', asked: CapQuestion[] = []): Promise<Awaited<ReturnType<typeof runHeadless>>> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-cap-'));
  dirs.push(dir);
  const scenario = await loadScenario(SAMPLE);
  const model = scenario.model.id ?? defaultModel();
  const options: HeadlessOptions = {
    workspaceDir: join(dir, 'w'),
    outDir: join(dir, 'out'),
    scenario,
    loop: { maxTokens: 1000 },
    prices: { [model]: { input: 0.001, output: 1000, cacheWrite: 0.001, cacheRead: 0.001 } },
    spending: {
      caps: { turn: 1.05 },
      approver: {
        askPastCap: async (question) => {
          asked.push(question);
          return { kind: pastCap };
        },
      },
    },
    onNotice: () => undefined,
  };
  return runHeadless(options);
}

function notices(events: readonly AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'notice' && e.kind === 'budget' ? [e.message] : []));
}

describe('a turn spending cap, with sub-agents, through the local server', () => {
  it('stops the turn before the request that would pass it: children at their share, the parent when asked (stop)', async () => {
    const asked: CapQuestion[] = [];
    const result = await capped('stop', asked);
    expect(asked.map((q) => [q.scope, q.capUsd, q.agent])).toEqual([['turn', 1.05, undefined]]);
    expect(asked[0]!.text).toContain('Continue once: this request goes');
    const main = result.server!.requests.filter((r) => r.kind === 'main');
    // The parent's first request only; no child sent any.
    expect(main.map((r) => r.agent ?? 'parent')).toEqual(['parent']);
    expect(result.doneReasons).toEqual(['budget']);
    expect(result.children.map((c) => [c.agent.id, c.outcome?.reason, c.snapshots.length])).toEqual([
      ['explore-1', 'budget', 0],
      ['explore-2', 'budget', 0],
    ]);
    const [stop] = notices(result.events);
    expect(stop).toMatch(
      /^Stopped before a request that could pass this turn's spending cap: \$0\.\d{4} spent of \$1\.0500 \(cairn\.budget\.turn\)/,
    );
    const spent = Number(/: \$(\d+\.\d+) spent/.exec(stop!)![1]);
    const next = Number(/could cost up to \$(\d+\.\d+)/.exec(stop!)![1]);
    expect(spent).toBeLessThanOrEqual(1.05);
    expect(spent + next).toBeGreaterThan(1.05);
    // Every call was answered: each task call the parent made has its result, saying why its child stopped.
    const started = result.events.filter((e) => e.type === 'tool_started').map((e) => (e as { callId: string }).callId);
    const finished = result.events.flatMap((e) => (e.type === 'tool_finished' ? [e] : []));
    expect(finished.map((e) => e.callId)).toEqual(started);
    expect(finished).toHaveLength(2);
    for (const f of finished) expect(f.result.text).toContain("could pass its share of the turn's spending cap");
  }, 120_000);

  it('"continue once" lets that request go, and the next one past the cap asks again', async () => {
    const asked: CapQuestion[] = [];
    const result = await capped('once', asked);
    // Asked before the parent's second request and again before its third.
    expect(asked).toHaveLength(2);
    const parent = result.server!.requests.filter((r) => r.kind === 'main' && r.agent === undefined);
    expect(parent).toHaveLength(3);
    expect(result.doneReasons).toEqual(['end_turn']);
    expect(result.children.map((c) => [c.agent.id, c.outcome?.reason])).toEqual([
      ['explore-1', 'budget'],
      ['explore-2', 'budget'],
      ['general-3', 'budget'],
    ]);
  }, 120_000);
});
