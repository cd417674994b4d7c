/**
 * The loop's state machine: tool calls and their approval (see `agentLoop.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { replyText, replyTools } from '../../../test/support/model/scriptedModel';
import { lastMessage, loopWith, ofType, text, toolResults, user } from '../../../test/support/agent/loopHarness';
import { denialMessage, type ApprovalDetail } from './approval';
import { duplicateIdMessage } from './toolUseIds';

describe('AgentLoop: tool calls and approval', () => {
  it('tool_use (read-only) → run without asking → its result in the next request', async () => {
    const h = loopWith([replyTools(['t1', 'read', { path: 'a.ts' }]), replyText('done')]);
    expect(await h.run('read a')).toBe('end_turn');
    expect(h.tools.executed).toEqual([{ callId: 't1', name: 'read', input: { path: 'a.ts' } }]);
    expect(h.approvalsAsked).toEqual([]);
    expect(ofType(h.events, 'tool_started')).toEqual([
      { type: 'tool_started', callId: 't1', tool: 'read', input: { path: 'a.ts' }, summary: 'read {"path":"a.ts"}' },
    ]);
    expect(ofType(h.events, 'tool_finished').map((e) => e.result.text)).toEqual(['ran read t1']);
    const next = h.model.sent[1]!.request.messages;
    expect(lastMessage(next)).toEqual(user({ type: 'tool_result', tool_use_id: 't1', content: 'ran read t1' }));
    expect(h.conversation().messages()).toHaveLength(4);
  });

  it('tool_use → approval allow → run, with its output streamed', async () => {
    const h = loopWith([replyTools(['t1', 'bash', { command: 'ls' }]), replyText('done')], {
      tools: { bash: (_call, context) => context.onOutput?.('a.ts\n') },
    });
    await h.run('list');
    expect(h.approvalsAsked).toEqual([{ callId: 't1', tool: 'bash', input: { command: 'ls' }, summary: 'bash {"command":"ls"}' }]);
    expect(ofType(h.events, 'approval_requested')).toEqual([
      { type: 'approval_requested', callId: 't1', tool: 'bash', summary: 'bash {"command":"ls"}' },
    ]);
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(ofType(h.events, 'tool_output')).toEqual([{ type: 'tool_output', callId: 't1', text: 'a.ts\n' }]);
  });

  it('tool_use → approval deny → answered with the denial, not run', async () => {
    const h = loopWith([replyTools(['t1', 'bash', { command: 'rm x' }]), replyText('ok')], {
      approve: async () => ({ kind: 'deny', reason: 'keep x' }),
    });
    expect(await h.run('clean')).toBe('end_turn');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual([denialMessage('bash', 'keep x')]);
    expect(toolResults(lastMessage(h.model.sent[1]!.request.messages))).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: denialMessage('bash', 'keep x'), is_error: true },
    ]);
  });

  it('tool_use → approver fails → treated as a denial without a reason', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('ok')], {
      approve: async () => {
        throw new Error('panel closed');
      },
    });
    expect(await h.run('go')).toBe('end_turn');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual([denialMessage('bash', undefined)]);
  });

  it('tool_use → refuse (untrusted workspace) → answered without asking, not run', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: false },
    });
    await h.run('go');
    expect(h.approvalsAsked).toEqual([]);
    expect(ofType(h.events, 'approval_requested')).toEqual([]);
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun[0]!.message).toContain('The workspace is not trusted');
  });

  it('tool_use → always allowed → run without asking', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true },
    });
    await h.run('go');
    expect(h.approvalsAsked).toEqual([]);
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
  });

  it('tool_use → ask with a problem → answered with the problem, never asked', async () => {
    const h = loopWith([replyTools(['t1', 'apply_patch', { patch: 'garbage' }]), replyText('ok')], {
      describeForApproval: () => ({ problem: 'The patch does not parse: no "*** Begin Patch" line.' }),
    });
    await h.run('patch');
    expect(h.approvalsAsked).toEqual([]);
    expect(ofType(h.events, 'approval_requested')).toEqual([]);
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['The patch does not parse: no "*** Begin Patch" line.']);
  });

  it('tool_use → protected path → asks with the reason and the detail, even for an always-allowed tool', async () => {
    const detail: ApprovalDetail = { files: [{ change: 'write', path: 'AGENTS.md' }] };
    const h = loopWith([replyTools(['t1', 'write', { path: 'AGENTS.md' }]), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['write']), workspaceTrusted: true },
      protectedReason: async (_tool, input) =>
        (input as { path: string }).path === 'AGENTS.md' ? 'writes a rules file (AGENTS.md)' : undefined,
      describeForApproval: () => detail,
    });
    await h.run('edit rules');
    expect(h.approvalsAsked).toEqual([
      {
        callId: 't1',
        tool: 'write',
        input: { path: 'AGENTS.md' },
        summary: 'write {"path":"AGENTS.md"}',
        // What "this session" or "always" would allow: the whole edit family.
        detail: { ...detail, allowance: 'edits' },
        reason: 'writes a rules file (AGENTS.md)',
      },
    ]);
    expect(ofType(h.events, 'approval_requested')[0]).toMatchObject({ reason: 'writes a rules file (AGENTS.md)', detail });
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
  });

  it('parallel tool uses → answered in order, all results in one user message', async () => {
    const h = loopWith([replyTools(['t1', 'read', { path: 'a' }], ['t2', 'bash'], ['t3', 'read', { path: 'b' }]), replyText('done')]);
    await h.run('go');
    const toolEvents = h.events.filter((e) => e.type === 'tool_started' || e.type === 'tool_finished' || e.type === 'approval_requested');
    expect(toolEvents.map((e) => `${e.type}:${(e as { callId: string }).callId}`)).toEqual([
      'tool_started:t1',
      'tool_finished:t1',
      'tool_started:t2',
      'approval_requested:t2',
      'tool_finished:t2',
      'tool_started:t3',
      'tool_finished:t3',
    ]);
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1', 't2', 't3']);
    const results = lastMessage(h.model.sent[1]!.request.messages);
    expect(results.content).toHaveLength(3);
    expect(toolResults(results).map((r) => r.tool_use_id)).toEqual(['t1', 't2', 't3']);
  });

  it('a repeated tool_use id in one response → renamed and answered without running', async () => {
    const h = loopWith([replyTools(['t1', 'read', { path: 'a' }], ['t1', 'bash', { command: 'rm -rf ~' }]), replyText('ok')]);
    await h.run('go');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun).toEqual([
      { call: { callId: 't1_dup1', name: 'bash', input: { command: 'rm -rf ~' } }, message: duplicateIdMessage('t1') },
    ]);
    expect(h.approvalsAsked).toEqual([]);
    const assistant = h.conversation().messages()[1]!;
    expect(assistant.content.map((b) => (b.type === 'tool_use' ? b.id : b.type))).toEqual(['t1', 't1_dup1']);
    expect(toolResults(lastMessage(h.model.sent[1]!.request.messages)).map((r) => r.tool_use_id)).toEqual(['t1', 't1_dup1']);
  });

  it('a tool_use id used earlier in the conversation → renamed and answered without running', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t1', 'read']), replyText('ok')]);
    await h.run('go');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun.map((n) => [n.call.callId, n.message])).toEqual([['t1_dup1', duplicateIdMessage('t1')]]);
  });

  it('a tool_use id used in this run before a new generation → still a duplicate', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t1', 'read']), replyText('ok')], {
      beforeRequest: async (_signal, harness) => {
        if (harness.composer.composed.length === 1) harness.startGeneration([{ message: user(text('summary of the work so far')) }]);
      },
    });
    await h.run('go');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun.map((n) => n.call.callId)).toEqual(['t1_dup1']);
  });
});
