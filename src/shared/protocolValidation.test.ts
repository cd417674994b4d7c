import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MESSAGE_LIMITS, ProtocolError, parseWebviewMessage } from './protocolValidation';
import type { WebviewToHost } from './protocol';

/** One valid message of every kind the webview may send. */
const VALID: readonly WebviewToHost[] = [
  { type: 'ready', view: 'chat' },
  { type: 'ready', view: 'report' },
  { type: 'send', text: 'Read src/app.ts and explain #a3f2' },
  { type: 'cancel' },
  { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-once' },
  { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-always' },
  { type: 'approval', callId: 'toolu_01AbC-d', decision: 'deny', reason: 'not that folder' },
  { type: 'approval', callId: 'toolu_01AbC-d', decision: 'allow-once', agent: 'explore-1' },
  { type: 'approval', callId: 'toolu_01AbC-d', decision: 'deny', reason: 'no', agent: 'general-12' },
  { type: 'action', action: 'setApiKey' },
  { type: 'openResult', resultId: '#a3f2' },
  { type: 'copyResult', resultId: '#c9d0e1' },
  { type: 'openFile', path: 'src/app.ts', line: 12 },
  { type: 'openFile', path: 'src/app.ts' },
  { type: 'openLink', url: 'https://example.com/docs' },
  { type: 'compaction', action: 'undo' },
  { type: 'compact', preview: true, instructions: 'keep the test names' },
  { type: 'compact', preview: false },
  { type: 'queuedMessage', id: 1, action: 'sendNow' },
  { type: 'queuedMessage', id: 42, action: 'edit' },
  { type: 'queuedMessage', id: 7, action: 'remove' },
  { type: 'request', requestId: 1, method: 'recall', params: { resultId: '#a3f2', offset: 1, limit: 200 } },
  { type: 'request', requestId: 7, method: 'olderTurns', params: { beforeTurn: 40, limit: 20 } },
  { type: 'request', requestId: 9, method: 'compactionDetails', params: { generation: 2 } },
  { type: 'request', requestId: 10, method: 'compactionDetails', params: { generation: 2, preview: true } },
];

describe('issue 35: the context view and its drop', () => {
  it('accepts its messages as sent', () => {
    const valid: readonly WebviewToHost[] = [
      { type: 'showContext', resultIds: [] },
      { type: 'showContext', resultIds: ['#a3f2'] },
      { type: 'request', requestId: 11, method: 'contextInventory', params: {} },
      { type: 'request', requestId: 12, method: 'dropPreview', params: { resultIds: ['#a3f2', '#b710'] } },
      { type: 'request', requestId: 13, method: 'dropResults', params: { resultIds: ['#a3f2'] } },
    ];
    for (const message of valid) expect(parseWebviewMessage(message)).toEqual(message);
  });

  it('refuses a drop of nothing, of a non-id, and ids that are not a list; normalises the ids', () => {
    const drop = (resultIds: unknown) => ({ type: 'request', requestId: 1, method: 'dropResults', params: { resultIds } });
    expect(refused(drop([])).message).toMatch(/must hold 1 to 10000 result ids/);
    expect(refused(drop(['src/app.ts'])).message).toMatch(/resultIds\[0\] must be a result id/);
    expect(refused(drop('#a3f2')).message).toMatch(/must be a list of result ids/);
    expect(parseWebviewMessage(drop(['a3f2', '#a3f2']))).toEqual(drop(['#a3f2']));
    expect(refused({ type: 'showContext' }).message).toMatch(/must be a list of result ids/);
  });
});

describe('issue 35: what hygiene saved', () => {
  it('accepts the Savings tab requests, which take no parameters', () => {
    for (const method of ['savings', 'exportSavings'] as const) {
      const message: WebviewToHost = { type: 'request', requestId: 21, method, params: {} };
      expect(parseWebviewMessage(message)).toEqual(message);
      expect(refused({ ...message, params: { path: '/etc/passwd' } }).message).toMatch(/unknown field "path"/);
    }
  });
});

function refused(raw: unknown): ProtocolError {
  const parsed = parseWebviewMessage(raw);
  expect(parsed).toBeInstanceOf(ProtocolError);
  return parsed as ProtocolError;
}

/** A list whose first item is missing (a hole), as a structured clone carries a sparse array. */
function withHole(...items: unknown[]): unknown[] {
  const list: unknown[] = new Array(1);
  list.push(...items);
  return list;
}

describe('parseWebviewMessage', () => {
  it('accepts every kind of valid message and returns an equal, fresh object', () => {
    for (const message of VALID) {
      const parsed = parseWebviewMessage(structuredClone(message));
      expect(parsed).toEqual(message);
      expect(parsed).not.toBe(message);
    }
  });

  it('takes a message with pasted images, and refuses images that are not base64, of another type, or too many', () => {
    const image = { name: 'shot.png', mediaType: 'image/png', data: 'iVBORw0KGgo=' };
    expect(parseWebviewMessage({ type: 'send', text: 'look', images: [image] })).toEqual({ type: 'send', text: 'look', images: [image] });
    expect(refused({ type: 'send', text: 'look', images: [{ ...image, data: '<svg>' }] }).message).toMatch(
      /images\[0\]\.data must be base64/,
    );
    expect(refused({ type: 'send', text: 'look', images: [{ ...image, mediaType: 'image/svg+xml' }] }).message).toMatch(
      /mediaType must be one of/,
    );
    expect(refused({ type: 'send', text: 'look', images: Array(9).fill(image) }).message).toMatch(/at most 8 images/);
    expect(refused({ type: 'send', text: 'look', images: [{ ...image, path: '/etc' }] }).message).toMatch(/path is not a field/);
  });

  it('refuses a list with a hole, which would reach the host as a missing item', () => {
    const image = { name: 'shot.png', mediaType: 'image/png', data: 'iVBORw0KGgo=' };
    expect(refused({ type: 'send', text: 'look', images: withHole(image) }).message).toMatch(/images\[0\] is missing/);
    expect(refused({ type: 'dropFiles', uris: withHole('file:///work/a.ts') }).message).toMatch(/uris\[0\] is missing/);
    expect(refused({ type: 'showContext', resultIds: withHole('#a3f2') }).message).toMatch(/resultIds\[0\] is missing/);
    const drop = { type: 'request', requestId: 1, method: 'dropResults', params: { resultIds: withHole() } };
    expect(refused(drop).message).toMatch(/resultIds\[0\] is missing/);
  });

  it('normalises a result id given without its #', () => {
    expect(parseWebviewMessage({ type: 'openResult', resultId: 'a3f2' })).toEqual({ type: 'openResult', resultId: '#a3f2' });
  });

  it('says what was wrong, in words a log reader can act on', () => {
    expect(refused({ type: 'send', text: '   ' }).message).toMatch(/text must not be empty/);
    expect(refused({ type: 'launch' }).message).toMatch(/unknown message type "launch"/);
    expect(refused({ type: 'queuedMessage', id: 0, action: 'edit' }).message).toMatch(/id must be between 1 and/);
    expect(refused({ type: 'queuedMessage', id: 3, action: 'run' }).message).toMatch(/action must be one of sendNow, edit, remove/);
    expect(refused({ type: 'cancel', extra: 1 }).message).toMatch(/unknown field "extra"/);
    expect(refused({ type: 'coldSendChoice', id: 1, choice: 'summarize', dontAskAgain: false }).message).toMatch(
      /choice must be one of asIs, elide, compact/,
    );
    expect(refused({ type: 'coldSendChoice', id: 1, choice: 'asIs', dontAskAgain: 'yes' }).message).toMatch(
      /dontAskAgain must be a boolean/,
    );
    expect(
      refused({ type: 'request', requestId: 1, method: 'recall', params: { resultId: '#A3F2', offset: 1, limit: 5 } }).message,
    ).toMatch(/lowercase hex/);
    expect(
      refused({ type: 'request', requestId: 1, method: 'recall', params: { resultId: '#a3f2', offset: 1, limit: 5000 } }).message,
    ).toMatch(/between 1 and 2000/);
  });

  it('takes the cold-send notice’s choice as given, and refuses any other choice or a missing flag', () => {
    const choice = { type: 'coldSendChoice', id: 3, choice: 'compact', dontAskAgain: false } as const;
    expect(parseWebviewMessage(choice)).toEqual(choice);
    expect(refused({ ...choice, id: 0 }).message).toMatch(/id must be between 1 and/);
    expect(refused({ type: 'coldSendChoice', id: 3, choice: 'compact' }).message).toMatch(/dontAskAgain must be a boolean/);
    expect(refused({ ...choice, extra: true }).message).toMatch(/unknown field "extra"/);
  });

  it('takes a permission mode the chat may set, and "Start it" only into ask or accept edits (never auto)', () => {
    expect(parseWebviewMessage({ type: 'setPermissionMode', mode: 'plan' })).toEqual({ type: 'setPermissionMode', mode: 'plan' });
    expect(refused({ type: 'setPermissionMode', mode: 'bypass' }).message).toMatch(/mode must be one of ask, acceptEdits, plan, auto/);
    expect(parseWebviewMessage({ type: 'startPlan', mode: 'acceptEdits' })).toEqual({ type: 'startPlan', mode: 'acceptEdits' });
    expect(refused({ type: 'startPlan', mode: 'auto' }).message).toMatch(/mode must be one of ask, acceptEdits/);
    expect(refused({ type: 'startPlan', mode: 'ask', text: 'rm -rf' }).message).toMatch(/unknown field "text"/);
  });

  it('refuses a compact message without a boolean preview or with oversize instructions', () => {
    expect(refused({ type: 'compact', instructions: 'x' }).message).toMatch(/preview must be true or false/);
    expect(refused({ type: 'compact', preview: 'yes' }).message).toMatch(/preview must be true or false/);
    expect(
      refused({ type: 'compact', preview: true, instructions: 'x'.repeat(MESSAGE_LIMITS.compactInstructionsChars + 1) }).message,
    ).toMatch(/longer than/);
    expect(refused({ type: 'request', requestId: 1, method: 'compactionDetails', params: { generation: 1, preview: 1 } }).message).toMatch(
      /preview must be true or false/,
    );
  });

  it('refuses links that are not http(s), and approvals with a reason that is not a denial', () => {
    refused({ type: 'openLink', url: 'javascript:alert(1)' });
    refused({ type: 'openLink', url: 'command:workbench.action.terminal.new' });
    refused({ type: 'openLink', url: 'file:///etc/passwd' });
    refused({ type: 'approval', callId: 'toolu_1', decision: 'allow-once', reason: 'because' });
    // A sub-agent's id is its kind and number, nothing else (never a path, a selector or markup).
    refused({ type: 'approval', callId: 'toolu_1', decision: 'allow-once', agent: '../explore-1' });
    refused({ type: 'approval', callId: 'toolu_1', decision: 'allow-once', agent: 7 });
    refused({ type: 'approval', callId: 'toolu_1', decision: 'allow-once', agent: '' });
    refused({ type: 'openFile', path: 'a\0b' });
  });

  it('refuses hostile shapes without throwing: proxies, throwing getters, prototypes, oversize text', () => {
    const throwing = new Proxy(
      {},
      {
        get() {
          throw new Error('boom');
        },
        ownKeys() {
          throw new Error('boom');
        },
      },
    );
    refused(throwing);
    refused(
      Object.defineProperty({ type: 'cancel' }, 'type', {
        get() {
          throw new Error('boom');
        },
      }),
    );
    refused(JSON.parse('{"type":"cancel","__proto__":{"admin":true}}'));
    refused(Object.assign(Object.create({ inherited: true }), { type: 'cancel' }));
    refused({ type: 'send', text: 'x'.repeat(MESSAGE_LIMITS.sendChars + 1) });
    refused({ type: 'request', requestId: Number.NaN, method: 'olderTurns', params: { beforeTurn: 1, limit: 1 } });
    refused({ type: 'request', requestId: 1.5, method: 'olderTurns', params: { beforeTurn: 1, limit: 1 } });
    refused({ type: 'request', requestId: 1, method: 'toString', params: {} });
    refused({ type: 'request', requestId: 1, method: 'constructor', params: {} });
    for (const raw of [null, undefined, 0, 'cancel', [], [{ type: 'cancel' }], () => 1, Symbol('x'), 10n]) refused(raw);
  });

  it('accepts none of 10,000 generated malformed messages and throws for none', () => {
    const valid = fc.constantFrom(...VALID);
    // Values of the wrong kind for any field.
    const wrongKind = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.integer({ min: -5, max: 5 }).map((n) => n - 0.5),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 2 ** 60),
      fc.boolean(),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.object({ maxDepth: 1 }),
    );
    // Strings that no id, enum, URL or number field accepts (free-text fields take any string, so they
    // only get values of the wrong kind).
    const wrongString = fc.constantFrom('', 'DENY ME', '#ZZZZ', 'javascript:x', '\0', 'x y');
    const freeText = new Set(['text', 'reason', 'path', 'instructions']);
    // A boolean field takes either boolean: only values of another kind are wrong for it.
    const booleanField = new Set(['preview', 'params.preview']);
    const notBoolean = wrongKind.filter((v) => typeof v !== 'boolean');
    /** A field path of a valid message: top-level key, or `params.key` for requests. */
    function fieldsOf(message: WebviewToHost): string[] {
      const top = Object.keys(message);
      const params = message.type === 'request' ? Object.keys(message.params).map((k) => `params.${k}`) : [];
      return [...top, ...params];
    }
    function withField(message: WebviewToHost, field: string, value: unknown, remove: boolean): unknown {
      const copy = structuredClone(message) as unknown as Record<string, Record<string, unknown>>;
      const [head, tail] = field.split('.') as [string, string | undefined];
      const target: Record<string, unknown> = tail ? (copy[head] as Record<string, unknown>) : (copy as unknown as Record<string, unknown>);
      const key = tail ?? head;
      if (remove) delete target[key];
      else target[key] = value;
      return copy;
    }
    // Optional fields may be removed and still be valid; everything else must be refused when removed.
    const optional = new Set(['reason', 'line', 'instructions', 'params.preview', 'agent']);
    const removed = valid.chain((m) =>
      fc.constantFrom(...fieldsOf(m).filter((f) => !optional.has(f))).map((f) => withField(m, f, undefined, true)),
    );
    const replaced = valid.chain((m) =>
      fc
        .constantFrom(...fieldsOf(m))
        .chain((f) =>
          fc.tuple(fc.constant(f), booleanField.has(f) ? notBoolean : freeText.has(f) ? wrongKind : fc.oneof(wrongKind, wrongString)),
        )
        .map(([f, v]) => {
          // An optional field set to undefined is the same as no field, which is valid.
          if (optional.has(f) && v === undefined) return withField(m, f, {}, false);
          return withField(m, f, v, false);
        }),
    );
    const extended = valid.chain((m) =>
      fc
        .tuple(
          fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !fieldsOf(m).includes(k) && k !== '__proto__'),
          fc.jsonValue(),
        )
        .map(([k, v]) => ({ ...structuredClone(m), [k]: v })),
    );
    const unknownType = fc
      .tuple(
        fc.string({ maxLength: 20 }).filter((t) => !VALID.some((m) => m.type === t)),
        fc.dictionary(fc.string(), fc.jsonValue()),
      )
      .map(([type, rest]) => ({ ...rest, type }));

    const malformed = fc.oneof(removed, replaced, extended, unknownType);
    let tried = 0;
    fc.assert(
      fc.property(malformed, (raw) => {
        tried++;
        expect(() => parseWebviewMessage(raw)).not.toThrow();
        expect(parseWebviewMessage(raw)).toBeInstanceOf(ProtocolError);
      }),
      { numRuns: 10_000, seed: 6006 },
    );
    expect(tried).toBe(10_000);
  });

  it('never throws on arbitrary values', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withNullPrototype: true, withMap: true, withSet: true }), (raw) => {
        const parsed = parseWebviewMessage(raw);
        // Whatever it returns is either a refusal or a message that survives a second check unchanged.
        if (!(parsed instanceof ProtocolError)) expect(parseWebviewMessage(structuredClone(parsed))).toEqual(parsed);
      }),
      { numRuns: 2_000, seed: 6007 },
    );
  });
});
