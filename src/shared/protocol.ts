/**
 * The ONE protocol between the extension host and the webview (chat panel and context report).
 * Both sides import this file; nothing else crosses the boundary.
 *
 * Shape (after continuedev/continue's `type -> [params, result]` maps and gitlens' request ids):
 * - webview -> host: notifications (fire and forget) and requests (carry `requestId`, get exactly one
 *   `response` back);
 * - host -> webview: notifications only, plus the `response` to each request.
 *
 * The webview renders only: every fact it shows comes from the host. The host never trusts a message from
 * the webview: `parseWebviewMessage` (protocolValidation.ts) checks every field before anything acts on it.
 *
 * How the loop's `AgentEvent`s map (the host numbers turns from 0; a turn starts with a user message):
 *   user_message -> turnStarted · text_delta -> textDelta · thinking_delta -> thinkingDelta ·
 *   assistant_message -> assistantDone (incomplete as given) · tool_started -> toolStarted ·
 *   approval_requested -> approvalRequested · tool_finished -> toolFinished (ResultView from the
 *   LedgerResult, tokensSaved estimated from fullChars minus the text shown) · usage -> usage (meter) and
 *   snapshot · notice -> notice · error -> error (action 'setApiKey' for a missing key) ·
 *   request_started / done -> busy.
 * A webview that is hidden and shown again reloads and sends `ready` again: answer with a fresh `init`.
 *
 * A barrel only, split per view (issue 34, item 15): `protocolCore.ts` holds what both panels say and use, `init`,
 * requests and responses, and joins the per-view parts into the whole unions; `protocolChat.ts` (views in
 * `protocolChatViews.ts`, `subagentView.ts`, `coldSendView.ts`) is the chat's part; `protocolReport.ts` the
 * context report's. The checks are in `protocolValidation.ts`. They import one way (validation → core →
 * chat, report → their views), never back here.
 */
export type { ResultKind } from '../core/ledger/types';
export type { NoticeLevel } from '../core/agent/events';
export type { ApprovalDetail, ApprovalFile, BoundQuestion, ProposedFileDiff } from '../core/agent/approval';
export type * from './subagentView';
export type * from './coldSendView';
export type * from './protocolChatViews';
export type * from './savingsView';
export * from './protocolChat';
export type * from './protocolReport';
export * from './protocolCore';
export * from './permissionModeView';
export type * from './contextView';
export { parseWebviewMessage, ProtocolError, MESSAGE_LIMITS } from './protocolValidation';
/** How the chat shows control, line-separator, bidi and zero-width characters (the tools refuse the same list in paths). */
export { splitHidden, type VisibleSegment } from '../core/text/visibleText';
/** A cap's gap line read back (`[40 lines elided, full output #id]`, or a shaped cut's `[lines 2-40 elided, …]`): the chat opens it at its lines. */
export { parseElidedLine, type ElidedLine } from '../core/text/elidedLine';
