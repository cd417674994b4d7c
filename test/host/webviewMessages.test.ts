import { readdir } from 'node:fs/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebviewMessage, ProtocolError } from '../../src/shared/protocol';
import { startHost, waitFor, type HostRun } from './hostHarness';
import { shim } from './vscodeShim';

/** One valid message of each kind; the generators break them. */
const VALID: readonly Record<string, unknown>[] = [
  { type: 'ready', view: 'chat' },
  { type: 'send', text: 'delete everything' },
  { type: 'cancel' },
  { type: 'approval', callId: 'toolu_0001', decision: 'allow-always' },
  { type: 'approval', callId: 'toolu_0001', decision: 'deny', reason: 'no' },
  { type: 'action', action: 'newSession' },
  { type: 'openResult', resultId: '#abcd' },
  { type: 'copyResult', resultId: '#abcd' },
  { type: 'openFile', path: 'src/app.ts', line: 3 },
  { type: 'openLink', url: 'https://example.com/' },
  { type: 'compaction', action: 'apply' },
  { type: 'request', requestId: 1, method: 'recall', params: { resultId: '#abcd', offset: 1, limit: 10 } },
  { type: 'request', requestId: 2, method: 'olderTurns', params: { beforeTurn: 3, limit: 5 } },
  { type: 'request', requestId: 3, method: 'compactionDetails', params: { generation: 1 } },
];

const junk = fc.oneof(
  fc.anything(),
  fc.string({ maxLength: 3000 }),
  fc.constantFrom(
    null,
    undefined,
    NaN,
    -1,
    1.5,
    Number.MAX_SAFE_INTEGER + 2,
    '',
    '   ',
    '\0',
    '../../../etc/passwd',
    'javascript:alert(1)',
    [],
    {},
    '#ABCD',
    'toolu 1',
  ),
);

/** A valid message with one thing wrong: a field removed, retyped, or added, or the type changed. */
const broken = fc.oneof(
  fc.record({ base: fc.constantFrom(...VALID), value: junk, pick: fc.nat() }).map(({ base, value, pick }) => {
    const keys = Object.keys(base);
    const key = keys[pick % keys.length]!;
    return { ...base, [key]: value };
  }),
  fc.record({ base: fc.constantFrom(...VALID), pick: fc.nat() }).map(({ base, pick }) => {
    const keys = Object.keys(base).filter((k) => k !== 'reason' && k !== 'line');
    const copy: Record<string, unknown> = { ...base };
    delete copy[keys[pick % keys.length]!];
    return copy;
  }),
  fc
    .record({ base: fc.constantFrom(...VALID), key: fc.string({ minLength: 1, maxLength: 12 }), value: junk })
    .map(({ base, key, value }) => ({
      ...base,
      [key in base ? `${key}_extra` : key]: value,
    })),
  fc
    .record({ base: fc.constantFrom(...VALID), value: junk })
    .map(({ base, value }) =>
      base.type === 'request' ? { ...base, params: { ...(base.params as object), extra: value } } : { ...base, type: String(value) },
    ),
  fc.constantFrom(
    JSON.parse('{"type":"send","text":"x","__proto__":{"admin":true}}') as unknown,
    JSON.parse('{"__proto__":{"type":"cancel"}}') as unknown,
    Object.create({ type: 'cancel' }) as unknown,
    new Date(),
    [{ type: 'cancel' }],
    'cancel',
  ),
  junk,
);

let host: HostRun;
beforeAll(async () => {
  host = await startHost({
    scenario: { workspace: { 'src/app.ts': 'export const a = 1;\n' }, turns: [{ user: 'hi' }, { assistant: { text: 'hello' } }] },
    apiKey: 'test-key-messages',
  });
});
afterAll(async () => {
  await host.close();
});

function effects(): Record<string, unknown> {
  return {
    posted: host.chat.posted.length,
    requests: host.server.requests.length,
    executed: shim.executed.length,
    shown: shim.shownDocuments.length,
    clipboard: shim.clipboard,
    external: shim.openedExternal.length,
    state: JSON.stringify([...host.workspaceState]),
    errors: shim.errorMessages.length,
  };
}

describe('messages from the webview', () => {
  it('10,000 malformed messages: none acted on, none throws, each one logged', async () => {
    const messages = fc.sample(broken, { numRuns: 10_000, seed: 20261130 });
    const malformed = messages.filter((m) => parseWebviewMessage(m) instanceof ProtocolError);
    // The generators make a valid message only by rare chance; the test needs nearly all of them broken.
    expect(malformed.length).toBeGreaterThan(9_900);
    const before = effects();
    const warningsBefore = shim.logLines.filter((l) => l.includes(' warn Refused a message')).length;
    const filesBefore = (await readdir(host.workspaceDir, { recursive: true })).sort();
    for (const message of malformed) await host.chat.fromPage(message);
    expect(effects()).toEqual(before);
    expect((await readdir(host.workspaceDir, { recursive: true })).sort()).toEqual(filesBefore);
    expect(shim.logLines.filter((l) => l.includes(' warn Refused a message')).length - warningsBefore).toBe(malformed.length);
  });

  it('well-formed but unexpected messages change nothing: stale approvals, unknown ids, paths outside the folder', async () => {
    const before = effects();
    const unexpected = [
      { type: 'approval', callId: 'toolu_9999', decision: 'allow-always' },
      { type: 'compaction', action: 'apply' },
      { type: 'compaction', action: 'discard' },
      { type: 'openResult', resultId: '#ffff' },
      { type: 'copyResult', resultId: '#ffff' },
      { type: 'openFile', path: '../outside.txt' },
      { type: 'openFile', path: '/etc/passwd', line: 1 },
      { type: 'cancel' },
    ];
    for (const message of unexpected) await host.chat.fromPage(message);
    await host.chat.fromPage({ type: 'request', requestId: 41, method: 'recall', params: { resultId: '#ffff', offset: 1, limit: 10 } });
    await waitFor(() => host.posted('response').length === 1, 'the recall response');
    const response = host.posted<{ type: 'response'; requestId: number; ok: boolean; error?: string }>('response')[0]!;
    expect(response).toMatchObject({ requestId: 41, ok: false });
    expect(response.error).toMatch(/No result #ffff/);
    expect({ ...effects(), posted: before.posted }).toEqual(before);
    expect(host.chat.posted.length).toBe(Number(before.posted) + 1);
  });
});
