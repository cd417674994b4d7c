import type { HostNotification, HostToWebview, TurnView, WebviewKind } from '../shared/protocol';
import { isTurnEvent } from '../shared/transcript';
import type { ViewSink } from './hostPorts';

/**
 * The webviews showing the session (the chat, the report panel), and how a message reaches them: a view
 * that is gone (a disposed webview) is dropped, never an error for the sender.
 */
export class OpenViews {
  private readonly views = new Map<ViewSink, WebviewKind>();
  /** Messages for a kind of view none of which is open yet (a command that opens it sent them first). */
  private readonly pending = new Map<WebviewKind, HostNotification[]>();

  /**
   * Views that said `ready` and wait for their first `init` (the session may take seconds to open), with what
   * was broadcast to them meanwhile: posted after that `init`, which would otherwise wipe it (a notice that the
   * key was saved, an error card), less what the `init` already shows.
   */
  private readonly opening = new Map<ViewSink, HostToWebview[]>();

  /** `observe` sees every message broadcast, before the views do (the running turn keeps its copy). */
  constructor(private readonly observe: (message: HostNotification) => void) {}

  add(sink: ViewSink, kind: WebviewKind): { dispose(): void } {
    this.views.set(sink, kind);
    return { dispose: () => this.views.delete(sink) };
  }

  /** A view said `ready`: it is one of the views, and what is broadcast to it waits for its `init` (`opened`). */
  open(sink: ViewSink, kind: WebviewKind): void {
    this.add(sink, kind);
    if (!this.opening.has(sink)) this.opening.set(sink, []);
  }

  /**
   * The view had its `init` (`turns`: the turns it showed): what was broadcast to it since `open` follows. A
   * turn's streamed events are dropped, the `init` having them from the journal or the running turn; a notice or
   * error card goes unless that turn already shows the same card.
   */
  opened(sink: ViewSink, turns: readonly TurnView[]): void {
    const held = this.opening.get(sink) ?? [];
    this.opening.delete(sink);
    for (const message of held) if (!shownBy(turns, message)) this.post(sink, message);
  }

  entries(): Array<[ViewSink, WebviewKind]> {
    return [...this.views];
  }

  /** To every view, or only to views of one kind. */
  broadcast(message: HostToWebview, only?: WebviewKind): void {
    if (message.type !== 'response') this.observe(message);
    for (const [sink, kind] of this.views) {
      if (only && kind !== only) continue;
      const held = this.opening.get(sink);
      if (held) held.push(message);
      else this.post(sink, message);
    }
  }

  /**
   * To the open views of `kind`; with none open, kept (the newest of each type) for the next one that says
   * `ready`, after its `init`: `Focus Chat` or "Show in chat" before the chat view has loaded must not be lost.
   */
  deliver(message: HostNotification, kind: WebviewKind): void {
    if ([...this.views.values()].includes(kind)) {
      this.broadcast(message, kind);
      return;
    }
    const kept = (this.pending.get(kind) ?? []).filter((m) => m.type !== message.type);
    this.pending.set(kind, [...kept, message]);
  }

  /** What `deliver` kept for this kind of view, to the view that just had its `init`. */
  postPending(sink: ViewSink, kind: WebviewKind): void {
    const kept = this.pending.get(kind) ?? [];
    this.pending.delete(kind);
    for (const message of kept) this.post(sink, message);
  }

  post(sink: ViewSink, message: HostToWebview): void {
    try {
      const posted = sink.post(message);
      // A disposed webview rejects; the view is gone and will send `ready` again if it comes back.
      if (posted && typeof (posted as Promise<unknown>).then === 'function') (posted as Promise<unknown>).then(undefined, () => undefined);
    } catch {
      this.views.delete(sink);
    }
  }

  clear(): void {
    this.views.clear();
    this.opening.clear();
  }
}

/** Whether an `init` with these turns already shows `message` (see `OpenViews.opened`). */
function shownBy(turns: readonly TurnView[], message: HostToWebview): boolean {
  if (message.type === 'response' || !isTurnEvent(message)) return false;
  if (message.type !== 'notice' && message.type !== 'error') return true;
  const turn = turns.find((t) => t.index === message.turn);
  return (turn?.items ?? []).some((item) => item.type === message.type && item.kind === message.kind && item.message === message.message);
}
