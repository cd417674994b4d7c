/**
 * The loop's state machine: cancel, cut streams, a prompt too long, and how a turn ends (see `agentLoop.test.ts`).
 */
import { describe, expect, it } from 'vitest';
import { cut, fail, promptTooLong, reply, replyText, replyTools, streamUntilCancelled } from '../../../test/support/model/scriptedModel';
import { eventTypes, lastMessage, loopWith, ofType, text, toolResults, user } from '../../../test/support/agent/loopHarness';
import { INTERRUPTED_CONTINUE_PROMPT } from './agentLoop';
import { INTERRUPTION_NOTE } from '../conversation/projection';

describe('AgentLoop: cancel', () => {
  it('cancel before a request → done: cancelled, nothing sent', async () => {
    const h = loopWith([replyText('never')]);
    h.controller.abort();
    expect(await h.run('hi')).toBe('cancelled');
    expect(h.model.sent).toEqual([]);
    expect(eventTypes(h.events)).toEqual(['user_message', 'done']);
    expect(ofType(h.events, 'done')[0]!.reason).toBe('cancelled');
    expect(h.conversation().messages()).toEqual([user(text('hi'))]);
  });

  it('cancel during the stream, nothing streamed → done: cancelled, the user text stays unsent', async () => {
    const h = loopWith([streamUntilCancelled([], () => h.controller.abort()), replyText('ok')]);
    expect(await h.run('first')).toBe('cancelled');
    expect(ofType(h.events, 'error')).toEqual([]);
    expect(ofType(h.events, 'assistant_message')).toEqual([]);
    expect(h.conversation().messages()).toEqual([user(text('first'))]);
    // The failed request still leaves its snapshot (without usage).
    expect(h.recorder.of('snapshot').map((r) => r.snapshot.usage)).toEqual([null]);
    // The next message joins the unsent one instead of following it (roles must alternate).
    expect(await h.run('second', new AbortController().signal)).toBe('end_turn');
    expect(h.model.sent[1]!.request.messages).toEqual([user(text('first'), text('second'))]);
  });

  it('cancel during the stream with streamed text → kept as an incomplete assistant message', async () => {
    const h = loopWith([streamUntilCancelled(['Hel', 'lo'], () => h.controller.abort())]);
    expect(await h.run('hi')).toBe('cancelled');
    expect(ofType(h.events, 'text_delta').map((e) => e.text)).toEqual(['Hel', 'lo']);
    expect(ofType(h.events, 'assistant_message')).toEqual([
      { type: 'assistant_message', message: { role: 'assistant', content: [text('Hello')] }, incomplete: true },
    ]);
    expect(h.conversation().all()[1]).toEqual({ message: { role: 'assistant', content: [text('Hello')] }, incomplete: true });
    expect(h.recorder.of('entry').map((r) => r.entry.incomplete ?? false)).toEqual([false, true]);
    expect(ofType(h.events, 'done')[0]!.reason).toBe('cancelled');
  });

  it('cancel during approval → answered "cancelled", not run, no next request', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('never')], {
      approve: (_request, signal) =>
        new Promise((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(new Error('approval withdrawn')), { once: true });
          h.controller.abort();
        }),
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['Cancelled by the user before it ran.']);
    expect(h.model.sent).toHaveLength(1);
    expect(toolResults(lastMessage(h.conversation().messages())).map((r) => r.tool_use_id)).toEqual(['t1']);
  });

  it('cancel during approval → an allow that arrives after the cancel does not run the call', async () => {
    const h = loopWith([replyTools(['t1', 'bash']), replyText('never')], {
      approve: async () => {
        h.controller.abort();
        return { kind: 'allow' };
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['Cancelled by the user before it ran.']);
  });

  it("cancel during a tool → its result kept, later calls answered 'cancelled', no next request", async () => {
    const h = loopWith([replyTools(['t1', 'bash'], ['t2', 'read']), replyText('never')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true },
      tools: {
        bash: () => {
          h.controller.abort();
          return { text: 'killed after 2 s' };
        },
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun).toEqual([{ call: { callId: 't2', name: 'read', input: {} }, message: 'Cancelled by the user before it ran.' }]);
    expect(h.model.sent).toHaveLength(1);
    const results = toolResults(lastMessage(h.conversation().messages()));
    expect(results.map((r) => r.content)).toEqual(['killed after 2 s', 'Cancelled by the user before it ran.']);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'cancelled' }]);
  });

  it('cancel during the last tool of the last allowed turn → done: cancelled, not max_turns', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyText('never')], {
      settings: { maxTurns: 1 },
      tools: { read: () => h.controller.abort() },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(ofType(h.events, 'notice')).toEqual([]);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'cancelled' }]);
  });

  it('cancel during beforeRequest (a compaction) → done: cancelled, nothing sent or journalled', async () => {
    const h = loopWith([replyText('never')], {
      beforeRequest: async (_signal, harness) => harness.controller.abort(),
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.model.sent).toEqual([]);
    expect(ofType(h.events, 'request_started')).toEqual([]);
    expect(h.recorder.of('snapshot')).toEqual([]);
  });

  it("cancel between tools → the next call answered 'cancelled' without running", async () => {
    const h = loopWith([replyTools(['t1', 'read'], ['t2', 'read']), replyText('never')], {
      onEvent: (event, harness) => {
        if (event.type === 'tool_finished' && event.callId === 't1') harness.controller.abort();
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.tools.notRun.map((n) => [n.call.callId, n.message])).toEqual([['t2', 'Cancelled by the user before it ran.']]);
    expect(h.model.sent).toHaveLength(1);
  });
});

describe('AgentLoop: cut streams', () => {
  it('stream cut with content → kept as interrupted, a continue prompt, the next request', async () => {
    const h = loopWith([cut([text('Part of')]), replyText('the rest')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.conversation().all()).toEqual([
      { message: user(text('go')) },
      { message: { role: 'assistant', content: [text('Part of')] }, incomplete: true },
      { message: user(text(INTERRUPTED_CONTINUE_PROMPT)), synthetic: true },
      { message: { role: 'assistant', content: [text('the rest')] } },
    ]);
    const notice = {
      level: 'warning',
      kind: 'stream_interrupted',
      message: 'The response was cut off part-way; what arrived is kept and marked as interrupted.',
    };
    expect(ofType(h.events, 'notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(ofType(h.events, 'assistant_message').map((e) => e.incomplete)).toEqual([true, false]);
    // The provider is told the message was cut (the projection's note), then asked to continue.
    expect(h.model.sent[1]!.request.messages.slice(1)).toEqual([
      { role: 'assistant', content: [text('Part of'), text(INTERRUPTION_NOTE)] },
      user(text(INTERRUPTED_CONTINUE_PROMPT)),
    ]);
  });

  it('stream cut with a complete tool call → answered "not run", the continue prompt joins the results', async () => {
    const h = loopWith([
      cut([text('Running it'), { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }]),
      replyText('ok'),
    ]);
    await h.run('go');
    expect(h.tools.executed).toEqual([]);
    expect(h.approvalsAsked).toEqual([]);
    expect(h.tools.notRun.map((n) => n.message)).toEqual(['Not run: the response was cut off before this call was complete.']);
    expect(h.conversation().all()[2]).toEqual({
      message: user(
        {
          type: 'tool_result',
          tool_use_id: 't1',
          content: 'Not run: the response was cut off before this call was complete.',
          is_error: true,
        },
        text(INTERRUPTED_CONTINUE_PROMPT),
      ),
      syntheticBlocks: [1],
    });
  });

  it('stream cut with no content → the same request again, no continue prompt', async () => {
    const h = loopWith([cut([]), replyText('ok')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(2);
    expect(h.model.sent[1]!.request.messages).toEqual(h.model.sent[0]!.request.messages);
    expect(ofType(h.events, 'assistant_message')).toHaveLength(1);
    expect(h.conversation().messages()).toEqual([user(text('go')), { role: 'assistant', content: [text('ok')] }]);
    expect(ofType(h.events, 'notice').map((n) => n.kind)).toEqual(['stream_interrupted']);
  });

  it('interrupted streak over maxInterruptedContinues → network error, done: error', async () => {
    const h = loopWith([cut([text('a')]), cut([text('b')]), cut([text('c')]), replyText('never')], {
      settings: { maxInterruptedContinues: 2 },
    });
    expect(await h.run('go')).toBe('error');
    expect(h.model.sent).toHaveLength(3);
    expect(ofType(h.events, 'error')).toEqual([
      {
        type: 'error',
        kind: 'network',
        message: 'The connection kept dropping mid-response. Check the network and send a message to continue.',
      },
    ]);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'error' }]);
    // The third cut is still stored (and its notice recorded) before the loop gives up.
    expect(h.conversation().last()).toEqual({ message: { role: 'assistant', content: [text('c')] }, incomplete: true });
    expect(h.recorder.of('notice')).toHaveLength(3);
  });

  it('a complete response → the interrupted streak starts again', async () => {
    const h = loopWith(
      [cut([text('a')]), cut([text('b')]), replyTools(['t1', 'read']), cut([text('c')]), cut([text('d')]), replyText('done')],
      {
        settings: { maxInterruptedContinues: 2 },
      },
    );
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(6);
    expect(ofType(h.events, 'error')).toEqual([]);
  });
});

describe('AgentLoop: prompt too long', () => {
  it('prompt too long → onPromptTooLong true → the request is made again', async () => {
    const asked: AbortSignal[] = [];
    const h = loopWith([fail(promptTooLong()), replyText('ok')], {
      onPromptTooLong: async (signal) => {
        asked.push(signal);
        return true;
      },
    });
    expect(await h.run('go')).toBe('end_turn');
    expect(asked).toEqual([h.controller.signal]);
    expect(h.model.sent).toHaveLength(2);
    expect(ofType(h.events, 'error')).toEqual([]);
  });

  it('prompt too long → onPromptTooLong false → the error, done: error', async () => {
    let asked = 0;
    const h = loopWith([fail(promptTooLong()), replyText('never')], {
      onPromptTooLong: async () => {
        asked++;
        return false;
      },
    });
    expect(await h.run('go')).toBe('error');
    expect(asked).toBe(1);
    expect(h.model.sent).toHaveLength(1);
    expect(ofType(h.events, 'error')).toEqual([
      {
        type: 'error',
        kind: 'prompt_too_long',
        message: promptTooLong().message,
        advice: 'Compact the conversation (“Cairn: Compact”) or start a new session.',
      },
    ]);
  });

  it('prompt too long without an onPromptTooLong → the error, done: error', async () => {
    const h = loopWith([fail(promptTooLong())]);
    expect(await h.run('go')).toBe('error');
    expect(ofType(h.events, 'error').map((e) => e.kind)).toEqual(['prompt_too_long']);
  });

  it('a second prompt too long in a row → the error, without asking again', async () => {
    let asked = 0;
    const h = loopWith([fail(promptTooLong()), fail(promptTooLong()), replyText('never')], {
      onPromptTooLong: async () => {
        asked++;
        return true;
      },
    });
    expect(await h.run('go')).toBe('error');
    expect(asked).toBe(1);
    expect(h.model.sent).toHaveLength(2);
    expect(ofType(h.events, 'error').map((e) => e.kind)).toEqual(['prompt_too_long']);
  });

  it('cancel during the prompt-too-long recovery → done: cancelled, no error', async () => {
    const h = loopWith([fail(promptTooLong()), replyText('never')], {
      onPromptTooLong: async () => {
        h.controller.abort();
        return false;
      },
    });
    expect(await h.run('go')).toBe('cancelled');
    expect(ofType(h.events, 'error')).toEqual([]);
  });

  it('prompt too long after a successful request → asked again', async () => {
    let asked = 0;
    const h = loopWith([fail(promptTooLong()), replyTools(['t1', 'read']), fail(promptTooLong()), replyText('ok')], {
      onPromptTooLong: async () => {
        asked++;
        return true;
      },
    });
    expect(await h.run('go')).toBe('end_turn');
    expect(asked).toBe(2);
  });
});

describe('AgentLoop: how a turn ends', () => {
  it('pause_turn with content → the conversation is sent back to continue', async () => {
    const h = loopWith([reply([text('Searching…')], 'pause_turn'), replyText('found it')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(2);
    expect(lastMessage(h.model.sent[1]!.request.messages)).toEqual({ role: 'assistant', content: [text('Searching…')] });
  });

  it('pause_turn without content → done: end_turn', async () => {
    const h = loopWith([reply([], 'pause_turn'), replyText('never')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.model.sent).toHaveLength(1);
    expect(ofType(h.events, 'assistant_message')).toEqual([]);
    expect(h.conversation().messages()).toEqual([user(text('go'))]);
  });

  it('max_tokens → a warning (emitted and recorded), done: max_tokens', async () => {
    const h = loopWith([reply([text('A long answer')], 'max_tokens')]);
    expect(await h.run('go')).toBe('max_tokens');
    const [notice] = ofType(h.events, 'notice');
    expect(notice).toMatchObject({ level: 'warning', kind: 'max_tokens' });
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', level: 'warning', kind: 'max_tokens', message: notice!.message }]);
    expect(h.conversation().messages()).toHaveLength(2);
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'max_tokens' }]);
  });

  it('max_tokens with a tool call → the call is still answered and the loop goes on', async () => {
    const h = loopWith([reply([{ type: 'tool_use', id: 't1', name: 'read', input: {} }], 'max_tokens'), replyText('ok')]);
    expect(await h.run('go')).toBe('end_turn');
    expect(h.tools.executed.map((c) => c.callId)).toEqual(['t1']);
    expect(h.model.sent).toHaveLength(2);
  });

  it('refusal → a warning (emitted and recorded), done: refusal', async () => {
    const h = loopWith([reply([text('I cannot help with that.')], 'refusal')]);
    expect(await h.run('go')).toBe('refusal');
    const notice = { level: 'warning', kind: 'refusal', message: 'The model declined to continue this request.' };
    expect(ofType(h.events, 'notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', ...notice }]);
  });

  it('max_turns → stops after that many requests with a warning, done: max_turns', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t2', 'read']), replyText('never')], { settings: { maxTurns: 2 } });
    expect(await h.run('go')).toBe('max_turns');
    expect(h.model.sent).toHaveLength(2);
    const notice = {
      level: 'warning',
      kind: 'max_turns',
      message: 'Stopped after 2 model requests (cairn.maxTurns). Send a message to let Cairn continue.',
    };
    expect(ofType(h.events, 'notice')).toEqual([{ type: 'notice', ...notice }]);
    expect(h.recorder.of('notice')).toEqual([{ type: 'notice', ...notice }]);
    // The last request's call was answered, so a later message can continue from a valid conversation.
    expect(toolResults(lastMessage(h.conversation().messages())).map((r) => r.tool_use_id)).toEqual(['t2']);
  });

  it('a bug thrown inside → an internal error, done: error, and run() does not throw', async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyText('never')], {
      tools: {
        read: () => {
          throw new Error('boom');
        },
      },
    });
    await expect(h.run('go')).resolves.toBe('error');
    expect(h.events.slice(-2)).toEqual([
      { type: 'error', kind: 'internal', message: 'Cairn hit an internal error: boom' },
      { type: 'done', reason: 'error' },
    ]);
  });
});
