import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { parseWebviewMessage, ProtocolError, type HostToWebview } from '../../src/shared/protocol';
import { SessionController, type EditorActions, type SessionSource, type ViewSink } from '../../src/host/sessionController';
import { WebviewApprover } from '../../src/host/webviewApprover';
import { WorkspacePathError } from '../../src/node/workspace/workspaceErrors';
import { NodeWorkspace } from '../../src/node/workspace/nodeWorkspace';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Issue 9, webview: 10,000 malformed or unexpected messages go to the host's real SessionController
 * (`receive`, which validates with `parseWebviewMessage` first). Every dependency is a fake that counts
 * what it was asked to do: a refused message must leave every count at zero and post nothing; nothing may
 * throw or pollute Object.prototype. Messages that pass the check are counted and shown to be harmless.
 */

export const WEBVIEW_MESSAGES = 10_000;

const calls: string[] = [];
const posted: HostToWebview[] = [];
const warnings: string[] = [];
let rootDir: string | undefined;
afterAll(async () => rootDir && rm(rootDir, { recursive: true, force: true }));

/** Counts every call; sessions cannot be opened (nothing refused may get that far). */
class CountingSessionSource implements SessionSource {
  async start(): Promise<never> {
    calls.push('sessions.start');
    throw new Error('no session in this test');
  }
  async resume(): Promise<never> {
    calls.push('sessions.resume');
    throw new Error('no session in this test');
  }
  async lastSessionId(): Promise<string | undefined> {
    calls.push('sessions.last');
    return undefined;
  }
  async remember(): Promise<void> {
    calls.push('sessions.remember');
  }
}

const fakeEditor: EditorActions = {
  openFile: async (path) => void calls.push(`editor.openFile ${path}`),
  openResult: async () => void calls.push('editor.openResult'),
  copyText: async () => void calls.push('editor.copyText'),
  insertAtCursor: async () => {
    calls.push('editor.insertAtCursor');
    return true;
  },
  openUntitled: async () => void calls.push('editor.openUntitled'),
  showView: async (view) => void calls.push(`editor.showView ${view}`),
  showText: async () => void calls.push('editor.showText'),
  openExternal: async (url) => void calls.push(`editor.openExternal ${url}`),
  runAction: async (a) => void calls.push(`editor.runAction ${a}`),
  withProgress: async (_t, task) => {
    calls.push('editor.withProgress');
    return task(new AbortController().signal);
  },
};

async function controller(): Promise<{ host: SessionController; sink: ViewSink }> {
  rootDir = await mkdtemp(join(tmpdir(), 'cairn-rel-wv-'));
  const workspace = new NodeWorkspace(rootDir);
  const host = new SessionController({
    sessions: new CountingSessionSource(),
    editor: fakeEditor,
    approver: new WebviewApprover((tool) => void calls.push(`allowAlways ${tool}`)),
    log: { info: () => undefined, warn: (l) => void warnings.push(l), error: (l) => void warnings.push(l) },
    workspace: {
      resolve: async (p) => {
        calls.push('workspace.resolve');
        return workspace.resolve(p);
      },
    },
    hasApiKey: async () => {
      calls.push('hasApiKey');
      return false;
    },
    windowTokens: async () => 200_000,
  });
  return { host, sink: { post: (m) => void posted.push(m) } };
}

const VALID: readonly Record<string, unknown>[] = [
  { type: 'ready', view: 'chat' },
  { type: 'send', text: 'hello' },
  { type: 'cancel' },
  { type: 'approval', callId: 'toolu_01', decision: 'allow-once' },
  { type: 'action', action: 'compact' },
  { type: 'openResult', resultId: '#a3f2' },
  { type: 'copyResult', resultId: 'a3f2' },
  { type: 'openFile', path: 'src/a.ts', line: 3 },
  { type: 'openLink', url: 'https://example.com/' },
  { type: 'compaction', action: 'undo' },
  { type: 'request', requestId: 1, method: 'recall', params: { resultId: '#a3f2', offset: 1, limit: 10 } },
  { type: 'request', requestId: 2, method: 'olderTurns', params: { beforeTurn: 3, limit: 5 } },
  { type: 'request', requestId: 3, method: 'compactionDetails', params: { generation: 1 } },
];

const strange = fc.oneof(
  fc.anything({ maxDepth: 2 }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.constantFrom(
    '',
    'javascript:alert(1)',
    'command:workbench.action.terminal.new',
    'file:///etc/passwd',
    'vscode://x',
    'data:text/html,<script>',
    '../../etc/passwd',
    '/etc/passwd',
    'C:\\x',
    '\0',
    'x'.repeat(2_000_001),
    -1,
    0,
    1.5,
    NaN,
    Infinity,
    2 ** 53,
    '1',
    null,
    true,
    [],
    {},
    '__proto__',
    'constructor',
    'allow-always',
    'ALLOW-ONCE',
    '#zz',
    '#' + 'a'.repeat(40),
    'toolu_01; rm -rf /',
    'https://example.com/' + 'a'.repeat(5000),
  ),
);

/** A valid message with one field replaced, removed, added or renamed; or the whole message mangled. */
const messageArb: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .record({
        base: fc.constantFrom(...VALID),
        key: fc.constantFrom(
          'type',
          'text',
          'view',
          'callId',
          'decision',
          'reason',
          'action',
          'resultId',
          'path',
          'line',
          'url',
          'requestId',
          'method',
          'params',
          'extra',
          '__proto__',
          'constructor',
        ),
        value: strange,
        remove: fc.boolean(),
      })
      .map(({ base, key, value, remove }) => {
        const m: Record<string, unknown> = JSON.parse(JSON.stringify(base));
        if (remove && key in m) delete m[key];
        else Object.defineProperty(m, key, { value, enumerable: true, configurable: true, writable: true });
        return m;
      }),
  },
  {
    weight: 2,
    arbitrary: fc
      .record({
        base: fc.constantFrom(...VALID.filter((v) => v.type === 'request')),
        key: fc.constantFrom('resultId', 'offset', 'limit', 'beforeTurn', 'generation', 'x'),
        value: strange,
      })
      .map(({ base, key, value }) => {
        const m = JSON.parse(JSON.stringify(base)) as { params: Record<string, unknown> };
        m.params[key] = value;
        return m;
      }),
  },
  { weight: 1, arbitrary: fc.anything({ maxDepth: 3 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(
      JSON.parse('{"type":"send","text":"x","__proto__":{"polluted":true}}'),
      JSON.parse('{"__proto__":{"type":"cancel"}}'),
      Object.create({ type: 'cancel' }),
      new Proxy(
        {},
        {
          get() {
            throw new Error('getter throws');
          },
          ownKeys() {
            throw new Error('ownKeys throws');
          },
        },
      ),
      Object.defineProperty({}, 'type', {
        get() {
          throw new Error('type getter throws');
        },
        enumerable: true,
      }),
      (() => {
        const a: Record<string, unknown> = { type: 'send' };
        a.text = a;
        return a;
      })(),
      { type: 'send', text: 'x'.repeat(1_000_001) },
      { type: 'request', requestId: 1, method: 'toString', params: {} },
      { type: 'request', requestId: 1, method: '__proto__', params: {} },
      new Map([['type', 'cancel']]),
      ['cancel'],
      'cancel',
      Symbol('cancel'),
      () => 'cancel',
    ),
  },
);

it(`${WEBVIEW_MESSAGES} malformed or unexpected webview messages: none acted on, none throws`, async () => {
  const { host, sink } = await controller();
  const tally = { refused: 0, accepted: 0, acceptedTypes: new Map<string, number>() };
  let run = 0;
  await fc.assert(
    fc.asyncProperty(messageArb, async (raw) => {
      run++;
      calls.length = 0;
      posted.length = 0;
      let parsed: unknown;
      expect(() => (parsed = parseWebviewMessage(raw))).not.toThrow();
      await expect(host.receive(sink, raw)).resolves.toBeUndefined();
      if (parsed instanceof ProtocolError) {
        tally.refused++;
        expect(parsed.message).toMatch(/^Refused a message from the webview: /);
        expect(calls, 'a refused message is never acted on').toEqual([]);
        expect(posted, 'a refused message gets no answer').toEqual([]);
      } else {
        tally.accepted++;
        const type = (parsed as { type: string }).type;
        tally.acceptedTypes.set(type, (tally.acceptedTypes.get(type) ?? 0) + 1);
        // What passes the check can still do nothing harmful: links are http(s), files stay in the root.
        for (const c of calls) {
          if (c.startsWith('editor.openExternal ')) expect(c).toMatch(/^editor\.openExternal https?:\/\//);
          if (c.startsWith('editor.openFile ')) expect(c.slice('editor.openFile '.length).startsWith(rootDir!)).toBe(true);
          expect(c.startsWith('allowAlways'), 'an approval for a call nobody asked about allows nothing').toBe(false);
        }
      }
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }),
    { numRuns: WEBVIEW_MESSAGES, seed: Number(process.env.CAIRN_FUZZ_SEED ?? 808) },
  );
  expect(run).toBe(WEBVIEW_MESSAGES);
  expect(tally.refused).toBeGreaterThan(WEBVIEW_MESSAGES * 0.8);
  console.info(
    `webview messages: ${run} sent to the host, ${tally.refused} refused and not acted on, ${tally.accepted} well-formed (${[...tally.acceptedTypes].map(([t, n]) => `${t} ${n}`).join(', ')}), ${warnings.length} log lines`,
  );
}, 180_000);

it('well-formed but hostile requests are refused by the workspace or ignored, and say so', async () => {
  const { host, sink } = await controller();
  calls.length = 0;
  warnings.length = 0;
  await host.receive(sink, { type: 'openFile', path: '../../etc/passwd' });
  await host.receive(sink, { type: 'openFile', path: '/etc/passwd' });
  await host.receive(sink, { type: 'approval', callId: 'toolu_nobody', decision: 'allow-always' });
  expect(calls.filter((c) => c.startsWith('editor.openFile'))).toEqual([]);
  expect(calls.filter((c) => c.startsWith('allowAlways'))).toEqual([]);
  expect(warnings.join('\n')).toMatch(/outside the workspace root/);
  expect(warnings.join('\n')).toMatch(/no tool call is waiting/);
  expect(WorkspacePathError).toBeDefined();
});
