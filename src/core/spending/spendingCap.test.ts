import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/events';
import type { RequestSnapshot } from '../compose/snapshot';
import { SpendingCap, type CapAnswer, type CapQuestion } from './spendingCap';
import type { NextRequest } from './requestCost';

/** $1 per million tokens of everything, so a request of N tokens is N millionths of a dollar. */
const PRICES = { 'test-model': { input: 1, output: 1, cacheWrite: 1, cacheRead: 1 } };
const signal = new AbortController().signal;

function next(promptTokens: number, maxTokens = 0): NextRequest {
  return { model: 'test-model', promptTokens, previousPromptTokens: 0, sinceAnswerMs: undefined, maxTokens };
}

function finished(usd: number): AgentEvent {
  return { type: 'request_finished', requestIndex: 0, snapshot: { cost: { usd } } as RequestSnapshot };
}

function answering(...answers: CapAnswer[]): { asked: CapQuestion[]; approver: { askPastCap: (q: CapQuestion) => Promise<CapAnswer> } } {
  const asked: CapQuestion[] = [];
  return { asked, approver: { askPastCap: async (q) => (asked.push(q), answers.shift() ?? { kind: 'stop' }) } };
}

describe('the spending cap', () => {
  it('sends what fits, and asks before a request that could pass it', async () => {
    const { asked, approver } = answering({ kind: 'stop' });
    const cap = new SpendingCap(() => ({ turn: 1 }), PRICES, approver);
    expect(await cap.beforeRequest(next(600_000), signal)).toBeUndefined();
    cap.note(finished(0.6));
    const stop = await cap.beforeRequest(next(500_000), signal);
    expect(asked.map((q) => [q.scope, q.capUsd, q.spentUsd, q.estimateUsd])).toEqual([['turn', 1, 0.6, 0.5]]);
    expect(stop).toContain("Stopped before a request that could pass this turn's spending cap: $0.6000 spent of $1.0000");
    // Stopped for the rest of the turn, without asking again; a new turn starts afresh.
    expect(await cap.beforeRequest(next(1), signal)).toBe(stop);
    cap.startTurn();
    expect(await cap.beforeRequest(next(1), signal)).toBeUndefined();
    expect(cap.status()).toEqual({ turnUsd: 0, sessionUsd: 0.6, turnCapUsd: 1 });
  });

  it('raise: a higher cap for the rest of the turn; past it, it asks again', async () => {
    const { asked, approver } = answering({ kind: 'raise', capUsd: 2 }, { kind: 'once' });
    const cap = new SpendingCap(() => ({ turn: 1 }), PRICES, approver);
    cap.note(finished(0.9));
    expect(await cap.beforeRequest(next(500_000), signal)).toBeUndefined();
    cap.note(finished(0.5));
    expect(cap.status().turnCapUsd).toBe(2);
    expect(await cap.beforeRequest(next(700_000), signal)).toBeUndefined();
    expect(asked.map((q) => q.capUsd)).toEqual([1, 2]);
  });

  it("with no one to ask, or an answerer that fails, stops: a cap is never passed on nobody's word", async () => {
    const alone = new SpendingCap(() => ({ session: 0.1 }), PRICES, undefined, 0.09);
    expect(await alone.beforeRequest(next(20_000), signal)).toContain("this session's spending cap");
    const failing = new SpendingCap(() => ({ turn: 0.1 }), PRICES, { askPastCap: () => Promise.reject(new Error('closed')) });
    expect(await failing.beforeRequest(next(200_000), signal)).toContain('Stopped before');
  });

  it('counts the expected cache at its price, and the whole output limit', async () => {
    const cheapCache = { 'test-model': { input: 1, output: 10, cacheWrite: 2, cacheRead: 0.1 } };
    const { asked, approver } = answering({ kind: 'stop' });
    const cap = new SpendingCap(() => ({ turn: 0.0001 }), cheapCache, approver);
    await cap.beforeRequest(
      { model: 'test-model', promptTokens: 1000, previousPromptTokens: 800, sinceAnswerMs: 1000, maxTokens: 100 },
      signal,
    );
    // 800 cached at 0.1, 200 written at 2, 100 output at 10 (per million).
    expect(asked[0]!.estimateUsd).toBeCloseTo((800 * 0.1 + 200 * 2 + 100 * 10) / 1e6, 12);
    // Past the cache's lifetime, all of it is written again.
    await cap.beforeRequest(
      { model: 'test-model', promptTokens: 1000, previousPromptTokens: 800, sinceAnswerMs: 600_000, maxTokens: 100 },
      signal,
    );
    expect(asked).toHaveLength(1);
  });

  it("a child stops at its share (half of what the turn had left) without asking; children's costs count in the turn", async () => {
    const { asked, approver } = answering();
    const cap = new SpendingCap(() => ({ turn: 1 }), PRICES, approver);
    cap.note(finished(0.2));
    const share = cap.shareForChild()!;
    expect(share.limitUsd).toBeCloseTo(0.4, 10);
    expect(await cap.beforeRequest(next(300_000), signal, { agent: 'explore-1', share })).toBeUndefined();
    share.spentUsd += 0.3;
    cap.note({ type: 'subagent_event', agentId: 'explore-1', event: finished(0.3) });
    expect(cap.status().turnUsd).toBeCloseTo(0.5, 10);
    expect(await cap.beforeRequest(next(200_000), signal, { agent: 'explore-1', share })).toContain(
      "explore-1 stopped before a request that could pass its share of the turn's spending cap",
    );
    expect(asked).toEqual([]);
  });

  it('no cap, or a model without a price: never asks', async () => {
    const { asked, approver } = answering();
    expect(await new SpendingCap(() => ({}), PRICES, approver).beforeRequest(next(1e9), signal)).toBeUndefined();
    const unpriced = new SpendingCap(() => ({ turn: 0.01 }), PRICES, approver);
    expect(await unpriced.beforeRequest({ ...next(1e9), model: 'unknown-model' }, signal)).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
