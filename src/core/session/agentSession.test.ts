/**
 * The session facade on its own: a real `AgentLoop` on a scripted model, the real `EventHub`,
 * `ActiveGeneration`, `DecisionQueue` and `JournalRecorder`; fakes for the tools, the composer, the
 * journal and the compactor. No server, no files.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replyText, streamUntilCancelled } from '../../../test/support/model/scriptedModel';
import type { AgentEvent } from '../agent/events';
import type { CompactionPlan } from '../compaction/compactor';
import type { ConversationEntry } from '../conversation/conversation';
import { SessionJournal } from '../journal/node/sessionJournal';
import type { Message, ToolResultBlock, ToolUseBlock } from '../model/types';
import { SessionBusyError, SessionReadOnlyError } from './agentSession';
import { gated, sessionWith, type Harness } from '../../../test/support/session/sessionHarness';

const NOTICE_A: AgentEvent = { type: 'notice', level: 'warning', kind: 'history_archive', message: 'a' };
const COMPACTED: AgentEvent = {
  type: 'compacted',
  generation: 1,
  tokensBefore: 10,
  tokensAfter: 5,
  summary: 's',
  filesTable: '',
  reason: 'manual',
  stage: 'normal',
};
const NOTICE_B: AgentEvent = { type: 'notice', level: 'critical', kind: 'compaction_escalation', message: 'b' };

const signal = () => new AbortController().signal;

// ---------------------------------------------------------------------------------------------------

describe('AgentSession: runs', () => {
  it('is busy during a run and refuses a second send, then idle again', async () => {
    const gate = gated();
    const h = sessionWith([gate.step]);
    expect(h.session.busy).toBe(false);

    const running = h.session.send('first');
    await gate.started;

    expect(h.session.busy).toBe(true);
    await expect(h.session.send('second')).rejects.toBeInstanceOf(SessionBusyError);
    gate.release();
    expect(await running).toBe('end_turn');
    expect(h.session.busy).toBe(false);
    // The refused message never reached the conversation.
    const userTexts = h.session.generation.conversation
      .messages()
      .filter((m) => m.role === 'user')
      .flatMap((m) => m.content.map((b) => (b.type === 'text' ? b.text : '')));
    expect(userTexts).toEqual(['first']);
  });

  it('is idle again after a run that throws', async () => {
    const h = sessionWith([replyText('never sent')]);
    h.composer.rulesDeltaError = new Error('rules unreadable');

    await expect(h.session.send('hello')).rejects.toThrow('rules unreadable');

    expect(h.session.busy).toBe(false);
    h.composer.rulesDeltaError = undefined;
    expect(await h.session.send('again')).toBe('end_turn');
  });

  it('refuses to send on a read-only journal', async () => {
    const h = sessionWith([replyText('never sent')]);
    h.journal.readOnly = true;

    await expect(h.session.send('hello')).rejects.toBeInstanceOf(SessionReadOnlyError);

    expect(h.session.busy).toBe(false);
    expect(h.model.sent).toHaveLength(0);
    expect(h.journal.records).toEqual([]);
  });

  it('cancel aborts the running send: done with cancelled', async () => {
    // The step runs once `send` is under way, so `h` is set by then.
    const h: Harness = sessionWith([streamUntilCancelled(['part'], () => h.session.cancel())]);

    expect(await h.session.send('hello')).toBe('cancelled');

    expect(h.events.at(-1)).toEqual({ type: 'done', reason: 'cancelled' });
    expect(h.session.busy).toBe(false);
  });

  it('cancel when idle does nothing', async () => {
    const h = sessionWith([replyText('ok')]);
    h.session.cancel();
    expect(await h.session.send('hello')).toBe('end_turn');
  });

  it('close cancels the run and closes the journal', async () => {
    let closing: Promise<void> | undefined;
    const h: Harness = sessionWith([streamUntilCancelled([], () => (closing = h.session.close()))]);

    expect(await h.session.send('hello')).toBe('cancelled');
    await closing;

    expect(h.journal.closed).toBe(true);
  });
});

describe('AgentSession: close with a real journal', () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  // A cancelled run still journals its last request's snapshot: close waits for it before closing the
  // journal (closing at once made the run end as an internal error and lost that snapshot).
  it('close during a run ends it as cancelled, not as an internal error', async () => {
    scratch = mkdtempSync(join(tmpdir(), 'cairn-session-'));
    const journal = await SessionJournal.create(scratch, { workspace: scratch, model: 'claude-test' });
    let closing: Promise<void> | undefined;
    const h: Harness = sessionWith([streamUntilCancelled([], () => (closing = h.session.close()))], { journal });

    const done = await h.session.send('hello');
    await closing;

    expect(h.events.filter((e) => e.type === 'error')).toEqual([]);
    expect(done).toBe('cancelled');
  });
});

describe('AgentSession: compaction', () => {
  it('refuses every compaction method while a run is going on', async () => {
    const gate = gated();
    const h = sessionWith([gate.step]);
    const running = h.session.send('first');
    await gate.started;

    await expect(h.session.compact({ reason: 'manual' }, signal())).rejects.toBeInstanceOf(SessionBusyError);
    await expect(h.session.planCompaction({ reason: 'manual' }, signal())).rejects.toBeInstanceOf(SessionBusyError);
    await expect(h.session.applyCompaction({} as CompactionPlan)).rejects.toBeInstanceOf(SessionBusyError);
    await expect(h.session.undoCompaction()).rejects.toBeInstanceOf(SessionBusyError);
    expect(h.compactor.calls).toEqual([]);

    gate.release();
    await running;
    await h.session.compact({ reason: 'manual' }, signal());
    expect(h.compactor.calls).toEqual(['compact']);
  });

  it('compact emits exactly the events the compactor returned, in order, and returns its outcome', async () => {
    const h = sessionWith([]);
    h.compactor.outcome = { applied: false, reason: 'r', events: [NOTICE_A, COMPACTED, NOTICE_B] };

    const outcome = await h.session.compact({ reason: 'manual' }, signal());

    expect(outcome).toBe(h.compactor.outcome);
    expect(h.events).toEqual([NOTICE_A, COMPACTED, NOTICE_B]);
  });

  it('a listener that throws does not stop the others', async () => {
    const h = sessionWith([]);
    h.compactor.outcome = { applied: false, reason: 'r', events: [NOTICE_A, COMPACTED] };
    const seen: AgentEvent[] = [];
    h.session.onEvent(() => {
      throw new Error('view closed');
    });
    h.session.onEvent((event) => seen.push(event));

    await h.session.applyCompaction({} as CompactionPlan);

    expect(h.events).toEqual([NOTICE_A, COMPACTED]);
    expect(seen).toEqual([NOTICE_A, COMPACTED]);
  });

  it('applyCompaction emits the events apply returned', async () => {
    const h = sessionWith([]);
    h.compactor.outcome = { applied: false, reason: 'stale', events: [NOTICE_B] };
    expect(await h.session.applyCompaction({} as CompactionPlan)).toBe(h.compactor.outcome);
    expect(h.compactor.calls).toEqual(['apply']);
    expect(h.events).toEqual([NOTICE_B]);
  });

  it('undoCompaction emits the events undo returned and says whether it undid', async () => {
    const h = sessionWith([]);
    h.compactor.undone = { undone: true, events: [NOTICE_A, NOTICE_B] };
    expect(await h.session.undoCompaction()).toBe(true);
    expect(h.events).toEqual([NOTICE_A, NOTICE_B]);

    h.compactor.undone = { undone: false, events: [] };
    expect(await h.session.undoCompaction()).toBe(false);
    expect(h.events).toEqual([NOTICE_A, NOTICE_B]);
  });

  it('planCompaction emits nothing; canUndoCompaction and estimateNextTokens ask the compactor', async () => {
    const h = sessionWith([]);
    expect(await h.session.planCompaction({ reason: 'manual' }, signal())).toEqual({ ok: false, reason: 'planned nothing' });
    expect(h.events).toEqual([]);
    expect(h.session.canUndoCompaction).toBe(false);
    h.compactor.canUndo = true;
    expect(h.session.canUndoCompaction).toBe(true);
    expect(h.session.estimateNextTokens()).toBe(4242);
  });
});

describe('AgentSession: the conversation', () => {
  it('projectedMessages uses the given projection on the current generation', async () => {
    const seen: Array<readonly ConversationEntry[]> = [];
    const projected: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'as projected' }] }];
    const h = sessionWith([], {
      project: (entries) => {
        seen.push(entries);
        return projected;
      },
    });
    h.generations.current.conversation.appendUser([{ type: 'text', text: 'stored' }]);

    expect(h.session.projectedMessages()).toBe(projected);
    expect(seen).toEqual([h.generations.current.conversation.all()]);
  });

  it('answerDangling answers each dangling tool_use without running it, in one user message, journalled after a checkpoint', async () => {
    const h = sessionWith([]);
    const conversation = h.generations.current.conversation;
    conversation.appendUser([{ type: 'text', text: 'go' }]);
    conversation.markSent();
    const uses: ToolUseBlock[] = [
      { type: 'tool_use', id: 'toolu_1', name: 'run', input: { command: 'make' } },
      { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'a.ts' } },
    ];
    conversation.appendAssistant({ role: 'assistant', content: uses });

    await h.session.answerDangling(uses);

    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.call)).toEqual([
      { callId: 'toolu_1', name: 'run', input: { command: 'make' } },
      { callId: 'toolu_2', name: 'read', input: { path: 'a.ts' } },
    ]);
    expect(h.tools.notRun.every((n) => n.message.startsWith('Not finished: Cairn stopped'))).toBe(true);

    expect(conversation.length).toBe(3);
    const answer = conversation.last()!.message;
    expect(answer.role).toBe('user');
    expect(answer.content).toEqual([
      { type: 'tool_result', tool_use_id: 'toolu_1', content: h.tools.notRun[0]!.message, is_error: true },
      { type: 'tool_result', tool_use_id: 'toolu_2', content: h.tools.notRun[1]!.message, is_error: true },
    ]);

    expect(h.journal.log).toEqual(['checkpoint', 'append:user_message']);
    expect(h.journal.checkpoints).toEqual([{ answered: 2 }]);
    expect(h.journal.records[0]).toMatchObject({ type: 'user_message', generation: 0, index: 2, message: answer });
  });

  it('answerDangling answers a call whose work finished elsewhere (a sub-agent done before a crash) as a result, not an error', async () => {
    const h = sessionWith([]);
    const conversation = h.generations.current.conversation;
    conversation.appendUser([{ type: 'text', text: 'go' }]);
    conversation.markSent();
    const uses: ToolUseBlock[] = [
      { type: 'tool_use', id: 'toolu_1', name: 'task', input: { description: 'd', prompt: 'p', kind: 'explore' } },
      { type: 'tool_use', id: 'toolu_2', name: 'task', input: { description: 'e', prompt: 'q', kind: 'explore' } },
      { type: 'tool_use', id: 'toolu_3', name: 'bash', input: { command: 'make' } },
    ];
    conversation.appendAssistant({ role: 'assistant', content: uses });

    await h.session.answerDangling(uses, (use) =>
      use.id === 'toolu_1'
        ? { text: 'Found it in a.ts:3.\n[explore-1: 2 requests]', isError: false }
        : use.id === 'toolu_2'
          ? { text: 'Interrupted: explore-2 was cut off.', isError: true }
          : undefined,
    );

    const content = conversation.last()!.message.content as ToolResultBlock[];
    expect(content.map((block) => [block.tool_use_id, block.content, block.is_error ?? false])).toEqual([
      ['toolu_1', 'Found it in a.ts:3.\n[explore-1: 2 requests]', false],
      ['toolu_2', 'Interrupted: explore-2 was cut off.', true],
      ['toolu_3', h.tools.notRun[2]!.message, true],
    ]);
    expect(h.tools.notRun[2]!.message).toMatch(/^Not finished: Cairn stopped/);
  });

  it('answerDangling with nothing dangling writes nothing', async () => {
    const h = sessionWith([]);
    await h.session.answerDangling([]);
    expect(h.generations.current.conversation.length).toBe(0);
    expect(h.journal.log).toEqual([]);
  });
});
