/**
 * The protocol's core (`protocol.ts` is the barrel both sides import): what both panels say and use, and the
 * plumbing that joins the chat's part (`protocolChat.ts`) and the report's (`protocolReport.ts`) into the one
 * protocol: `init`, requests and their responses, and the unions each side sends. The per-view files never
 * import this one, so the protocol's files import one way: validation → core → chat, report → their views.
 */
import type { ChatHostNotification, ChatInitFields, ChatRequestMap, ChatWebviewNotification } from './protocolChat';
import type { ReportHostNotification, ReportInitFields, ReportRequestMap, ReportWebviewNotification } from './protocolReport';

/** Bumped when a message changes shape; the host sends it in `init` so a stale webview can say so. */
export const PROTOCOL_VERSION = 1;

export type WebviewKind = 'chat' | 'report';

/**
 * Matches a result id in text: `#` and 4+ lowercase hex, not inside a longer word. Not global, so it is
 * safe to share; to find every id use `new RegExp(RESULT_ID_PATTERN.source, 'g')`.
 */
export const RESULT_ID_PATTERN = /(?<![\w#&])#([0-9a-f]{4,})(?![0-9A-Za-z_])/;

/** One page of a stored result, for inline recall. */
export interface RecallPage {
  readonly resultId: string;
  readonly bracket: string;
  /** 1-based first line shown. */
  readonly from: number;
  /** Last line shown (from - 1 when nothing is shown). */
  readonly to: number;
  readonly total: number;
  readonly lines: readonly string[];
}

/** What a code block's buttons ask of the editor. */
export type CodeBlockAction = 'copy' | 'insert' | 'newFile';

// ---------------------------------------------------------------------------------------------------
// webview -> host
// ---------------------------------------------------------------------------------------------------

/** Requests the webview makes: method -> [params, result]. */
export interface WebviewRequestMap extends ChatRequestMap, ReportRequestMap {
  /** Lines `offset`..`offset+limit-1` (1-based) of a stored result (the chat's and the report's recall). */
  recall: [{ readonly resultId: string; readonly offset: number; readonly limit: number }, RecallPage];
}

export type WebviewRequestMethod = keyof WebviewRequestMap;
export type RequestParams<M extends WebviewRequestMethod> = WebviewRequestMap[M][0];
export type RequestResult<M extends WebviewRequestMethod> = WebviewRequestMap[M][1];

export type WebviewRequest = {
  [M in WebviewRequestMethod]: {
    readonly type: 'request';
    /** Positive integer, unique per webview instance; echoed in the response. */
    readonly requestId: number;
    readonly method: M;
    readonly params: RequestParams<M>;
  };
}[WebviewRequestMethod];

/** What either panel tells the host. */
export type CoreWebviewNotification =
  /** The webview has loaded and listens: the host answers with `init`. */
  | { readonly type: 'ready'; readonly view: WebviewKind }
  /** Open a stored result in an editor tab. */
  | { readonly type: 'openResult'; readonly resultId: string }
  /** Copy a stored result, in full, to the clipboard. */
  | { readonly type: 'copyResult'; readonly resultId: string }
  /** Open a workspace file (a path shown in a bracket) at a line. */
  | { readonly type: 'openFile'; readonly path: string; readonly line?: number }
  /** Open an http(s) link from rendered Markdown in the browser. */
  | { readonly type: 'openLink'; readonly url: string }
  /** A code block's buttons: copy it, insert it at the editor's cursor, or open it in a new untitled file. */
  | { readonly type: 'codeBlock'; readonly action: CodeBlockAction; readonly code: string; readonly language?: string };

export type WebviewNotification = CoreWebviewNotification | ChatWebviewNotification | ReportWebviewNotification;

export type WebviewToHost = WebviewRequest | WebviewNotification;

// ---------------------------------------------------------------------------------------------------
// host -> webview
// ---------------------------------------------------------------------------------------------------

/** The first message to a webview that sent `ready`: one shape for both panels, each reads its fields. */
export interface InitMessage extends ChatInitFields, ReportInitFields {
  readonly type: 'init';
  readonly protocolVersion: number;
  readonly view: WebviewKind;
  readonly sessionTitle: string;
  /**
   * Every result id the session has given; later ones come with `toolFinished`. The webview links only
   * these: an id-shaped word in a file's text or the model's prose names no result.
   */
  readonly resultIds: readonly string[];
}

export type ResponseMessage =
  | { readonly type: 'response'; readonly requestId: number; readonly ok: true; readonly result: RequestResult<WebviewRequestMethod> }
  | { readonly type: 'response'; readonly requestId: number; readonly ok: false; readonly error: string };

export type HostNotification = InitMessage | ChatHostNotification | ReportHostNotification;

export type HostToWebview = HostNotification | ResponseMessage;

/** The host's answer to a request, typed by the request's method. */
export function responseTo<M extends WebviewRequestMethod>(
  request: Extract<WebviewRequest, { method: M }>,
  result: RequestResult<M>,
): ResponseMessage {
  return { type: 'response', requestId: request.requestId, ok: true, result };
}

/** A request the host could not answer; `error` is shown to the user as it is, so say what to do. */
export function errorResponseTo(request: WebviewRequest, error: string): ResponseMessage {
  return { type: 'response', requestId: request.requestId, ok: false, error };
}
