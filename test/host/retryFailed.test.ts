/**
 * Retry after a request that failed before any answer (issue 17, item 9): after a 401, saving a key offers
 * Retry, and Retry (like the one on a server error) asks again for the answer to the waiting message. The
 * next request carries the user's text once, in one user message: sending the text again would have
 * joined it to the waiting message (`unmarkSent`), so the model read it twice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

let host: HostRun | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

type NoticeMessage = Extract<HostNotification, { type: 'notice' }>;
type Body = { messages: { role: string; content: string | { type: string; text?: string }[] }[] };
const mains = (run: HostRun) => run.server.requests.filter((r) => r.kind === 'main');

async function act(run: HostRun, action: 'retry'): Promise<void> {
  const before = run.posted('busy').length;
  await run.chat.fromPage({ type: 'action', action });
  await waitFor(
    () =>
      run
        .posted<{ type: 'busy'; busy: boolean }>('busy')
        .slice(before)
        .some((m) => !m.busy),
    'the retried run',
  );
}

function occurrences(body: unknown, text: string): number {
  return JSON.stringify(body).split(text).length - 1;
}

describe('Retry after a request that failed before any answer', () => {
  it('after a 401, a saved key offers Retry; the retried request has the message once, and the answer lands in the same turn', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-retry-0001',
      scenario: {
        turns: [
          { user: 'list the files' },
          { fault: { status: 401, message: 'invalid x-api-key' } },
          { assistant: { text: 'Two files.' } },
        ],
      },
    });
    const run = host;
    await run.send('list the files');
    expect(run.posted<Extract<HostNotification, { type: 'error' }>>('error').at(-1)?.kind).toBe('auth');

    shim.inputBoxAnswers.push('sk-ant-test-key-retry-0002');
    await shim.commands.get('cairn.setApiKey')!();
    const ready = run.posted<NoticeMessage>('notice').filter((n) => n.kind === 'api_key');
    expect(ready.at(-1)?.action).toBe('retry');

    await act(run, 'retry');
    const body = mains(run).at(-1)!.body as Body;
    expect(body.messages.filter((m) => m.role === 'user')).toHaveLength(1);
    expect(occurrences(body, 'list the files')).toBe(1);
    // No second turn in the chat: the answer belongs to the message that waited for it.
    expect(run.posted<Extract<HostNotification, { type: 'turnStarted' }>>('turnStarted')).toHaveLength(1);
    expect(run.posted<Extract<HostNotification, { type: 'textDelta' }>>('textDelta').at(-1)?.turn).toBe(0);
    // The journal has the message once: a reload shows one turn with its answer.
    await run.reload();
    const turns = run.posted<Extract<HostNotification, { type: 'init' }>>('init').at(-1)!.turns;
    expect(turns).toHaveLength(1);
    expect(turns[0]!.items.filter((i) => i.type === 'user')).toHaveLength(1);
    expect(turns[0]!.items.some((i) => i.type === 'assistant' && i.text === 'Two files.')).toBe(true);
  });

  it('Retry after an overload that outlasted the client’s retries asks again without repeating the message; with every message answered it sends the text', async () => {
    host = await startHost({
      apiKey: 'sk-ant-test-key-retry-0003',
      scenario: {
        turns: [
          { user: 'count the tests' },
          // The client tries 4 times (DEFAULT_RETRY), then gives up.
          ...Array.from({ length: 4 }, () => ({ fault: { status: 529, message: 'overloaded' } })),
          { assistant: { text: 'Twelve.' } },
          { user: 'count the tests' },
          { assistant: { text: 'Still twelve.' } },
        ],
      },
    });
    const run = host;
    await run.send('count the tests');
    const error = run.posted<Extract<HostNotification, { type: 'error' }>>('error').at(-1);
    expect(error?.action).toBe('retry');
    await act(run, 'retry');
    expect(occurrences(mains(run).at(-1)!.body, 'count the tests')).toBe(1);
    // Answered now: Retry sends the message again as a new one (the user asked for a second answer).
    await act(run, 'retry');
    const last = mains(run).at(-1)!.body as Body;
    expect(occurrences(last, 'count the tests')).toBe(2);
    expect(last.messages.filter((m) => m.role === 'user')).toHaveLength(2);
  });
});
