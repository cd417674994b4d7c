import { describe, expect, it } from 'vitest';
import type { LoggedRequest } from '../../src/node/localServer/server';
import { childrenTotal, delegationFigures, delegationMarkdown, finalContext, splitByAgent } from './delegation';
import { measureRun } from './measure';

let index = 0;
function logged(texts: string[], usage: [uncached: number, write: number, read: number], agent?: string): LoggedRequest {
  const body = {
    model: 'm',
    max_tokens: 10,
    tools: [],
    system: [{ type: 'text', text: agent ? `child ${agent}` : 'parent' }],
    messages: texts.map((text, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text }] })),
  };
  return {
    index: index++,
    kind: 'main',
    method: 'POST',
    path: '/v1/messages',
    body,
    rawBody: JSON.stringify(body),
    status: 200,
    usage: { input_tokens: usage[0], cache_creation_input_tokens: usage[1], cache_read_input_tokens: usage[2], output_tokens: 5 },
    ...(agent ? { agent } : {}),
  };
}

/** A parent whose two children run interleaved between its first and second request. */
const delegated = [
  logged(['task'], [0, 100, 0]),
  logged(['grep a'], [0, 80, 0], 'explore-1'),
  logged(['grep b'], [0, 80, 0], 'explore-2'),
  logged(['grep a', 'read', 'x'], [0, 500, 80], 'explore-1'),
  logged(['grep b', 'read', 'y'], [0, 400, 80], 'explore-2'),
  logged(['task', 'call', 'answers'], [0, 60, 100]),
  logged(['task', 'call', 'answers', 'edit', 'done'], [0, 20, 160]),
];
const inline = [
  logged(['task'], [0, 100, 0]),
  logged(['task', 'grep', 'a'], [0, 90, 100]),
  logged(['task', 'grep', 'a', 'read', 'x'], [0, 600, 190]),
  logged(['task', 'grep', 'a', 'read', 'x', 'edit', 'done'], [0, 30, 790]),
];

describe('delegation figures', () => {
  it("follows each agent's conversation on its own: interleaved children are not cache breaks of the parent", () => {
    expect(measureRun(delegated).cacheBreaks).toBe(0);
    // Without the agent marks the same requests look like a broken prefix at every switch.
    expect(measureRun(delegated.map(({ agent: _agent, ...r }) => r)).cacheBreaks).toBeGreaterThan(0);
  });

  it("splits the log by agent, and sets the parent's own cost and context against the inline twin, children counted apart", () => {
    const { parent, children } = splitByAgent(delegated);
    expect(parent).toHaveLength(3);
    expect([...children.keys()]).toEqual(['explore-1', 'explore-2']);
    expect(finalContext(parent)).toBe(180);
    const figures = delegationFigures('twin', delegated, inline);
    expect(figures.parent.requests).toBe(3);
    expect(figures.parent.peakContext).toBe(180);
    expect(figures.inline.peakContext).toBe(820);
    expect(figures.children.map((c) => [c.agent, c.figures.requests])).toEqual([
      ['explore-1', 2],
      ['explore-2', 2],
    ]);
    const kids = childrenTotal(figures);
    expect(kids.requests).toBe(4);
    expect(kids.billed).toBeCloseTo(1.25 * 1060 + 0.1 * 160);
    const text = delegationMarkdown(figures).join('\n');
    expect(text).toContain('| child explore-1 | 2 |');
    expect(text).toContain('| parent + children | 7 |');
    expect(text).toMatch(/peak context 22% \(180 vs 820 tokens\)/);
    expect(text).toMatch(/the delegating run bills \d+% of the inline one/);
  });
});
