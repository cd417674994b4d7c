/**
 * "Send now" (issue 34, item 13): a message the user gives while the run goes on joins the conversation at the
 * next request boundary, as a user message like any other (journalled, in the next request, said to the views),
 * and the run goes on with it. A message that no boundary came for before the run ended is handed back
 * (the host sends it as the next message). Driven with the loop's harness: a scripted model, fakes for every port.
 */
import { describe, expect, it } from 'vitest';
import { replyText, replyTools, reply } from '../../../test/support/model/scriptedModel';
import { eventTypes, loopWith, ofType, text, user } from '../../../test/support/agent/loopHarness';
import type { Message } from '../model/types';

describe('AgentLoop: a message given while it runs (send now)', () => {
  it('joins the results of the calls that were running, reaches the next request as the user’s words, and is said to the views', async () => {
    let delivered: Promise<boolean> | undefined;
    const places: Array<{ generation: number; index: number }> = [];
    const h = loopWith([replyTools(['t1', 'bash', { command: 'npm test' }]), replyText('Stopped as you asked.')], {
      tools: {
        bash: () => {
          delivered = h.loop.steer({
            text: 'Stop after the tests.',
            beforeAppend: async (place) => void places.push(place),
          }).delivered;
        },
      },
    });
    expect(await h.run('Run the tests.')).toBe('end_turn');
    expect(await delivered).toBe(true);
    // Roles alternate: the words ride with the results message, as the user's own (not Cairn's) block.
    const second = h.model.sent[1]!.request.messages as Message[];
    expect(second).toHaveLength(3);
    const joined = second[2]!;
    expect(joined.role).toBe('user');
    expect(joined.content.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(joined.content[1]).toEqual(text('Stop after the tests.'));
    const entries = h.recorder.of('entry');
    expect(entries.at(-2)!.index).toBe(2);
    const steered = entries.filter((e) => e.index === 2).at(-1)!.entry;
    expect(steered.syntheticBlocks ?? []).toEqual([]);
    expect(places).toEqual([{ generation: 0, index: 2 }]);
    // The views hear of it as a user message, after the call it joined and before the next request.
    const types = eventTypes(h.events);
    expect(ofType(h.events, 'user_message').map((e) => e.text)).toEqual(['Run the tests.', 'Stop after the tests.']);
    expect(types.indexOf('user_message', 1)).toBeGreaterThan(types.indexOf('tool_finished'));
    expect(types.indexOf('user_message', 1)).toBeLessThan(types.lastIndexOf('request_started'));
  });

  it('after a response that ended without a result to join (pause_turn), starts a user message of its own', async () => {
    let delivered: Promise<boolean> | undefined;
    const h = loopWith([reply([text('Working…')], 'pause_turn'), replyText('Done, with your note.')], {
      onEvent: (event, harness) => {
        if (event.type === 'assistant_message' && !delivered) delivered = harness.loop.steer({ text: 'Also update the README.' }).delivered;
      },
    });
    await h.run('Refactor.');
    expect(await delivered).toBe(true);
    expect(h.model.sent[1]!.request.messages).toEqual([
      user(text('Refactor.')),
      { role: 'assistant', content: [text('Working…')] },
      user(text('Also update the README.')),
    ]);
  });

  it('given during the last answer, is handed back undelivered: nothing is added to the conversation', async () => {
    let delivered: Promise<boolean> | undefined;
    const h = loopWith([replyText('All done.')], {
      onEvent: (event, harness) => {
        if (event.type === 'request_started') delivered = harness.loop.steer({ text: 'And one more thing.' }).delivered;
      },
    });
    await h.run('Do it.');
    expect(await delivered).toBe(false);
    expect(h.conversation().messages()).toEqual([user(text('Do it.')), { role: 'assistant', content: [text('All done.')] }]);
    expect(ofType(h.events, 'user_message')).toHaveLength(1);
  });

  it('given when no run is going on, is handed back at once', async () => {
    const h = loopWith([]);
    expect(await h.loop.steer({ text: 'Hello?' }).delivered).toBe(false);
  });

  it('a cancelled run hands back what it had not delivered', async () => {
    let delivered: Promise<boolean> | undefined;
    const h = loopWith([replyTools(['t1', 'bash', { command: 'sleep 1' }])], {
      tools: {
        bash: () => {
          delivered = h.loop.steer({ text: 'Never mind.' }).delivered;
          h.controller.abort();
        },
      },
    });
    expect(await h.run('Wait.')).toBe('cancelled');
    expect(await delivered).toBe(false);
    expect(JSON.stringify(h.conversation().messages())).not.toContain('Never mind.');
  });

  it('taken back before a boundary came, is not added; the run goes on without it', async () => {
    let handle: ReturnType<typeof h.loop.steer> | undefined;
    let withdrawn: boolean | undefined;
    const h = loopWith([replyTools(['t1', 'bash', { command: 'npm test' }]), replyText('Tests pass.')], {
      tools: {
        bash: () => {
          handle = h.loop.steer({ text: 'Skip the lint.' });
          withdrawn = handle.withdraw();
        },
      },
    });
    expect(await h.run('Run the tests.')).toBe('end_turn');
    expect(withdrawn).toBe(true);
    expect(await handle!.delivered).toBe(false);
    expect(handle!.withdraw()).toBe(false);
    expect(JSON.stringify(h.model.sent[1]!.request.messages)).not.toContain('Skip the lint.');
  });
});
