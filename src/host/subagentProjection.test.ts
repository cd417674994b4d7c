import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../core/agent/events';
import type { HostNotification } from '../shared/protocol';
import { ChatRelay } from './chatRelay';
import { EventProjection } from './eventProjection';
import type { OpenViews } from './openViews';

const wrap = (agentId: string, event: AgentEvent): AgentEvent => ({ type: 'subagent_event', agentId, event });

describe("a child's events as chat notifications", () => {
  afterEach(() => vi.useRealTimers());

  it("wraps the child's events under its id, adds no turn for its task message and names the child's approval", () => {
    const projection = new EventProjection(3);
    projection.project({ type: 'user_message', text: 'go' });
    const out = [
      {
        type: 'subagent_started',
        agent: { id: 'general-1', callId: 't1', kind: 'general', description: 'fix', prompt: 'Fix it', depth: 1 },
      },
      wrap('general-1', { type: 'user_message', text: 'Fix it' }),
      wrap('general-1', { type: 'approval_requested', callId: 't1', tool: 'bash', summary: 'bash make' }),
      wrap('general-1', wrap('explore-2', { type: 'text_delta', text: 'deep' })),
      wrap('general-1', {
        type: 'usage',
        requestIndex: 0,
        usage: { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
      }),
      wrap('general-1', { type: 'error', kind: 'rate_limited', message: 'Slow down.' }),
    ].flatMap((e) => projection.project(e as AgentEvent));
    expect(projection.currentTurn).toBe(3);
    expect(out).toEqual([
      { type: 'subagentStarted', turn: 3, agent: { id: 'general-1', callId: 't1', kind: 'general', description: 'fix', prompt: 'Fix it' } },
      {
        type: 'subagentEvent',
        turn: 3,
        agentId: 'general-1',
        event: { type: 'approvalRequested', turn: 3, callId: 't1', tool: 'bash', summary: 'bash make' },
      },
      {
        type: 'subagentEvent',
        turn: 3,
        agentId: 'general-1',
        event: { type: 'subagentEvent', turn: 3, agentId: 'explore-2', event: { type: 'textDelta', turn: 3, text: 'deep' } },
      },
      // A child's error carries no button: Retry would act on the session, not on the child.
      {
        type: 'subagentEvent',
        turn: 3,
        agentId: 'general-1',
        event: { type: 'error', turn: 3, kind: 'rate_limited', message: 'Slow down.' },
      },
    ]);
  });

  it("throttles each child's command output apart from the parent's and another child's with the same call id", () => {
    vi.useFakeTimers();
    const sent: HostNotification[] = [];
    const relay = new ChatRelay({ broadcast: (m: HostNotification) => sent.push(m) } as unknown as OpenViews);
    relay.relay({ type: 'user_message', text: 'go' });
    relay.relay({ type: 'tool_output', callId: 'c1', text: 'parent ' });
    relay.relay(wrap('general-1', { type: 'tool_output', callId: 'c1', text: 'one ' }));
    relay.relay(wrap('general-2', { type: 'tool_output', callId: 'c1', text: 'two ' }));
    relay.relay(wrap('general-1', { type: 'tool_output', callId: 'c1', text: 'more' }));
    expect(sent.filter((m) => m.type !== 'turnStarted')).toEqual([]);
    vi.advanceTimersByTime(150);
    const outputs = sent.flatMap((m) =>
      m.type === 'toolOutput'
        ? [['parent', m.text]]
        : m.type === 'subagentEvent' && m.event.type === 'toolOutput'
          ? [[m.agentId, m.event.text]]
          : [],
    );
    expect(outputs).toEqual([
      ['parent', 'parent '],
      ['general-1', 'one more'],
      ['general-2', 'two '],
    ]);
    relay.dispose();
  });
});
