/**
 * The loop's state machine, one test per transition (this file: a request and its answer, what reaches
 * the next request, an answer with nothing in it; the others: `agentLoop.tools.test.ts`,
 * `agentLoop.interruptions.test.ts`), with a scripted model and fakes for every port (`test/support/agent/loopHarness.ts`):
 * no server, no files. Each test drives `run()` and asserts on the events, the conversation, the
 * recorder's records and the return value.
 */
import { tokensSavedBy } from '../ledger/tokensSaved';
import { describe, expect, it } from 'vitest';
import { cut, fail, reply, replyText, replyTools, SCRIPTED_USAGE, type ScriptedStep } from '../../../test/support/model/scriptedModel';
import {
  eventTypes,
  lastMessage,
  loopWith,
  MODEL_ID,
  NOW,
  ofType,
  RULES_DELTA_DECISION,
  text,
  user,
} from '../../../test/support/agent/loopHarness';
import type { ResultKind } from '../ledger/types';
import { ModelError } from '../model/errors';
import type { Message } from '../model/types';
import type { Decision } from '../compose/decisions';
import { DEFAULT_LOOP_SETTINGS } from './agentLoop';
import type { ConversationEntry } from '../conversation/conversation';

describe('AgentLoop: a request and its answer', () => {
  it('user message → request: the text is stored and recorded, then composed into the first request', async () => {
    const h = loopWith([replyText('hello')]);
    await h.run('hi');
    expect(h.events.slice(0, 2)).toEqual([
      { type: 'user_message', text: 'hi' },
      { type: 'request_started', requestIndex: 0, generation: 0 },
    ]);
    expect(h.recorder.records[0]).toEqual({ type: 'entry', generation: 0, index: 0, entry: { message: user(text('hi')) } });
    expect(h.composer.composed[0]).toMatchObject({
      model: MODEL_ID,
      maxTokens: DEFAULT_LOOP_SETTINGS.maxTokens,
      generation: 0,
      purpose: 'main',
      conversation: [user(text('hi'))],
      decisions: [],
    });
    expect(h.model.sent[0]!.purpose).toBe('main');
  });

  it('request → end_turn: the answer is stored, its snapshot recorded with usage, and the run ends', async () => {
    const h = loopWith([replyText('hello')]);
    const reason = await h.run('hi');
    expect(reason).toBe('end_turn');
    expect(eventTypes(h.events)).toEqual([
      'user_message',
      'request_started',
      'text_delta',
      'usage',
      'request_finished',
      'assistant_message',
      'done',
    ]);
    expect(ofType(h.events, 'assistant_message')[0]).toEqual({
      type: 'assistant_message',
      message: { role: 'assistant', content: [text('hello')] },
      incomplete: false,
    });
    expect(ofType(h.events, 'done')).toEqual([{ type: 'done', reason: 'end_turn' }]);
    expect(h.conversation().messages()).toEqual([user(text('hi')), { role: 'assistant', content: [text('hello')] }]);
    expect(h.recorder.records.map((r) => r.type)).toEqual(['entry', 'snapshot', 'entry']);
    expect(h.recorder.of('snapshot')[0]!.snapshot.usage).toEqual({ input: 100, cacheWrite: 0, cacheRead: 0, output: 20 });
    expect(ofType(h.events, 'usage')[0]).toEqual({ type: 'usage', requestIndex: 0, usage: SCRIPTED_USAGE });
    expect(h.requests.lastMainAnswerAt).toBe(NOW);
  });

  it('stream events → text and thinking deltas forwarded, a retry shown as an info notice', async () => {
    const h = loopWith([
      reply([text('ok')], 'end_turn', [
        { type: 'retrying', attempt: 1, delayMs: 1500, reason: 'The API is overloaded' },
        { type: 'thinking_delta', index: 0, text: 'hmm' },
        { type: 'text_delta', index: 1, text: 'ok' },
      ]),
    ]);
    await h.run('hi');
    expect(h.events.slice(2, 5)).toEqual([
      { type: 'notice', level: 'info', kind: 'retrying', message: 'The API is overloaded; retrying in 1.5 s (attempt 1).' },
      { type: 'thinking_delta', text: 'hmm' },
      { type: 'text_delta', text: 'ok' },
    ]);
  });

  it("max_tokens setting → lowered to the model's output limit; kept when the facts are unavailable", async () => {
    const lowered = loopWith([replyText('a')], {
      facts: (id) => ({ id, maxInputTokens: 100_000, maxOutputTokens: 8_000, source: 'fallback-table' }),
    });
    await lowered.run('hi');
    expect(lowered.composer.composed[0]!.maxTokens).toBe(8_000);

    const unknown = loopWith([replyText('a')], {
      facts: () => {
        throw new Error('offline');
      },
    });
    await unknown.run('hi');
    expect(unknown.composer.composed[0]!.maxTokens).toBe(DEFAULT_LOOP_SETTINGS.maxTokens);
  });

  it("request indexes → from the session's counter (compaction requests count too)", async () => {
    const h = loopWith([replyTools(['t1', 'read']), replyText('done')]);
    expect(h.requests.take()).toBe(0);
    await h.run('hi');
    expect(ofType(h.events, 'request_started').map((e) => e.requestIndex)).toEqual([1, 2]);
    expect(ofType(h.events, 'request_finished').map((e) => e.requestIndex)).toEqual([1, 2]);
  });

  it('request error → the error with its advice, done: error, and the unsent user text joins the next one', async () => {
    const overloaded = new ModelError('overloaded', 'The Anthropic API is overloaded (529).', {
      status: 529,
      advice: 'Try again in a few minutes.',
    });
    const h = loopWith([fail(overloaded), replyText('ok')]);
    expect(await h.run('first')).toBe('error');
    expect(ofType(h.events, 'error')).toEqual([
      { type: 'error', kind: 'overloaded', message: 'The Anthropic API is overloaded (529).', advice: 'Try again in a few minutes.' },
    ]);
    expect(h.recorder.of('snapshot')).toHaveLength(1);
    expect(ofType(h.events, 'request_finished')).toHaveLength(1);
    expect(await h.run('second')).toBe('end_turn');
    expect(h.model.sent[1]!.request.messages[0]).toEqual(user(text('first'), text('second')));
  });

  it('a client throwing something other than a ModelError → a server error, done: error', async () => {
    const h = loopWith([fail(new TypeError('socket is undefined'))]);
    expect(await h.run('hi')).toBe('error');
    const [error] = ofType(h.events, 'error');
    expect(error).toMatchObject({ kind: 'server', message: 'Unexpected failure while talking to the model: socket is undefined' });
  });
});

describe('AgentLoop: what reaches the next request', () => {
  it('beforeRequest → called with the run signal before each request', async () => {
    const signals: AbortSignal[] = [];
    const h = loopWith([replyTools(['t1', 'read']), replyText('ok')], {
      beforeRequest: async (signal) => {
        signals.push(signal);
      },
    });
    await h.run('go');
    expect(h.calls).toEqual(['beforeRequest', 'compose', 'beforeRequest', 'compose']);
    expect(signals).toEqual([h.controller.signal, h.controller.signal]);
  });

  it('beforeRequest starting a new generation → the request is composed from it', async () => {
    const summary: ConversationEntry = { message: user(text('Summary: the user wants a.ts read.')), synthetic: true };
    const h = loopWith([replyTools(['t1', 'read']), replyText('ok')], {
      beforeRequest: async (_signal, harness) => {
        if (harness.composer.composed.length === 1) harness.startGeneration([summary]);
      },
    });
    await h.run('go');
    expect(ofType(h.events, 'request_started').map((e) => e.generation)).toEqual([0, 1]);
    expect(h.composer.composed[1]).toMatchObject({ generation: 1, conversation: [summary.message] });
    expect(h.recorder.of('entry').map((r) => r.generation)).toEqual([0, 0, 0, 1]);
  });

  it('a queued decision (compaction, composer) → in the next compose, and only once', async () => {
    const decision: Decision = { kind: 'compaction', detail: 'compacted: normal stage', resultIds: [] };
    const h = loopWith([replyTools(['t1', 'read']), replyText('ok')]);
    h.decisions.add(decision);
    await h.run('go');
    expect(h.composer.composed[0]!.decisions).toEqual([decision]);
    expect(h.composer.composed[1]!.decisions).toEqual([]);
  });

  it.each<[ResultKind, Decision['kind'] | undefined, string]>([
    ['read-stub', 'stub', 'answered with a stub'],
    ['diff', 'diff', 'answered with its diff'],
    ['capped', 'cap', 'capped head and tail'],
    ['same-result', 'same_result', 'same result as before'],
    ['full', undefined, ''],
  ])('a %s result → its decision in the next compose, and only once', async (kind, decisionKind, detail) => {
    const h = loopWith([replyTools(['t1', 'read']), replyTools(['t2', 'bash']), replyText('ok')], {
      approvals: { alwaysAllow: new Set(['bash']), workspaceTrusted: true },
      tools: { read: () => ({ kind, refersTo: ['#first'] }) },
    });
    await h.run('go');
    const [result] = ofType(h.events, 'tool_finished');
    const expected = decisionKind
      ? [
          {
            kind: decisionKind,
            detail: `${result!.result.bracket} ${detail}`,
            resultIds: [result!.result.id, '#first'],
            // What it kept out of the context (issue 35 §4): the full body less what was shown.
            tokensSaved: tokensSavedBy(kind, result!.result.fullChars, result!.result.text.length),
          },
        ]
      : [];
    expect(h.composer.composed[1]!.decisions).toEqual(expected);
    expect(h.composer.composed[2]!.decisions).toEqual([]);
  });

  it("rules delta → Cairn's blocks before the user's text, marked synthetic, with one decision", async () => {
    const delta = text('AGENTS.md changed; its new text:\n\nRun the tests.');
    const h = loopWith([replyText('ok'), replyText('ok')], { rulesDeltas: [[delta]] });
    await h.run('go');
    expect(h.conversation().all()[0]).toEqual({ message: user(delta, text('go')), syntheticBlocks: [0] });
    expect(h.recorder.of('entry')[0]!.entry.syntheticBlocks).toEqual([0]);
    expect(ofType(h.events, 'user_message')).toEqual([{ type: 'user_message', text: 'go' }]);
    // The composer's decision (naming the files) reaches the request once; the loop adds none of its own.
    expect(h.composer.composed[0]!.decisions).toEqual([RULES_DELTA_DECISION]);
    // No change at the next message: no delta, no decision.
    await h.run('again');
    expect(h.composer.composed[1]!.decisions).toEqual([]);
    expect(h.conversation().all()[2]).toEqual({ message: user(text('again')) });
  });
});

/** Roles alternate in every request (the local server refuses otherwise, as the API does: validateRequest.ts). */
function expectAlternatingRoles(messages: readonly Message[]): void {
  const roles = messages.map((m) => m.role);
  expect(roles.filter((role, i) => i > 0 && role === roles[i - 1])).toEqual([]);
}

describe('AgentLoop: a request answered with nothing', () => {
  // A request answered with no content leaves its user message unsent, so the next user text joins it.
  it.each<[string, ScriptedStep[]]>([
    ['end_turn with no content', [reply([], 'end_turn')]],
    ['refusal with no content', [reply([], 'refusal')]],
    ['pause_turn with no content', [reply([], 'pause_turn')]],
    [
      'a stream cut with no content, then a request error',
      [cut([]), fail(new ModelError('overloaded', 'The Anthropic API is overloaded (529).'))],
    ],
  ])('%s → the next user text joins the unanswered user message', async (_name, script) => {
    const h = loopWith([...script, replyText('ok')]);
    await h.run('first');
    await h.run('second');
    expectAlternatingRoles(lastMessage(h.model.sent).request.messages);
  });

  it('a stream cut with no content, then a cancel → the next user text joins the unanswered user message', async () => {
    const h = loopWith([cut([]), replyText('ok')], {
      onEvent: (event, harness) => {
        if (event.type === 'notice' && event.kind === 'stream_interrupted') harness.controller.abort();
      },
    });
    expect(await h.run('first')).toBe('cancelled');
    await h.run('second', new AbortController().signal);
    expectAlternatingRoles(lastMessage(h.model.sent).request.messages);
  });
});

describe('AgentLoop: thinking (cairn.thinking, issue 33)', () => {
  it('one thinking configuration per run: a change while the tool loop runs applies from the next message', async () => {
    let thinking: number | 'off' = 2048;
    const h = loopWith([replyTools(['t1', 'read', { path: 'a.ts' }]), replyText('read it'), replyText('second')], {
      liveSettings: () => ({ thinking, maxTokens: 8000 }),
      beforeRequest: async () => {
        // The user turns thinking off while the first run is in its tool loop.
        if (h.composer.composed.length === 1) thinking = 'off';
      },
    });
    await h.run('read a.ts');
    expect(h.composer.composed.map((c) => c.thinking)).toEqual([
      { type: 'enabled', budget_tokens: 2048 },
      { type: 'enabled', budget_tokens: 2048 },
    ]);
    await h.run('again');
    expect(h.composer.composed[2]!.thinking).toBeUndefined();
  });

  it('a setting the model cannot take is said once, not at every run', async () => {
    const h = loopWith([replyText('one'), replyText('two')], { settings: { thinking: 4096, maxTokens: 2000 } });
    await h.run('hi');
    await h.run('again');
    const notes = ofType(h.events, 'notice').filter((n) => n.kind === 'thinking');
    expect(notes.map((n) => n.message)).toEqual(['cairn.thinking 4096 is not below max_tokens (2000); the budget sent is 1999.']);
    expect(h.composer.composed[1]!.thinking).toEqual({ type: 'enabled', budget_tokens: 1999 });
  });
});
