/**
 * Checks every message the webview sends before the host acts on it. A webview is a web page: a bug, a
 * hostile Markdown payload or a stale bundle can post anything, so each field is checked for type, range
 * and length, unknown fields are refused, and the host gets back a fresh object built only from checked
 * fields (never the raw one). Hand-written on purpose: the protocol is small and a schema library would
 * be one more thing in the bundle.
 */
import type {
  CodeBlockAction,
  WebviewKind,
  WebviewNotification,
  WebviewRequest,
  WebviewRequestMethod,
  WebviewToHost,
} from './protocolCore';
import type { ApprovalDecision, HostAction, PastedImage, QueuedMessageAction } from './protocolChatViews';
import { COLD_SEND_CHOICES } from './coldSendView';
import { PERMISSION_MODE_CYCLE, PLAN_START_MODES } from './permissionModeView';

/** Why a message from the webview was refused; the host logs it and does nothing else. */
export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  constructor(message: string) {
    super(message);
  }
}

/** Limits on what one message may carry; generous for people, small enough that nothing is exhausted. */
export const MESSAGE_LIMITS = Object.freeze({
  /** A user's message to the agent. */
  sendChars: 1_000_000,
  denyReasonChars: 2_000,
  /** What the user asks a compaction's summary to keep. */
  compactInstructionsChars: 10_000,
  pathChars: 4_096,
  urlChars: 4_096,
  /** Most lines one recall page may ask for (spec: recall shows up to 2000 lines). */
  recallLimit: 2_000,
  olderTurnsLimit: 200,
  /** Most results one drop from the context (or one "show in context") may name. */
  resultIds: 10_000,
  /** Largest offset, turn or generation number accepted. */
  maxIndex: 1_000_000_000,
});

const RESULT_ID = /^#?([0-9a-f]{4,32})$/;
const CALL_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** A sub-agent's id as `core/subagents/` gives them: its kind, a dash, a number (`explore-1`). */
const AGENT_ID = /^[a-z][a-z0-9_]{0,31}-[0-9]{1,9}$/;

const APPROVAL_DECISIONS: readonly ApprovalDecision[] = ['allow-once', 'allow-session', 'allow-always', 'deny'];
const HOST_ACTIONS: readonly HostAction[] = [
  'setApiKey',
  'retry',
  'newSession',
  'compact',
  'showReport',
  'openSettings',
  'resend',
  'continue',
  'regenerate',
];
/** A model id as the Models API gives them (letters, digits, and . _ : / @ -). */
const MODEL_ID = /^[A-Za-z0-9][A-Za-z0-9._:/@-]{0,199}$/;
const VIEWS: readonly WebviewKind[] = ['chat', 'report'];
const COMPACTION_ACTIONS = ['apply', 'discard', 'undo'] as const;
const CODE_BLOCK_ACTIONS: readonly CodeBlockAction[] = ['copy', 'insert', 'newFile'];
const QUEUED_MESSAGE_ACTIONS: readonly QueuedMessageAction[] = ['sendNow', 'edit', 'remove'];
/** A fence's info word as markdown-it gives it (`ts`, `c++`, `objective-c`, `c#`); anything else is dropped. */
const LANGUAGE = /^[A-Za-z0-9_+#.-]{1,40}$/;

/** Thrown inside this module only; turned into a returned ProtocolError at the boundary. */
class Refusal {
  constructor(readonly message: string) {}
}

function refuse(message: string): never {
  throw new Refusal(message);
}

/** A plain object with exactly the allowed keys (a subset of them for optional fields). */
function record(value: unknown, where: string, allowed: readonly string[]): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse(`${where} must be an object`);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) refuse(`${where} must be a plain object`);
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) refuse(`${where} has an unknown field "${key.slice(0, 40)}"`);
  }
  return value as Record<string, unknown>;
}

function text(value: unknown, where: string, max: number, options: { nonBlank?: boolean } = {}): string {
  if (typeof value !== 'string') refuse(`${where} must be a string`);
  if (value.length > max) refuse(`${where} is longer than ${max} characters`);
  if (options.nonBlank && value.trim() === '') refuse(`${where} must not be empty`);
  return value;
}

/** At most 8 images of up to 30 MB each (base64: 4 characters per 3 bytes); the host checks and scales them. */
const PASTED_IMAGES = 8;
const PASTED_IMAGE_CHARS = Math.ceil((30 * 1024 * 1024) / 3) * 4;
const PASTED_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;

function pastedImages(value: unknown): PastedImage[] {
  if (!Array.isArray(value) || value.length > PASTED_IMAGES) refuse(`images must be a list of at most ${PASTED_IMAGES} images`);
  return items(value, 'images').map((item: unknown, i) => {
    const where = `images[${i}]`;
    if (typeof item !== 'object' || item === null) refuse(`${where} must be an object`);
    const image = item as Record<string, unknown>;
    for (const key of Object.keys(image))
      if (!['name', 'mediaType', 'data'].includes(key)) refuse(`${where}.${key} is not a field of an image`);
    const data = text(image.data, `${where}.data`, PASTED_IMAGE_CHARS, { nonBlank: true });
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(data)) refuse(`${where}.data must be base64`);
    return {
      name: text(image.name, `${where}.name`, MESSAGE_LIMITS.pathChars, { nonBlank: true }),
      mediaType: member(image.mediaType, `${where}.mediaType`, PASTED_MEDIA_TYPES),
      data,
    };
  });
}

/**
 * A list's items, refusing a hole: a sparse array (which a structured clone carries) has a length but no item
 * at some index, which `map` skips and hands on as `undefined`, so the host would get a list it never checked.
 */
function items(list: readonly unknown[], where: string): readonly unknown[] {
  for (let i = 0; i < list.length; i++) if (!Object.hasOwn(list, i)) refuse(`${where}[${i}] is missing: a list must not have holes`);
  return list;
}

function integer(value: unknown, where: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) refuse(`${where} must be a whole number`);
  if (value < min || value > max) refuse(`${where} must be between ${min} and ${max}`);
  return value;
}

function member<T extends string>(value: unknown, where: string, allowed: readonly T[]): T {
  if (typeof value !== 'string' || !(allowed as readonly string[]).includes(value)) {
    refuse(`${where} must be one of ${allowed.join(', ')}`);
  }
  return value as T;
}

/** Result ids are normalised to `#hex`; the `#` may be left out, as in the `recall` tool. */
function resultId(value: unknown, where: string): string {
  if (typeof value !== 'string') refuse(`${where} must be a string`);
  const match = RESULT_ID.exec(value);
  if (!match) refuse(`${where} must be a result id: # and 4 to 32 lowercase hex digits`);
  return `#${match[1]}`;
}

function callId(value: unknown, where: string): string {
  if (typeof value !== 'string' || !CALL_ID.test(value)) refuse(`${where} must be a tool call id (letters, digits, _ and -)`);
  return value;
}

function httpUrl(value: unknown, where: string): string {
  const raw = text(value, where, MESSAGE_LIMITS.urlChars);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    refuse(`${where} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') refuse(`${where} must be an http or https URL`);
  return url.href;
}

function workspacePath(value: unknown, where: string): string {
  const path = text(value, where, MESSAGE_LIMITS.pathChars, { nonBlank: true });
  // The host's workspace checks refuse escapes; a NUL never belongs in a path and confuses some APIs.
  if (path.includes('\0')) refuse(`${where} must not contain a NUL character`);
  return path;
}

function parseRequest(message: Record<string, unknown>): WebviewRequest {
  record(message, 'request', ['type', 'requestId', 'method', 'params']);
  const requestId = integer(message.requestId, 'requestId', 1, Number.MAX_SAFE_INTEGER);
  const method = member<WebviewRequestMethod>(message.method, 'method', [
    'recall',
    'olderTurns',
    'compactionDetails',
    'models',
    'mentionCandidates',
    'contextInventory',
    'dropPreview',
    'dropResults',
    'savings',
    'exportSavings',
  ]);
  const where = `${method} params`;
  switch (method) {
    case 'recall': {
      const p = record(message.params, where, ['resultId', 'offset', 'limit']);
      return {
        type: 'request',
        requestId,
        method,
        params: {
          resultId: resultId(p.resultId, `${where}.resultId`),
          offset: integer(p.offset, `${where}.offset`, 1, MESSAGE_LIMITS.maxIndex),
          limit: integer(p.limit, `${where}.limit`, 1, MESSAGE_LIMITS.recallLimit),
        },
      };
    }
    case 'olderTurns': {
      const p = record(message.params, where, ['beforeTurn', 'limit']);
      return {
        type: 'request',
        requestId,
        method,
        params: {
          beforeTurn: integer(p.beforeTurn, `${where}.beforeTurn`, 0, MESSAGE_LIMITS.maxIndex),
          limit: integer(p.limit, `${where}.limit`, 1, MESSAGE_LIMITS.olderTurnsLimit),
        },
      };
    }
    case 'compactionDetails': {
      const p = record(message.params, where, ['generation', 'preview']);
      const generation = integer(p.generation, `${where}.generation`, 0, MESSAGE_LIMITS.maxIndex);
      if (p.preview === undefined) return { type: 'request', requestId, method, params: { generation } };
      if (typeof p.preview !== 'boolean') refuse(`${where}.preview must be true or false`);
      return { type: 'request', requestId, method, params: { generation, preview: p.preview } };
    }
    case 'models':
      record(message.params, where, []);
      return { type: 'request', requestId, method, params: {} };
    case 'mentionCandidates': {
      const p = record(message.params, where, ['query']);
      return { type: 'request', requestId, method, params: { query: text(p.query, `${where}.query`, MESSAGE_LIMITS.pathChars) } };
    }
    case 'contextInventory':
    case 'savings':
    case 'exportSavings':
      record(message.params, where, []);
      return { type: 'request', requestId, method, params: {} };
    case 'dropPreview':
    case 'dropResults': {
      const p = record(message.params, where, ['resultIds']);
      return { type: 'request', requestId, method, params: { resultIds: resultIds(p.resultIds, `${where}.resultIds`, 1) } };
    }
  }
}

/** A list of result ids (issue 35's choices), at least `min`, at most `MESSAGE_LIMITS.resultIds`, each normalised. */
function resultIds(value: unknown, where: string, min: number): string[] {
  if (!Array.isArray(value)) refuse(`${where} must be a list of result ids`);
  if (value.length < min || value.length > MESSAGE_LIMITS.resultIds)
    refuse(`${where} must hold ${min} to ${MESSAGE_LIMITS.resultIds} result ids`);
  return [...new Set(items(value, where).map((id, i) => resultId(id, `${where}[${i}]`)))];
}

function parseNotification(type: string, m: Record<string, unknown>): WebviewNotification {
  switch (type) {
    case 'ready':
      record(m, type, ['type', 'view']);
      return { type, view: member(m.view, 'view', VIEWS) };
    case 'send': {
      record(m, type, ['type', 'text', 'images']);
      const sent = text(m.text, 'text', MESSAGE_LIMITS.sendChars, { nonBlank: true });
      return m.images === undefined ? { type, text: sent } : { type, text: sent, images: pastedImages(m.images) };
    }
    case 'cancel':
      record(m, type, ['type']);
      return { type };
    case 'approval': {
      record(m, type, ['type', 'callId', 'decision', 'reason', 'agent']);
      const decision = member(m.decision, 'decision', APPROVAL_DECISIONS);
      if (m.reason !== undefined && decision !== 'deny') refuse('reason is only given with decision "deny"');
      if (m.agent !== undefined && (typeof m.agent !== 'string' || !AGENT_ID.test(m.agent)))
        refuse('agent must be a sub-agent id such as explore-1');
      const base = {
        type,
        callId: callId(m.callId, 'callId'),
        decision,
        ...(m.agent !== undefined ? { agent: m.agent as string } : {}),
      } as const;
      return m.reason === undefined ? base : { ...base, reason: text(m.reason, 'reason', MESSAGE_LIMITS.denyReasonChars) };
    }
    case 'reviewChange': {
      record(m, type, ['type', 'callId', 'agent', 'path']);
      if (m.agent !== undefined && (typeof m.agent !== 'string' || !AGENT_ID.test(m.agent)))
        refuse('agent must be a sub-agent id such as explore-1');
      return {
        type,
        callId: callId(m.callId, 'callId'),
        ...(m.agent !== undefined ? { agent: m.agent as string } : {}),
        ...(m.path !== undefined ? { path: workspacePath(m.path, 'path') } : {}),
      };
    }
    case 'revokeAllowance':
      record(m, type, ['type', 'id']);
      if (typeof m.id !== 'string' || !/^(session|user|settings):[\x20-\x7e]{1,300}$/.test(m.id))
        refuse('id must be an allowance id from the allowances list');
      return { type, id: m.id };
    case 'action':
      record(m, type, ['type', 'action']);
      return { type, action: member(m.action, 'action', HOST_ACTIONS) };
    case 'openResult':
    case 'copyResult':
      record(m, type, ['type', 'resultId']);
      return { type, resultId: resultId(m.resultId, 'resultId') };
    case 'openFile': {
      record(m, type, ['type', 'path', 'line']);
      const path = workspacePath(m.path, 'path');
      return m.line === undefined ? { type, path } : { type, path, line: integer(m.line, 'line', 1, MESSAGE_LIMITS.maxIndex) };
    }
    case 'openLink':
      record(m, type, ['type', 'url']);
      return { type, url: httpUrl(m.url, 'url') };
    case 'showContext': {
      record(m, type, ['type', 'resultIds']);
      return { type, resultIds: resultIds(m.resultIds, `${type}.resultIds`, 0) };
    }
    case 'showTurn':
    case 'showTurnRequests':
      record(m, type, ['type', 'turn']);
      return { type, turn: integer(m.turn, 'turn', 0, MESSAGE_LIMITS.maxIndex) };
    case 'codeBlock': {
      record(m, type, ['type', 'action', 'code', 'language']);
      const action = member(m.action, 'action', CODE_BLOCK_ACTIONS);
      const code = text(m.code, 'code', MESSAGE_LIMITS.sendChars);
      if (m.language === undefined) return { type, action, code };
      if (typeof m.language !== 'string' || !LANGUAGE.test(m.language)) refuse('language must be a short language name');
      return { type, action, code, language: m.language };
    }
    case 'compaction':
      record(m, type, ['type', 'action']);
      return { type, action: member(m.action, 'action', COMPACTION_ACTIONS) };
    case 'compact': {
      record(m, type, ['type', 'preview', 'instructions']);
      if (typeof m.preview !== 'boolean') refuse('preview must be true or false');
      if (m.instructions === undefined) return { type, preview: m.preview };
      return { type, preview: m.preview, instructions: text(m.instructions, 'instructions', MESSAGE_LIMITS.compactInstructionsChars) };
    }
    case 'openChange':
      record(m, type, ['type', 'checkpointId', 'path']);
      if (typeof m.checkpointId !== 'string' || !/^cp-\d{1,9}$/.test(m.checkpointId)) refuse('checkpointId must look like cp-12');
      return { type, checkpointId: m.checkpointId, path: workspacePath(m.path, 'path') };
    case 'restoreToTurn':
      record(m, type, ['type', 'turn']);
      return { type, turn: integer(m.turn, 'turn', 0, MESSAGE_LIMITS.maxIndex) };
    case 'editMessage':
      record(m, type, ['type', 'turn', 'text']);
      return {
        type,
        turn: integer(m.turn, 'turn', 0, MESSAGE_LIMITS.maxIndex),
        text: text(m.text, 'text', MESSAGE_LIMITS.sendChars, { nonBlank: true }),
      };
    case 'dropFiles': {
      record(m, type, ['type', 'uris']);
      if (!Array.isArray(m.uris) || m.uris.length === 0 || m.uris.length > 50) refuse('uris must be a list of 1 to 50 file URIs');
      const uris = items(m.uris, 'uris').map((uri, i) => {
        const value = text(uri, `uris[${i}]`, MESSAGE_LIMITS.urlChars, { nonBlank: true });
        if (!value.startsWith('file:')) refuse(`uris[${i}] must be a file: URI`);
        return value;
      });
      return { type, uris };
    }
    case 'pickModel': {
      record(m, type, ['type', 'model']);
      const model = text(m.model, 'model', 200, { nonBlank: true });
      if (!MODEL_ID.test(model)) refuse('model must be a model id (letters, digits, and . _ : / @ -)');
      return { type, model };
    }
    case 'toggleSkill': {
      record(m, type, ['type', 'name', 'active']);
      if (typeof m.active !== 'boolean') refuse('active must be true or false');
      const name = text(m.name, 'name', 64, { nonBlank: true });
      if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) refuse('name must be a skill name (lowercase letters, digits and hyphens)');
      return { type, name, active: m.active };
    }
    case 'queuedMessage':
      record(m, type, ['type', 'id', 'action']);
      return {
        type,
        id: integer(m.id, 'id', 1, MESSAGE_LIMITS.maxIndex),
        action: member(m.action, 'action', QUEUED_MESSAGE_ACTIONS),
      };
    case 'coldSendChoice':
      record(m, type, ['type', 'id', 'choice', 'dontAskAgain']);
      if (typeof m.dontAskAgain !== 'boolean') refuse('dontAskAgain must be a boolean');
      return {
        type,
        id: integer(m.id, 'id', 1, MESSAGE_LIMITS.maxIndex),
        choice: member(m.choice, 'choice', COLD_SEND_CHOICES),
        dontAskAgain: m.dontAskAgain,
      };
    case 'setPermissionMode':
      record(m, type, ['type', 'mode']);
      return { type, mode: member(m.mode, 'mode', PERMISSION_MODE_CYCLE) };
    case 'startPlan':
      record(m, type, ['type', 'mode']);
      return { type, mode: member(m.mode, 'mode', PLAN_START_MODES) };
    default:
      refuse(`unknown message type "${type.slice(0, 40)}"`);
  }
}

/**
 * Returns the message rebuilt from checked fields, or a ProtocolError saying what was wrong. Never throws,
 * whatever `raw` is (including proxies and objects with throwing getters).
 */
export function parseWebviewMessage(raw: unknown): WebviewToHost | ProtocolError {
  try {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) refuse('message must be an object');
    const type = (raw as { type?: unknown }).type;
    if (typeof type !== 'string') refuse('message has no string "type"');
    const message = raw as Record<string, unknown>;
    return type === 'request' ? parseRequest(message) : parseNotification(type, message);
  } catch (error) {
    if (error instanceof Refusal) return new ProtocolError(`Refused a message from the webview: ${error.message}.`);
    return new ProtocolError('Refused a message from the webview: it could not be read.');
  }
}
