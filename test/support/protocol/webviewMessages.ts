/**
 * Valid examples of every message the webview may send, and what each of their fields takes, for the protocol
 * validator's tests (`src/shared/protocolValidation.test.ts` fuzzes every example). The tables are keyed by every
 * notification type and every request method of the protocol's unions, and each kind's rules by every field of
 * its type: a kind (or a field) added to the protocol fails `tsc` here until it has an example and its rules, so
 * no message reaches the host unfuzzed.
 */
import type { PastedImage, RequestParams, WebviewRequest, WebviewRequestMethod, WebviewToHost } from '../../../src/shared/protocol';
import { MESSAGE_LIMITS } from '../../../src/shared/protocol';

/** Strings no id, name, enum member, URL or number field takes (a token lists those it takes as `alsoValid`). */
export const BAD_STRINGS = ['', 'DENY ME', '#ZZZZ', 'javascript:x', '\0', 'x y'] as const;

/** What a field takes, so the fuzz knows which values are wrong for it. */
export type FieldRule =
  /** An id, a name, an enum member, a URL: refuses every BAD_STRINGS but `alsoValid`, and `alsoWrong`. */
  | {
      readonly kind: 'token';
      readonly alsoValid?: readonly (typeof BAD_STRINGS)[number][];
      readonly alsoWrong?: readonly string[];
    }
  /** Free text: any string up to `max` characters (not blank when `nonBlank`), except `alsoWrong`. */
  | { readonly kind: 'text'; readonly max: number; readonly nonBlank?: true; readonly alsoWrong?: readonly string[] }
  /** A whole number from `min` to `max`. */
  | { readonly kind: 'integer'; readonly min: number; readonly max: number }
  /** Either boolean. */
  | { readonly kind: 'boolean' }
  /** A list of `min` to `max` items, each taking `item` (a hole is a missing item). */
  | { readonly kind: 'list'; readonly min: number; readonly max: number; readonly item: FieldRule }
  /** A plain object with these fields and no other. */
  | { readonly kind: 'object'; readonly fields: Readonly<Record<string, OptionalRule>> };

/** A field's rule, marked `optional` when the message is valid without the field. */
export type OptionalRule = FieldRule & { readonly optional?: true };

/** A rule for every field of `O`, marked optional exactly where `O`'s type makes the field optional. */
export type FieldRules<O> = {
  readonly [K in keyof O]-?: object extends Pick<O, K>
    ? FieldRule & { readonly optional: true }
    : FieldRule & { readonly optional?: never };
};

const token = (options: { alsoValid?: (typeof BAD_STRINGS)[number][]; alsoWrong?: string[] } = {}): FieldRule => ({
  kind: 'token',
  ...options,
});
const text = (max: number, options: { nonBlank?: true; alsoWrong?: string[] } = {}): FieldRule => ({ kind: 'text', max, ...options });
const integer = (min: number, max: number): FieldRule => ({ kind: 'integer', min, max });
const boolean: FieldRule = { kind: 'boolean' };
const list = (min: number, max: number, item: FieldRule): FieldRule => ({ kind: 'list', min, max, item });
const object = <O>(fields: FieldRules<O>): FieldRule => ({ kind: 'object', fields });
const optional = (rule: FieldRule) => ({ ...rule, optional: true }) as const;

const turn = integer(0, MESSAGE_LIMITS.maxIndex);
const workspacePath = text(MESSAGE_LIMITS.pathChars, { nonBlank: true, alsoWrong: ['src/a\0b.ts'] });
const resultIds = (min: number) => list(min, MESSAGE_LIMITS.resultIds, token());
const userText = text(MESSAGE_LIMITS.sendChars, { nonBlank: true });
const image = object<PastedImage>({ name: text(MESSAGE_LIMITS.pathChars, { nonBlank: true }), mediaType: token(), data: token() });

type NotificationType = Exclude<WebviewToHost['type'], 'request'>;
type Notification<T extends NotificationType> = Extract<WebviewToHost, { type: T }>;
type Request<M extends WebviewRequestMethod> = Extract<WebviewRequest, { method: M }>;

/** One kind of notification: at least one valid example, and the rules of its fields (`type` aside). */
interface NotificationKind<T extends NotificationType> {
  readonly examples: readonly [Notification<T>, ...Notification<T>[]];
  readonly fields: FieldRules<Omit<Notification<T>, 'type'>>;
}

/** One request method: at least one valid example, and the rules of its params. */
interface RequestKind<M extends WebviewRequestMethod> {
  readonly examples: readonly [Request<M>, ...Request<M>[]];
  readonly params: FieldRules<RequestParams<M>>;
}

export const NOTIFICATIONS: { readonly [T in NotificationType]: NotificationKind<T> } = {
  ready: {
    examples: [
      { type: 'ready', view: 'chat' },
      { type: 'ready', view: 'report' },
    ],
    fields: { view: token() },
  },
  send: {
    examples: [
      { type: 'send', text: 'Read src/app.ts and explain #a3f2' },
      { type: 'send', text: 'look', images: [{ name: 'shot.png', mediaType: 'image/png', data: 'iVBORw0KGgo=' }] },
      {
        type: 'send',
        text: 'these two',
        images: [
          { name: 'a.jpg', mediaType: 'image/jpeg', data: '/9j/4AAQ' },
          { name: 'b.webp', mediaType: 'image/webp', data: 'UklGRg+=' },
        ],
      },
    ],
    fields: { text: userText, images: optional(list(0, 8, image)) },
  },
  cancel: { examples: [{ type: 'cancel' }], fields: {} },
  approval: {
    examples: [
      { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-once' },
      { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-session' },
      { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-always' },
      { type: 'approval', callId: 'toolu_01AbC-d', decision: 'deny', reason: 'not that folder' },
      { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-once', agent: 'explore-1' },
      { type: 'approval', callId: 'toolu_01AbC-d', decision: 'deny', reason: 'no', agent: 'general-12' },
    ],
    fields: {
      callId: token(),
      decision: token(),
      reason: optional(text(MESSAGE_LIMITS.denyReasonChars)),
      agent: optional(token({ alsoWrong: ['../explore-1', 'explore'] })),
    },
  },
  action: {
    examples: [
      { type: 'action', action: 'setApiKey' },
      { type: 'action', action: 'regenerate' },
    ],
    fields: { action: token() },
  },
  reviewChange: {
    examples: [
      { type: 'reviewChange', callId: 'toolu_01AbC-d' },
      { type: 'reviewChange', callId: 'toolu_01AbC-d', agent: 'explore-2', path: 'src/app.ts' },
    ],
    fields: { callId: token(), agent: optional(token()), path: optional(workspacePath) },
  },
  revokeAllowance: {
    examples: [
      { type: 'revokeAllowance', id: 'session:bash' },
      { type: 'revokeAllowance', id: 'user:mcp:github/search' },
    ],
    fields: { id: token({ alsoWrong: ['workspace:bash', 'session:', 'user:a\nb'] }) },
  },
  showTurnRequests: { examples: [{ type: 'showTurnRequests', turn: 0 }], fields: { turn } },
  showContext: {
    examples: [
      { type: 'showContext', resultIds: [] },
      { type: 'showContext', resultIds: ['#a3f2', '#b710'] },
    ],
    fields: { resultIds: resultIds(0) },
  },
  compaction: {
    examples: [
      { type: 'compaction', action: 'undo' },
      { type: 'compaction', action: 'apply' },
    ],
    fields: { action: token() },
  },
  compact: {
    examples: [
      { type: 'compact', preview: true, instructions: 'keep the test names' },
      { type: 'compact', preview: false },
    ],
    fields: { preview: boolean, instructions: optional(text(MESSAGE_LIMITS.compactInstructionsChars)) },
  },
  openChange: {
    examples: [{ type: 'openChange', checkpointId: 'cp-3', path: 'src/app.ts' }],
    fields: { checkpointId: token({ alsoWrong: ['cp-', 'cp-3x', 'cp-1234567890'] }), path: workspacePath },
  },
  restoreToTurn: { examples: [{ type: 'restoreToTurn', turn: 4 }], fields: { turn } },
  editMessage: { examples: [{ type: 'editMessage', turn: 2, text: 'again, with the tests' }], fields: { turn, text: userText } },
  pickModel: {
    examples: [
      { type: 'pickModel', model: 'claude-sonnet-4-5' },
      { type: 'pickModel', model: 'anthropic/claude-3.5@2024:beta' },
    ],
    // A model id may hold a colon, so `javascript:x` is one.
    fields: { model: token({ alsoValid: ['javascript:x'], alsoWrong: ['-model', 'a'.repeat(201)] }) },
  },
  dropFiles: {
    examples: [
      { type: 'dropFiles', uris: ['file:///work/src/app.ts'] },
      { type: 'dropFiles', uris: ['file:///work/a.ts', 'file:///work/b%20c.ts'] },
    ],
    fields: { uris: list(1, 50, token({ alsoWrong: ['https://example.com/a.ts', '/work/a.ts'] })) },
  },
  toggleSkill: {
    examples: [
      { type: 'toggleSkill', name: 'pdf-tools', active: true },
      { type: 'toggleSkill', name: 'review', active: false },
    ],
    fields: { name: token({ alsoWrong: ['Pdf', 'pdf--tools', '-pdf', 'a'.repeat(65)] }), active: boolean },
  },
  queuedMessage: {
    examples: [
      { type: 'queuedMessage', id: 1, action: 'sendNow' },
      { type: 'queuedMessage', id: 42, action: 'edit' },
      { type: 'queuedMessage', id: 7, action: 'remove' },
    ],
    fields: { id: integer(1, MESSAGE_LIMITS.maxIndex), action: token() },
  },
  coldSendChoice: {
    examples: [
      { type: 'coldSendChoice', id: 1, choice: 'elide', dontAskAgain: true },
      { type: 'coldSendChoice', id: 9, choice: 'asIs', dontAskAgain: false },
    ],
    fields: { id: integer(1, MESSAGE_LIMITS.maxIndex), choice: token(), dontAskAgain: boolean },
  },
  setPermissionMode: {
    examples: [
      { type: 'setPermissionMode', mode: 'acceptEdits' },
      { type: 'setPermissionMode', mode: 'auto' },
    ],
    fields: { mode: token() },
  },
  startPlan: {
    examples: [
      { type: 'startPlan', mode: 'ask' },
      { type: 'startPlan', mode: 'acceptEdits' },
    ],
    // "Start it" never switches into auto (or stays in plan).
    fields: { mode: token({ alsoWrong: ['auto', 'plan'] }) },
  },
  openResult: { examples: [{ type: 'openResult', resultId: '#a3f2' }], fields: { resultId: token() } },
  copyResult: { examples: [{ type: 'copyResult', resultId: '#c9d0e1' }], fields: { resultId: token() } },
  openFile: {
    examples: [
      { type: 'openFile', path: 'src/app.ts', line: 12 },
      { type: 'openFile', path: 'src/app.ts' },
    ],
    fields: { path: workspacePath, line: optional(integer(1, MESSAGE_LIMITS.maxIndex)) },
  },
  openLink: {
    examples: [{ type: 'openLink', url: 'https://example.com/docs' }],
    fields: { url: token({ alsoWrong: ['file:///etc/passwd', 'command:workbench.action.terminal.new'] }) },
  },
  codeBlock: {
    examples: [
      { type: 'codeBlock', action: 'copy', code: '' },
      { type: 'codeBlock', action: 'newFile', code: 'fn main() {}', language: 'rust' },
    ],
    // A fence's info word may start with `#` (c#).
    fields: {
      action: token(),
      code: text(MESSAGE_LIMITS.sendChars),
      language: optional(token({ alsoValid: ['#ZZZZ'], alsoWrong: ['ts"><img'] })),
    },
  },
  showTurn: { examples: [{ type: 'showTurn', turn: 3 }], fields: { turn } },
};

export const REQUESTS: { readonly [M in WebviewRequestMethod]: RequestKind<M> } = {
  recall: {
    examples: [{ type: 'request', requestId: 1, method: 'recall', params: { resultId: '#a3f2', offset: 1, limit: 200 } }],
    params: {
      resultId: token(),
      offset: integer(1, MESSAGE_LIMITS.maxIndex),
      limit: integer(1, MESSAGE_LIMITS.recallLimit),
    },
  },
  olderTurns: {
    examples: [{ type: 'request', requestId: 7, method: 'olderTurns', params: { beforeTurn: 40, limit: 20 } }],
    params: { beforeTurn: turn, limit: integer(1, MESSAGE_LIMITS.olderTurnsLimit) },
  },
  compactionDetails: {
    examples: [
      { type: 'request', requestId: 9, method: 'compactionDetails', params: { generation: 2 } },
      { type: 'request', requestId: 10, method: 'compactionDetails', params: { generation: 2, preview: true } },
    ],
    params: { generation: integer(0, MESSAGE_LIMITS.maxIndex), preview: optional(boolean) },
  },
  models: { examples: [{ type: 'request', requestId: 2, method: 'models', params: {} }], params: {} },
  mentionCandidates: {
    examples: [
      { type: 'request', requestId: 3, method: 'mentionCandidates', params: { query: 'src/' } },
      { type: 'request', requestId: 4, method: 'mentionCandidates', params: { query: '' } },
    ],
    params: { query: text(MESSAGE_LIMITS.pathChars) },
  },
  contextInventory: { examples: [{ type: 'request', requestId: 11, method: 'contextInventory', params: {} }], params: {} },
  dropPreview: {
    examples: [{ type: 'request', requestId: 12, method: 'dropPreview', params: { resultIds: ['#a3f2', '#b710'] } }],
    params: { resultIds: resultIds(1) },
  },
  dropResults: {
    examples: [{ type: 'request', requestId: 13, method: 'dropResults', params: { resultIds: ['#a3f2'] } }],
    params: { resultIds: resultIds(1) },
  },
  savings: { examples: [{ type: 'request', requestId: 21, method: 'savings', params: {} }], params: {} },
  exportSavings: { examples: [{ type: 'request', requestId: 22, method: 'exportSavings', params: {} }], params: {} },
};

/** A valid message and the rules of its top-level fields (a request's `params` as an object rule). */
export interface WebviewMessageExample {
  readonly message: WebviewToHost;
  readonly fields: Rules;
}

type Rules = Readonly<Record<string, OptionalRule>>;

/** Every example of every kind, with its rules. */
export function webviewMessageExamples(): WebviewMessageExample[] {
  const type = token();
  const notifications: readonly { examples: readonly WebviewToHost[]; fields: Rules }[] = Object.values(NOTIFICATIONS);
  const requests: readonly { examples: readonly WebviewToHost[]; params: Rules }[] = Object.values(REQUESTS);
  const requestId = integer(1, Number.MAX_SAFE_INTEGER);
  return [
    ...notifications.flatMap((kind) => kind.examples.map((message) => ({ message, fields: { type, ...kind.fields } }))),
    ...requests.flatMap((kind) =>
      kind.examples.map((message) => ({
        message,
        fields: { type, requestId, method: token(), params: { kind: 'object', fields: kind.params } as const },
      })),
    ),
  ];
}
