import { describe, expect, it } from 'vitest';
import { WebviewApprover } from './webviewApprover';

const request = (callId: string, tool = 'bash') => ({ callId, tool, input: {}, summary: `${tool} x` });

describe('WebviewApprover', () => {
  it('waits for the answer to its own call; other answers do nothing', async () => {
    const remembered: string[] = [];
    const approver = new WebviewApprover((tool) => remembered.push(tool));
    const pending = approver.request(request('a'), new AbortController().signal);
    expect(approver.answer('b', 'allow-once')).toBe(false);
    expect(approver.isPending('a')).toBe(true);
    expect(approver.answer('a', 'allow-always')).toBe(true);
    expect(await pending).toEqual({ kind: 'allow_always' });
    expect(remembered).toEqual(['bash']);
    // Answered once: a replay of the same answer is refused.
    expect(approver.answer('a', 'allow-once')).toBe(false);
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
});
