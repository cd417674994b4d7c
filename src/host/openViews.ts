import type { HostNotification, HostToWebview, WebviewKind } from '../shared/protocol';
import type { ViewSink } from './hostPorts';

/**
 * The webviews showing the session (the chat, the report panel), and how a message reaches them: a view
 * that is gone (a disposed webview) is dropped, never an error for the sender.
 */
export class OpenViews {
  private readonly views = new Map<ViewSink, WebviewKind>();
  /** Messages for a kind of view none of which is open yet (a command that opens it sent them first). */
  private readonly pending = new Map<WebviewKind, HostNotification[]>();

  /** `observe` sees every message broadcast, before the views do (the running turn keeps its copy). */
  constructor(private readonly observe: (message: HostNotification) => void) {}

  add(sink: ViewSink, kind: WebviewKind): { dispose(): void } {
    this.views.set(sink, kind);
    return { dispose: () => this.views.delete(sink) };
  }

  entries(): Array<[ViewSink, WebviewKind]> {
    return [...this.views];
  }

  /** To every view, or only to views of one kind. */
  broadcast(message: HostToWebview, only?: WebviewKind): void {
    if (message.type !== 'response') this.observe(message);
    for (const [sink, kind] of this.views) if (!only || kind === only) this.post(sink, message);
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
  }
}
