/**
 * Reading scenario files: a validating parser whose errors name the turn and the field, and the
 * materialisation of a scenario's `workspace` into a folder.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import {
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_MAX_OUTPUT,
  MAX_IDLE_SECONDS,
  type Fault,
  type FaultTarget,
  type FsOperation,
  type Scenario,
  type ScenarioModel,
  type ScenarioTurn,
  type ScriptedStopReason,
  type ScriptedToolCall,
  type WorkspaceFile,
} from './types';

export class ScenarioError extends Error {
  constructor(
    message: string,
    /** Where in the document, e.g. `turns[3].assistant.tool_calls[0].name`. */
    readonly field: string,
    readonly source?: string,
  ) {
    super(`${source ? `scenario ${source}: ` : 'scenario: '}${field ? `${field}: ` : ''}${message}`);
    this.name = 'ScenarioError';
  }
}

type JsonObject = Record<string, unknown>;

const TURN_KINDS = [
  'user',
  'assistant',
  'fs',
  'fault',
  'summary',
  'compact',
  'skills',
  'resume',
  'retry',
  'undo',
  'edit',
  'restore',
] as const;
const STOP_REASONS: readonly ScriptedStopReason[] = ['end_turn', 'tool_use', 'max_tokens', 'pause_turn', 'refusal', 'stop_sequence'];
const TOP_LEVEL_KEYS = ['about', 'model', 'workspace', 'turns'];
const AGENT_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Parses and validates a scenario; throws `ScenarioError` naming the first bad field. */
export function parseScenario(json: unknown, source?: string): Scenario {
  const fail = (field: string, message: string): never => {
    throw new ScenarioError(message, field, source);
  };
  const root = asObject(json, '', fail, 'the scenario must be a JSON object');
  for (const key of Object.keys(root)) {
    // `x-` keys are room for tools that annotate scenarios without changing the contract.
    if (!TOP_LEVEL_KEYS.includes(key) && !key.startsWith('x-')) {
      fail(key, `unknown field (expected ${TOP_LEVEL_KEYS.join(', ')}, or an x- extension)`);
    }
  }
  const about = root.about === undefined ? undefined : asString(root.about, 'about', fail);
  const model = parseModel(root.model, fail);
  const workspace = parseWorkspace(root.workspace, fail);
  if (!Array.isArray(root.turns)) fail('turns', 'expected an array of turns');
  const turns = (root.turns as unknown[]).map((turn, index) => parseTurn(turn, index, fail));
  return { ...(about !== undefined ? { about } : {}), model, workspace, turns, ...(source ? { source } : {}) };
}

/**
 * Turns in the scenario format, checked as `parseScenario` checks a file's, numbered from `startIndex` (turns
 * appended to a script that is playing: `ScenarioPlayer.appendTurns`). Throws `ScenarioError` naming the turn.
 */
export function parseTurns(json: readonly unknown[], startIndex: number, source?: string): ScenarioTurn[] {
  const fail = (field: string, message: string): never => {
    throw new ScenarioError(message, field, source);
  };
  return json.map((turn, i) => parseTurn(turn, startIndex + i, fail));
}

export async function loadScenario(path: string): Promise<Scenario> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ScenarioError(`cannot read the file (${(error as Error).message})`, '', path);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`not valid JSON (${(error as Error).message})`, '', path);
  }
  return parseScenario(json, path);
}

/** Writes every workspace file under `dir`, creating folders as needed. */
export async function writeWorkspaceFiles(workspace: Scenario['workspace'], dir: string): Promise<void> {
  for (const [path, file] of Object.entries(workspace)) {
    const target = join(dir, ...checkRelativePath(path).split('/'));
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, workspaceFileContent(file));
  }
}

/** The text a workspace entry stands for. */
export function workspaceFileContent(file: WorkspaceFile): string {
  if (typeof file === 'string') return file;
  let out = '';
  for (let n = 1; n <= file.lines; n++) out += file.text.replaceAll('{n}', String(n)) + '\n';
  return out;
}

/** Refuses paths that would leave the workspace folder; returns the path with `/` separators. */
export function checkRelativePath(path: string): string {
  const normal = path.replaceAll('\\', '/');
  const segments = normal.split('/');
  if (normal === '' || isAbsolute(path) || normal.startsWith('/') || /^[a-zA-Z]:/.test(normal)) {
    throw new Error(`"${path}" is not a relative path inside the workspace`);
  }
  if (segments.some((s) => s === '..' || s === '')) {
    throw new Error(`"${path}" must not contain ".." or empty segments`);
  }
  return segments.filter((s) => s !== '.').join('/');
}

type Fail = (field: string, message: string) => never;

function asObject(value: unknown, field: string, fail: Fail, message = 'expected an object'): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(field, message);
  return value as JsonObject;
}

function asString(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string') fail(field, 'expected a string');
  return value as string;
}

function asNonEmptyString(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string' || value === '') fail(field, 'expected a non-empty string');
  return value as string;
}

function asPositiveInteger(value: unknown, field: string, fail: Fail, allowZero = false): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < (allowZero ? 0 : 1)) {
    fail(field, `expected ${allowZero ? 'a whole number ≥ 0' : 'a whole number ≥ 1'}`);
  }
  return value as number;
}

function onlyKeys(object: JsonObject, allowed: readonly string[], field: string, fail: Fail): void {
  for (const key of Object.keys(object)) {
    if (!allowed.includes(key)) fail(`${field}.${key}`, `unknown field (expected ${allowed.join(', ')})`);
  }
}

/** A turn written `{"kind": {}}` (or `null`): any field in it is refused, saying how to write it. */
function noFields(body: unknown, kind: string, at: string, fail: Fail): void {
  const example = `{${JSON.stringify(kind)}: {}}`;
  const object = asObject(body ?? {}, at, fail, `expected {} (write ${example})`);
  const article = /^[aeiou]/.test(kind) ? 'an' : 'a';
  for (const key of Object.keys(object)) fail(`${at}.${key}`, `unknown field (${article} ${kind} turn takes no fields: write ${example})`);
}

/** `"idle"` beside a user turn: seconds, a number ≥ 0 and at most a year. */
function asIdleSeconds(value: unknown, field: string, fail: Fail): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > MAX_IDLE_SECONDS) {
    fail(
      field,
      `expected the seconds the user was away before this message, a number from 0 to ${MAX_IDLE_SECONDS} (a year), e.g. "idle": 600 for ten minutes`,
    );
  }
  return value as number;
}

/** `"images"` beside a user turn: workspace paths of the images attached to the message (issue 33). */
function asImagePaths(value: unknown, field: string, fail: Fail): string[] {
  if (!Array.isArray(value)) fail(field, 'expected a list of workspace paths of images, e.g. "images": ["shot.png"]');
  return (value as unknown[]).map((path, i) => {
    if (typeof path !== 'string' || path === '') fail(`${field}[${i}]`, 'expected a workspace path of an image, e.g. "shot.png"');
    try {
      return checkRelativePath(path as string);
    } catch (error) {
      return fail(`${field}[${i}]`, (error as Error).message);
    }
  });
}

/** "Message N" of a move: the N-th message the user typed, counted from 1. */
function asMessageNumber(value: unknown, field: string, fail: Fail): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    fail(field, 'expected the number of a user message of the session, counted from 1 (a whole number ≥ 1)');
  }
  return value as number;
}

function parseModel(value: unknown, fail: Fail): ScenarioModel {
  if (value === undefined) return { contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutput: DEFAULT_MAX_OUTPUT };
  const model = asObject(value, 'model', fail);
  onlyKeys(model, ['id', 'context_window', 'max_output'], 'model', fail);
  const id = model.id === undefined ? undefined : asNonEmptyString(model.id, 'model.id', fail);
  const contextWindow =
    model.context_window === undefined ? DEFAULT_CONTEXT_WINDOW : asPositiveInteger(model.context_window, 'model.context_window', fail);
  const maxOutput = model.max_output === undefined ? DEFAULT_MAX_OUTPUT : asPositiveInteger(model.max_output, 'model.max_output', fail);
  return { ...(id !== undefined ? { id } : {}), contextWindow, maxOutput };
}

function parseWorkspace(value: unknown, fail: Fail): Record<string, WorkspaceFile> {
  if (value === undefined) return {};
  const entries = asObject(value, 'workspace', fail);
  const out: Record<string, WorkspaceFile> = {};
  for (const [path, file] of Object.entries(entries)) {
    const field = `workspace[${JSON.stringify(path)}]`;
    let clean = '';
    try {
      clean = checkRelativePath(path);
    } catch (error) {
      fail(field, (error as Error).message);
    }
    if (typeof file === 'string') {
      out[clean] = file;
      continue;
    }
    const generated = asObject(file, field, fail, 'expected a string or {"lines": N, "text": "line {n}"}');
    onlyKeys(generated, ['lines', 'text'], field, fail);
    out[clean] = {
      lines: asPositiveInteger(generated.lines, `${field}.lines`, fail, true),
      text: asString(generated.text, `${field}.text`, fail),
    };
  }
  return out;
}

function parseTurn(value: unknown, index: number, fail: Fail): ScenarioTurn {
  const field = `turns[${index}]`;
  const turn = asObject(value, field, fail, `expected an object with one of ${TURN_KINDS.join(', ')}`);
  // `x-` keys beside the kind annotate a turn for tools (a benchmark's needs) without changing it; `idle` goes
  // beside `user` (how long the user was away before sending it).
  const keys = Object.keys(turn).filter((key) => !key.startsWith('x-') && key !== 'idle' && key !== 'images');
  const kind = keys[0];
  if (keys.length !== 1 || kind === undefined || !(TURN_KINDS as readonly string[]).includes(kind)) {
    fail(field, `expected exactly one of ${TURN_KINDS.join(', ')} (found ${keys.length ? keys.join(', ') : 'nothing'})`);
  }
  if ('idle' in turn && kind !== 'user') {
    const article = /^[aeiou]/.test(kind as string) ? 'an' : 'a';
    fail(
      `${field}.idle`,
      `"idle" goes only beside "user" (how long the user was away before sending that message), not on ${article} ${kind} turn`,
    );
  }
  if ('images' in turn && kind !== 'user') {
    fail(`${field}.images`, `"images" goes only beside "user" (the workspace images attached to that message), not on a ${kind} turn`);
  }
  const body = turn[kind as string];
  const at = `${field}.${kind}`;
  switch (kind as (typeof TURN_KINDS)[number]) {
    case 'user': {
      const text = asNonEmptyString(body, at, fail);
      const idleSeconds = turn.idle === undefined ? 0 : asIdleSeconds(turn.idle, `${field}.idle`, fail);
      const images = turn.images === undefined ? [] : asImagePaths(turn.images, `${field}.images`, fail);
      return { kind: 'user', index, text, ...(idleSeconds > 0 ? { idleSeconds } : {}), ...(images.length > 0 ? { images } : {}) };
    }
    case 'summary': {
      // "" is allowed: a model that answers a compaction with nothing is a case to test.
      if (typeof body === 'string') return { kind: 'summary', index, text: body };
      const summary = asObject(body, at, fail, 'expected the summary text, or {"text": "...", "agent": "explore-1"} for a child');
      onlyKeys(summary, ['text', 'agent'], at, fail);
      const agent = summary.agent === undefined ? undefined : asAgent(summary.agent, `${at}.agent`, fail);
      return { kind: 'summary', index, text: asString(summary.text, `${at}.text`, fail), ...(agent !== undefined ? { agent } : {}) };
    }
    case 'compact': {
      const compact = asObject(body ?? {}, at, fail);
      onlyKeys(compact, ['instructions'], at, fail);
      const instructions = compact.instructions === undefined ? undefined : asString(compact.instructions, `${at}.instructions`, fail);
      return { kind: 'compact', index, ...(instructions !== undefined ? { instructions } : {}) };
    }
    case 'skills': {
      const skills = asObject(body, at, fail, 'expected {"enable": [names], "disable": [names]}');
      onlyKeys(skills, ['enable', 'disable'], at, fail);
      const names = (key: 'enable' | 'disable'): string[] => {
        const value = skills[key] ?? [];
        if (!Array.isArray(value)) fail(`${at}.${key}`, 'expected an array of skill names');
        return (value as unknown[]).map((name, i) => asNonEmptyString(name, `${at}.${key}[${i}]`, fail));
      };
      return { kind: 'skills', index, enable: names('enable'), disable: names('disable') };
    }
    case 'resume':
      noFields(body, 'resume', at, fail);
      return { kind: 'resume', index };
    case 'retry':
      noFields(body, 'retry', at, fail);
      return { kind: 'retry', index };
    case 'undo':
      noFields(body, 'undo', at, fail);
      return { kind: 'undo', index };
    case 'edit': {
      const edit = asObject(
        body,
        at,
        fail,
        'expected {"turn": N, "text": "..."} (the user message to edit, counted from 1, and its new text)',
      );
      onlyKeys(edit, ['turn', 'text'], at, fail);
      return {
        kind: 'edit',
        index,
        turn: asMessageNumber(edit.turn, `${at}.turn`, fail),
        text: asNonEmptyString(edit.text, `${at}.text`, fail),
      };
    }
    case 'restore': {
      const restore = asObject(body, at, fail, 'expected {"turn": N, "conversation": true|false} (restore to before user message N)');
      onlyKeys(restore, ['turn', 'conversation'], at, fail);
      const turnNumber = asMessageNumber(restore.turn, `${at}.turn`, fail);
      // Required: which of the two restores the editor offers is meant must be written, never guessed.
      if (typeof restore.conversation !== 'boolean')
        fail(`${at}.conversation`, 'expected true (files and conversation) or false (files only)');
      return { kind: 'restore', index, turn: turnNumber, conversation: restore.conversation as boolean };
    }
    case 'assistant':
      return parseAssistant(body, index, at, fail);
    case 'fs':
      return { kind: 'fs', index, operation: parseFs(body, at, fail) };
    case 'fault': {
      // `for` may go with any fault; the rest of the object is the fault itself.
      const { for: target, agent: rawAgent, ...fault } = asObject(body, at, fail);
      if (target !== undefined && target !== 'main' && target !== 'compaction') fail(`${at}.for`, 'expected "main" or "compaction"');
      const agent = rawAgent === undefined ? undefined : asAgent(rawAgent, `${at}.agent`, fail);
      return {
        kind: 'fault',
        index,
        fault: parseFault(fault, at, fail),
        for: (target as FaultTarget | undefined) ?? 'main',
        ...(agent !== undefined ? { agent } : {}),
      };
    }
  }
}

function parseAssistant(value: unknown, index: number, at: string, fail: Fail): ScenarioTurn {
  const assistant = asObject(value, at, fail);
  onlyKeys(assistant, ['text', 'thinking', 'tool_calls', 'stop_reason', 'agent'], at, fail);
  const agent = assistant.agent === undefined ? undefined : asAgent(assistant.agent, `${at}.agent`, fail);
  const text = assistant.text === undefined ? undefined : asString(assistant.text, `${at}.text`, fail);
  const thinking = assistant.thinking === undefined ? undefined : asNonEmptyString(assistant.thinking, `${at}.thinking`, fail);
  let toolCalls: ScriptedToolCall[] = [];
  if (assistant.tool_calls !== undefined) {
    if (!Array.isArray(assistant.tool_calls)) fail(`${at}.tool_calls`, 'expected an array of {"name", "input"}');
    toolCalls = (assistant.tool_calls as unknown[]).map((call, i) => {
      const callField = `${at}.tool_calls[${i}]`;
      const object = asObject(call, callField, fail);
      onlyKeys(object, ['name', 'input', 'id'], callField, fail);
      const name = asNonEmptyString(object.name, `${callField}.name`, fail);
      const input = asObject(object.input ?? {}, `${callField}.input`, fail, 'expected an object (the tool input)');
      const id = object.id === undefined ? undefined : asNonEmptyString(object.id, `${callField}.id`, fail);
      return id === undefined ? { name, input } : { name, input, id };
    });
  }
  // An explicit "text": "" scripts an empty answer (the real service sends those at times).
  if (text === undefined && toolCalls.length === 0) fail(at, 'needs "text" or at least one of "tool_calls"');
  let stopReason: ScriptedStopReason | undefined;
  if (assistant.stop_reason !== undefined) {
    const reason = asString(assistant.stop_reason, `${at}.stop_reason`, fail);
    if (!(STOP_REASONS as readonly string[]).includes(reason)) fail(`${at}.stop_reason`, `expected one of ${STOP_REASONS.join(', ')}`);
    stopReason = reason as ScriptedStopReason;
  }
  return {
    kind: 'assistant',
    index,
    ...(text !== undefined ? { text } : {}),
    ...(thinking !== undefined ? { thinking } : {}),
    toolCalls,
    ...(stopReason ? { stopReason } : {}),
    ...(agent !== undefined ? { agent } : {}),
  };
}

/** A child's id as Cairn sends it in `x-cairn-agent` (`explore-1`, `general-2`): a header value, so no spaces. */
function asAgent(value: unknown, field: string, fail: Fail): string {
  if (typeof value !== 'string' || !AGENT_NAME.test(value)) {
    fail(field, 'expected a child agent\'s id such as "explore-1" (letters, digits, "-", "_" or ".")');
  }
  return value as string;
}

function parseFs(value: unknown, at: string, fail: Fail): FsOperation {
  const fs = asObject(value, at, fail, 'expected {"write": {...}}, {"append": {...}} or {"delete": PATH}');
  const keys = Object.keys(fs);
  if (keys.length !== 1) fail(at, `expected exactly one of write, append, delete (found ${keys.join(', ') || 'nothing'})`);
  const path = (raw: unknown, field: string): string => {
    const text = asNonEmptyString(raw, field, fail);
    try {
      return checkRelativePath(text);
    } catch (error) {
      return fail(field, (error as Error).message);
    }
  };
  if ('delete' in fs) return { type: 'delete', path: path(fs.delete, `${at}.delete`) };
  const type =
    'write' in fs ? 'write' : 'append' in fs ? 'append' : fail(at, `unknown operation "${keys[0]}" (expected write, append or delete)`);
  const opField = `${at}.${type}`;
  const op = asObject(fs[type], opField, fail, 'expected {"path": ..., "content": ...}');
  onlyKeys(op, ['path', 'content'], opField, fail);
  return { type, path: path(op.path, `${opField}.path`), content: asString(op.content, `${opField}.content`, fail) };
}

function parseFault(value: unknown, at: string, fail: Fail): Fault {
  const fault = asObject(value, at, fail);
  if ('status' in fault) {
    onlyKeys(fault, ['status', 'retry_after', 'message'], at, fail);
    const status = fault.status;
    if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) {
      fail(`${at}.status`, 'expected an HTTP error status (400-599), e.g. 429, 500, 529');
    }
    let retryAfterSeconds: number | undefined;
    if (fault.retry_after !== undefined) {
      if (typeof fault.retry_after !== 'number' || !(fault.retry_after >= 0)) fail(`${at}.retry_after`, 'expected seconds ≥ 0');
      retryAfterSeconds = fault.retry_after as number;
    }
    const message = fault.message === undefined ? undefined : asString(fault.message, `${at}.message`, fail);
    return {
      type: 'status',
      status: status as number,
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      ...(message !== undefined ? { message } : {}),
    };
  }
  if ('cut_after_events' in fault) {
    onlyKeys(fault, ['cut_after_events'], at, fail);
    return { type: 'cut', afterEvents: asPositiveInteger(fault.cut_after_events, `${at}.cut_after_events`, fail, true) };
  }
  if ('delay_ms' in fault) {
    onlyKeys(fault, ['delay_ms'], at, fail);
    return { type: 'delay', ms: asPositiveInteger(fault.delay_ms, `${at}.delay_ms`, fail, true) };
  }
  if ('prompt_too_long' in fault) {
    onlyKeys(fault, ['prompt_too_long'], at, fail);
    if (fault.prompt_too_long !== true) fail(`${at}.prompt_too_long`, 'expected true');
    return { type: 'prompt_too_long' };
  }
  return fail(at, 'expected one of {"status": N}, {"cut_after_events": N}, {"delay_ms": N}, {"prompt_too_long": true}');
}
