import { describe, expect, it } from 'vitest';
import type { ChangePlan } from '../core/tools/changePlan';
import { WebviewApprover, type ChangeReviews } from './webviewApprover';

const request = (callId: string, tool = 'bash') => ({ callId, tool, input: {}, summary: `${tool} x` });

describe('WebviewApprover', () => {
  it('waits for the answer to its own call; other answers do nothing', async () => {
    const remembered: string[] = [];
    const approver = new WebviewApprover((grant) => remembered.push(`${grant.scope}:${grant.key}`));
    const pending = approver.request(request('a'), new AbortController().signal);
    expect(approver.answer('b', 'allow-once')).toBe(false);
    expect(approver.isPending('a')).toBe(true);
    expect(approver.answer('a', 'allow-always')).toBe(true);
    expect(await pending).toEqual({ kind: 'allow_always' });
    expect(remembered).toEqual(['user:bash']);
    // Answered once: a replay of the same answer is refused.
    expect(approver.answer('a', 'allow-once')).toBe(false);
  });

  it('takes a forged "always" to a bound\'s question as once, remembering no tool', async () => {
    const remembered: string[] = [];
    const approver = new WebviewApprover((grant) => remembered.push(`${grant.scope}:${grant.key}`));
    const bound = { setting: 'cairn.subagents.perTurn', text: 'The model wants to start 30 more sub-agents this turn.' };
    const pending = approver.request({ ...request('a', 'task'), bound }, new AbortController().signal);
    expect(approver.answer('a', 'allow-always')).toBe(true);
    expect(await pending).toEqual({ kind: 'allow' });
    expect(remembered).toEqual([]);
  });

  it('passes a denial reason on, and a cancel denies', async () => {
    const approver = new WebviewApprover(() => undefined);
    const denied = approver.request(request('a'), new AbortController().signal);
    approver.answer('a', 'deny', 'too risky');
    expect(await denied).toEqual({ kind: 'deny', reason: 'too risky' });

    const controller = new AbortController();
    const cancelled = approver.request(request('b'), controller.signal);
    controller.abort();
    expect(await cancelled).toEqual({ kind: 'deny', reason: 'cancelled' });
    expect(approver.pendingCount).toBe(0);
  });

  it('denyAll settles every waiting prompt', async () => {
    const approver = new WebviewApprover(() => undefined);
    const a = approver.request(request('a'), new AbortController().signal);
    const b = approver.request(request('b', 'write'), new AbortController().signal);
    approver.denyAll('closed');
    expect(await Promise.all([a, b])).toEqual([
      { kind: 'deny', reason: 'closed' },
      { kind: 'deny', reason: 'closed' },
    ]);
  });

  it("keys a child's prompt by its agent and call: the same call id in two agents are two prompts", async () => {
    const remembered: string[] = [];
    const approver = new WebviewApprover((grant) => remembered.push(`${grant.scope}:${grant.key}`));
    const parent = approver.request(request('toolu_1'), new AbortController().signal);
    const child = approver.request({ ...request('toolu_1', 'write'), agent: 'general-2' }, new AbortController().signal);
    expect(approver.pendingCount).toBe(2);
    expect(approver.isPending('toolu_1', 'general-2')).toBe(true);
    // An answer for another child (or no child) never reaches general-2's prompt.
    expect(approver.answer('toolu_1', 'allow-once', undefined, 'explore-1')).toBe(false);
    expect(approver.answer('toolu_1', 'allow-always', undefined, 'general-2')).toBe(true);
    expect(await child).toEqual({ kind: 'allow_always' });
    // "Always" for a child is the same as for the parent: the edit family, for the session's every agent.
    expect(remembered).toEqual(['user:edits']);
    expect(approver.isPending('toolu_1')).toBe(true);
    expect(approver.answer('toolu_1', 'deny', 'no')).toBe(true);
    expect(await parent).toEqual({ kind: 'deny', reason: 'no' });
  });
});

describe('WebviewApprover: allowances and reviews (issue 34, items 8 and 9)', () => {
  it('"this session" and "always" grant the edit family as one allowance, each with its scope', async () => {
    const granted: string[] = [];
    const approver = new WebviewApprover((grant) => granted.push(`${grant.scope}:${grant.key}:${grant.tool}`));
    const a = approver.request(request('a', 'apply_patch'), new AbortController().signal);
    approver.answer('a', 'allow-session');
    expect(await a).toEqual({ kind: 'allow_always' });
    const b = approver.request(request('b', 'multiedit'), new AbortController().signal);
    approver.answer('b', 'allow-always');
    await b;
    expect(granted).toEqual(['session:edits:apply_patch', 'user:edits:multiedit']);
  });

  it('approves what the user left in the diff editor, and ends the review however the call is answered', async () => {
    const plan: ChangePlan = {
      files: [{ relative: 'a.txt', displayPath: 'a.txt', before: 'one\n', after: 'two\n' }],
      changes: [{ relative: 'a.txt', displayPath: 'a.txt', kind: 'updated' }],
    };
    const ended: string[] = [];
    const fakeReviews: ChangeReviews = {
      begin: () => 'r1',
      open: async () => true,
      revised: () => new Map([['a.txt', 'three\n']]),
      end: async (id) => void ended.push(id),
    };
    const approver = new WebviewApprover(() => undefined, fakeReviews);
    const pending = approver.request({ ...request('a', 'edit'), proposal: plan }, new AbortController().signal);
    expect(approver.callOfReview('r1')).toEqual({ callId: 'a' });
    expect(await approver.openReview('a')).toBe(true);
    approver.answer('a', 'allow-once');
    expect(await pending).toEqual({ kind: 'allow', revised: new Map([['a.txt', 'three\n']]) });
    expect(ended).toEqual(['r1']);
    expect(await approver.openReview('a')).toBe(false);
  });
});
