/**
 * The webview's end of the protocol: posts notifications, makes requests (each resolved by the host's
 * `response` with the same id) and hands host notifications to the views. VS Code gives the page
 * `acquireVsCodeApi()`; the browser tests give it a fake host with the same shape.
 */
import type {
  HostNotification,
  HostToWebview,
  RequestParams,
  RequestResult,
  WebviewNotification,
  WebviewRequestMethod,
} from '../../src/shared/protocol';

/** What `acquireVsCodeApi()` returns (the part Cairn uses). */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare global {
  function acquireVsCodeApi(): VsCodeApi;
}

/** The host answered a request with an error (e.g. an id the session never gave). */
export class HostRequestError extends Error {
  override readonly name = 'HostRequestError';
}

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

export class HostBridge {
  private nextRequestId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners = new Set<(message: HostNotification) => void>();

  constructor(
    private readonly api: VsCodeApi,
    target: Pick<Window, 'addEventListener'>,
  ) {
    target.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
  }

  notify(message: WebviewNotification): void {
    this.api.postMessage(message);
  }

  request<M extends WebviewRequestMethod>(method: M, params: RequestParams<M>): Promise<RequestResult<M>> {
    const requestId = this.nextRequestId++;
    return new Promise<RequestResult<M>>((resolve, reject) => {
      this.pending.set(requestId, { resolve: resolve as (value: unknown) => void, reject });
      this.api.postMessage({ type: 'request', requestId, method, params });
    });
  }

  onNotification(listener: (message: HostNotification) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  getState<T>(): T | undefined {
    return (this.api.getState() ?? undefined) as T | undefined;
  }

  setState(state: unknown): void {
    this.api.setState(state);
  }

  private receive(data: unknown): void {
    // Other extensions' tooling may post into the page; only protocol messages are handled.
    if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') return;
    const message = data as HostToWebview;
    if (message.type === 'response') {
      const pending = this.pending.get(message.requestId);
      if (!pending) return;
      this.pending.delete(message.requestId);
      if (message.ok) pending.resolve(message.result);
      else pending.reject(new HostRequestError(message.error));
      return;
    }
    for (const listener of this.listeners) listener(message);
  }
}
