import { describe, expect, it } from 'vitest';
import type { HostNotification } from '../../src/shared/protocol';
import { HostBridge, type VsCodeApi } from '../common/hostBridge';
import { ChatStore } from './chatStore';
import { applyTurnEvent, isTurnEvent, type Turns } from '../../src/shared/transcript';

/** A FAKE webview: the messages the page would receive, and a frame the test triggers by hand. */
function fakePage() {
  let receive: ((event: MessageEvent<unknown>) => void) | undefined;
  const sent: unknown[] = [];
  const api: VsCodeApi = { postMessage: (message) => void sent.push(message), getState: () => undefined, setState: () => undefined };
  const target = { addEventListener: (_type: string, listener: (event: MessageEvent<unknown>) => void) => (receive = listener) };
  const frames: (() => void)[] = [];
  const store = new ChatStore(new HostBridge(api, target as unknown as Pick<Window, 'addEventListener'>), (flush) => frames.push(flush));
  return {
    store,
    post: (...messages: HostNotification[]) => messages.forEach((data) => receive?.({ data } as MessageEvent<unknown>)),
    frame: () => frames.splice(0).forEach((flush) => flush()),
    pendingFrames: () => frames.length,
    sent,
  };
}

function play(events: readonly HostNotification[]): Turns {
  return events.reduce<Turns>((acc, event) => (isTurnEvent(event) ? applyTurnEvent(acc, event) : acc), []);
}

describe('ChatStore streaming', () => {
  it('applies the deltas of one frame together, once, at the frame', () => {
    const page = fakePage();
    page.post({ type: 'turnStarted', turn: 0, text: 'hi' });
    const before = page.store.turns.value;
    page.post(
      { type: 'textDelta', turn: 0, text: 'Hel' },
      { type: 'textDelta', turn: 0, text: 'lo ' },
      { type: 'textDelta', turn: 0, text: 'there' },
    );
    expect(page.store.turns.value).toBe(before);
    expect(page.pendingFrames()).toBe(1);
    page.frame();
    expect(page.store.turns.value[0]?.items.at(-1)).toEqual({ type: 'assistant', text: 'Hello there', streaming: true });
  });

  it('ends with the same transcript as applying every event in turn, whatever falls between frames', () => {
    const events: HostNotification[] = [
      { type: 'turnStarted', turn: 3, text: 'go' },
      { type: 'thinkingDelta', turn: 3, text: 'hm' },
      { type: 'thinkingDelta', turn: 3, text: 'm' },
      { type: 'textDelta', turn: 3, text: 'Reading ' },
      { type: 'textDelta', turn: 3, text: 'the file.' },
      { type: 'toolStarted', turn: 3, callId: 'c1', tool: 'read', summary: 'a.ts' },
      { type: 'textDelta', turn: 3, text: 'Done' },
      {
        type: 'usage',
        meter: {
          inputTokens: 1,
          outputTokens: 1,
          contextTokens: 1,
          contextWindow: 10,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          costUsd: 0,
          tokensSaved: 0,
        },
      } as unknown as HostNotification,
      { type: 'textDelta', turn: 3, text: ', all of it.' },
      { type: 'assistantDone', turn: 3, incomplete: false },
    ];
    for (const frameEvery of [1, 2, 3, 100]) {
      const page = fakePage();
      events.forEach((event, i) => {
        page.post(event);
        if ((i + 1) % frameEvery === 0) page.frame();
      });
      page.frame();
      expect(page.store.turns.value, `a frame every ${frameEvery} events`).toEqual(play(events));
    }
  });

  it('applies waiting text before any other event, so a tool call never overtakes it', () => {
    const page = fakePage();
    page.post({ type: 'turnStarted', turn: 0, text: 'hi' }, { type: 'textDelta', turn: 0, text: 'First' });
    page.post({ type: 'toolStarted', turn: 0, callId: 'c1', tool: 'bash', summary: 'ls' });
    expect(page.store.turns.value[0]?.items.map((item) => item.type)).toEqual(['user', 'assistant', 'tool']);
    page.frame(); // the frame finds nothing left to apply
    expect(page.store.turns.value[0]?.items).toHaveLength(3);
  });
});

describe('slash completion', () => {
  it('offers the host commands and the skills a user may invoke, by name, without duplicates', () => {
    const page = fakePage();
    const store = page.store;
    page.post({
      type: 'skills',
      skills: [
        { name: 'release-notes', description: 'Write release notes', scope: 'workspace', file: 'a', userInvocable: true, active: false },
        { name: 'internal', description: 'Model only', scope: 'user', file: 'b', userInvocable: false, active: false },
        { name: 'compact', description: 'Clash', scope: 'user', file: 'c', userInvocable: true, active: false },
      ],
    });
    store.slashCommands.value = [
      { name: 'compact', description: 'Compact the context' },
      { name: 'new', description: 'New session' },
    ];
    expect(store.slashChoices.value.map((c) => c.name)).toEqual(['compact', 'new', 'release-notes']);
    expect(store.slashChoices.value.find((c) => c.name === 'release-notes')!.description).toBe(
      'Skill, stays on for the session: Write release notes',
    );
  });
});

describe('ChatStore permission mode', () => {
  const init = (permissionMode: 'ask' | 'plan') =>
    ({
      type: 'init',
      protocolVersion: 1,
      view: 'chat',
      sessionTitle: 's',
      turns: [],
      hasOlderTurns: false,
      resultIds: [],
      busy: false,
      permissionMode,
    }) as const;

  it("shows the host's mode, and Shift+Tab asks the host for the next one in the cycle", () => {
    const page = fakePage();
    page.post(init('ask'));
    expect(page.store.permissionMode.value).toBe('ask');
    page.store.cyclePermissionMode();
    expect(page.sent.at(-1)).toEqual({ type: 'setPermissionMode', mode: 'acceptEdits' });
    // The control shows what the host confirms, not what was asked.
    expect(page.store.permissionMode.value).toBe('ask');
    page.post({ type: 'permissionMode', mode: 'plan' });
    page.store.cyclePermissionMode();
    expect(page.sent.at(-1)).toEqual({ type: 'setPermissionMode', mode: 'auto' });
  });

  it('offers "Start it" in plan mode once a turn ended on the model\'s answer, and not while it runs or in another mode', () => {
    const page = fakePage();
    page.post(init('plan'), { type: 'turnStarted', turn: 0, text: 'plan a refactor' }, { type: 'busy', busy: true });
    expect(page.store.planReady.value).toBe(false);
    page.post({ type: 'textDelta', turn: 0, text: '1. Rename. 2. Test.' });
    page.frame();
    page.post({ type: 'assistantDone', turn: 0, incomplete: false }, { type: 'busy', busy: false });
    expect(page.store.planReady.value).toBe(true);
    page.store.startPlan('acceptEdits');
    expect(page.sent.at(-1)).toEqual({ type: 'startPlan', mode: 'acceptEdits' });
    page.post({ type: 'permissionMode', mode: 'acceptEdits' });
    expect(page.store.planReady.value).toBe(false);
  });
});
