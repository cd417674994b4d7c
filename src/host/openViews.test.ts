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
