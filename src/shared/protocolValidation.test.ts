import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MESSAGE_LIMITS, ProtocolError, parseWebviewMessage } from './protocolValidation';
import type { WebviewToHost } from './protocol';
import { BAD_STRINGS, webviewMessageExamples, type OptionalRule } from '../../test/support/protocol/webviewMessages';
import {
  REMOVED,
  edited,
  fieldNames,
  fieldsOf,
  objectsOf,
  otherKinds,
  valueAt,
  wrongOfOwnKind,
  type ValueKind,
} from '../../test/support/protocol/brokenMessages';

/** Every example of every kind the webview may send, with what each field takes (tsc checks it lists every kind). */
const EXAMPLES = webviewMessageExamples();
const VALID: readonly WebviewToHost[] = EXAMPLES.map((example) => example.message);

// ---------------------------------------------------------------------------------------------------
// The fuzz: an example broken one way, from what its fields take (test/support/protocol/).
// ---------------------------------------------------------------------------------------------------

const FIELD_NAMES = fieldNames(EXAMPLES);
/** Values of each JavaScript kind (a field given one of a kind not its own is wrong). */
const VALUES_OF_KIND: Readonly<Record<ValueKind, fc.Arbitrary<unknown>>> = {
  undefined: fc.constant(undefined),
  null: fc.constant(null),
  boolean: fc.boolean(),
  number: fc.oneof(
    fc.integer({ min: -5, max: 5 }).map((n) => n - 0.5),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 2 ** 60),
    fc.integer(),
    fc.double(),
  ),
  string: fc.oneof(fc.constantFrom(...BAD_STRINGS, '1', 'true'), fc.string()),
  list: fc.array(fc.string(), { maxLength: 3 }),
  object: fc.object({ maxDepth: 1 }),
};

/** Half the time a value of another kind, half a wrong one of the field's own kind (its rule's, or unknown fields). */
function wrongFor(rule: OptionalRule, current: unknown): fc.Arbitrary<unknown> {
  const other = fc.oneof(...otherKinds(rule).map((kind) => VALUES_OF_KIND[kind]));
  if (rule.kind === 'object') {
    const unknownKey = fc.string({ minLength: 1, maxLength: 12 }).filter((k) => !Object.hasOwn(rule.fields, k) && k !== '__proto__');
    return fc.oneof(other, fc.dictionary(unknownKey, fc.jsonValue(), { minKeys: 1, maxKeys: 3 }));
  }
  const own = wrongOfOwnKind(rule, current);
  return own.length > 0 ? fc.oneof(other, fc.constantFrom(...own)) : other;
}

/** A field's name: random, or one another kind has (a validator that lets one kind's field into another fails). */
const fieldName = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom(...FIELD_NAMES));

const example = fc.constantFrom(...EXAMPLES);
/** A required field (or a list's item) taken out. */
const removed = example.chain((e) =>
  fc.constantFrom(...fieldsOf(e).filter((f) => f.required)).map((f) => edited(e.message, f.path, REMOVED)),
);
/** A field (or a list's item) given a value it does not take. */
const replaced = example.chain((e) =>
  fc
    .constantFrom(...fieldsOf(e))
    .chain((f) => wrongFor(f.rule, valueAt(e.message, f.path)).map((value) => edited(e.message, f.path, value))),
);
/** A field the message, its params or an image does not have. */
const extended = example.chain((e) =>
  fc.constantFrom(...objectsOf(e)).chain(({ path, known }) =>
    fc
      .tuple(
        fieldName.filter((k) => !known.includes(k) && k !== '__proto__'),
        fc.jsonValue(),
      )
      .map(([key, value]) => edited(e.message, [...path, key], value)),
  ),
);
/** A type no message has, with any fields. */
const unknownType = fc
  .tuple(
    fc.string({ maxLength: 20 }).filter((t) => !VALID.some((m) => m.type === t)),
    fc.dictionary(fc.string(), fc.jsonValue()),
  )
  .map(([type, rest]) => ({ ...rest, type }));

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

  it('refuses every example with any field taken out, given each wrong value its rule names, or one of another kind', () => {
    /** One value of each kind, for the fields not of that kind. */
    const sample: Readonly<Record<ValueKind, unknown>> = {
      undefined: undefined,
      null: null,
      boolean: false,
      number: 1.5,
      string: 'DENY ME',
      list: [],
      object: {},
    };
    let checked = 0;
    const expectRefused = (raw: unknown) => {
      checked++;
      if (!(parseWebviewMessage(raw) instanceof ProtocolError)) expect.fail(`accepted ${JSON.stringify(raw)}`);
    };
    for (const e of EXAMPLES) {
      for (const f of fieldsOf(e)) {
        if (f.required) expectRefused(edited(e.message, f.path, REMOVED));
        for (const value of wrongOfOwnKind(f.rule, valueAt(e.message, f.path))) expectRefused(edited(e.message, f.path, value));
        for (const kind of otherKinds(f.rule)) expectRefused(edited(e.message, f.path, sample[kind]));
      }
      for (const { path, known } of objectsOf(e))
        for (const name of FIELD_NAMES.filter((n) => !known.includes(n))) expectRefused(edited(e.message, [...path, name], 1));
    }
    expect(checked).toBeGreaterThan(2_000);
  });

  it('accepts none of 10,000 generated malformed messages and throws for none', () => {
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
