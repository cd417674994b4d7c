import { describe, expect, it } from 'vitest';
import type { HostToWebview } from '../shared/protocol';
import type { ViewSink } from './hostPorts';
import { OpenViews } from './openViews';

function sink(): ViewSink & { readonly got: HostToWebview[] } {
  const got: HostToWebview[] = [];
  return { got, post: (message: HostToWebview) => void got.push(message) } as ViewSink & { got: HostToWebview[] };
}

describe('messages for a view that has not loaded yet', () => {
  it('go to an open view at once, and wait (the newest of each type) for the first view of their kind to say ready', () => {
    const views = new OpenViews(() => undefined);
    const report = sink();
    views.add(report, 'report');
    views.deliver({ type: 'selectTurn', turn: 2 }, 'report');
    expect(report.got).toEqual([{ type: 'selectTurn', turn: 2 }]);

    // No chat open: `Focus Chat` and "Show in chat" are kept, the newest reveal only.
    views.deliver({ type: 'focusInput' }, 'chat');
    views.deliver({ type: 'revealTurn', turn: 1 }, 'chat');
    views.deliver({ type: 'revealTurn', turn: 3 }, 'chat');
    const chat = sink();
    views.add(chat, 'chat');
    views.postPending(chat, 'chat');
    expect(chat.got).toEqual([{ type: 'focusInput' }, { type: 'revealTurn', turn: 3 }]);
    // Once given, not again.
    const second = sink();
    views.postPending(second, 'chat');
    expect(second.got).toEqual([]);
  });
});

describe('a view between its ready and its init', () => {
  it('gets what was broadcast meanwhile after the init, less the streamed events and the cards the init already shows', () => {
    const views = new OpenViews(() => undefined);
    const chat = sink();
    views.open(chat, 'chat');
    const saved: HostToWebview = {
      type: 'notice',
      turn: 0,
      level: 'info',
      kind: 'api_key',
      message: 'API key saved and checked.',
      action: 'resend',
    };
    const unsent: HostToWebview = {
      type: 'error',
      turn: 0,
      kind: 'unsent',
      message: 'Not sent: no API key.',
      action: 'setApiKey',
      unsent: 'hi',
    };
    views.broadcast(unsent, 'chat');
    views.broadcast({ type: 'textDelta', turn: 0, text: 'streamed' }, 'chat');
    views.broadcast(saved, 'chat');
    views.broadcast({ type: 'model', model: 'claude-x' }, 'chat');
    // Nothing reaches the view before its init (which would replace it).
    expect(chat.got).toEqual([]);

    views.opened(chat, [
      { index: 0, items: [{ type: 'error', kind: 'unsent', message: 'Not sent: no API key.', action: 'setApiKey', unsent: 'hi' }] },
    ]);
    expect(chat.got).toEqual([saved, { type: 'model', model: 'claude-x' }]);
    // From then on, straight through.
    views.broadcast({ type: 'textDelta', turn: 0, text: 'more' }, 'chat');
    expect(chat.got.at(-1)).toEqual({ type: 'textDelta', turn: 0, text: 'more' });
  });
});
