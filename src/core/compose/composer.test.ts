import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message, ModelRequest } from '../model/types';
import { TOOL_DEFINITIONS } from '../tools/definitions';
import { canonicalRequestJson } from '../model/canonicalJson';
import { utf8Bytes } from '../text/utf8Bytes';
import { Composer, sessionDateText } from './composer';
import { DecisionQueue } from './decisions';
import { ComposeError } from './errors';
import { sha256Hex } from '../text/sha';
import { messageHash } from './messageHash';
import { encodeRequest } from './requestEncoding';
import type { ProjectContext, ProjectContextSource } from './projectContextSource';
import { FileRulesSource } from '../../node/fileRulesSource';
import { ScriptedSession } from '../../../test/support/compose/scriptedSession';
import { deepFreeze } from '../deepFreeze';

const MODEL = 'claude-sonnet-4-5';

function projectSource(context: ProjectContext): ProjectContextSource {
  return { load: async () => structuredClone(context) };
}

const smallProject: ProjectContext = {
  folders: [
    {
      name: 'app',
      path: '/work/app',
      depth: 2,
      omitted: 0,
      git: {
        branch: 'main',
        upstream: null,
        staged: 0,
        modified: 1,
        deleted: 0,
        untracked: 0,
        conflicted: 0,
        changed: [' M src/app.ts'],
        changedOmitted: 0,
      },
      tree: [
        { path: 'src/', depth: 0 },
        { path: 'src/app.ts', depth: 1 },
        { path: 'package.json', depth: 0 },
      ],
    },
  ],
};

let home: string;
let root: string;

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'cairn-compose-home-'));
  root = await mkdtemp(join(tmpdir(), 'cairn-compose-root-'));
  await mkdir(join(home, '.cairn'));
  await writeFile(join(home, '.cairn', 'AGENTS.md'), 'Answer in English.\n');
  await writeFile(join(root, 'AGENTS.md'), 'Run npm test before saying done.\n');
});

afterEach(async () => {
  await rm(home, { recursive: true, force: true });
  await rm(root, { recursive: true, force: true });
});

/** Each composer's decision queue, as the session's loop would hold it. */
const queues = new WeakMap<Composer, DecisionQueue>();

function composer(overrides: Partial<ConstructorParameters<typeof Composer>[0]> = {}): Composer {
  const decisions = new DecisionQueue();
  const built = new Composer({
    tools: TOOL_DEFINITIONS,
    preamble: 'You are Cairn.\n\nUse the tools.',
    rules: new FileRulesSource({ homeDir: home, roots: [root] }),
    projectContext: projectSource(smallProject),
    sessionDate: '2026-11-30',
    clock: { now: () => Date.UTC(2026, 10, 30, 9, 0, 0) },
    decisions,
    ...overrides,
  });
  queues.set(built, decisions);
  return built;
}

/** A main request, carrying the decisions queued since the last one (as the loop does). */
function compose(c: Composer, conversation: readonly Message[], generation = 0) {
  const decisions = queues.get(c)?.take() ?? [];
  return c.compose({ model: MODEL, maxTokens: 4096, generation, conversation, purpose: 'main', decisions });
}

/** What the wire carries: the request serialised and parsed back, as the local server logs it. */
function wire(request: ModelRequest): ModelRequest {
  return JSON.parse(JSON.stringify(request)) as ModelRequest;
}

function stripMarkers(request: ModelRequest): unknown {
  const strip = (block: object) => {
    const { cache_control: _c, ...rest } = block as { cache_control?: unknown };
    return rest;
  };
  return {
    tools: request.tools.map(strip),
    system: request.system.map(strip),
    messages: request.messages.map((m) => ({ role: m.role, content: m.content.map(strip) })),
  };
}

describe('Composer', () => {
  it('refuses to compose before prepare and rejects a negative budget', async () => {
    expect(() => compose(composer(), [])).toThrow(/prepare/);
    expect(() => composer({ budgets: { projectContext: -1 } })).toThrow(ComposeError);
    expect(() => composer({ budgets: { projectContext: -1 } })).toThrow(/projectContext.*0 or more/);
  });

  it('keeps the static prefix byte-identical and breaks no cache over a long session', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(11);
    let firstStatic: string | null = null;
    let previous: ModelRequest | null = null;
    for (let i = 0; i < 120; i++) {
      if (i % 10 === 0) session.user(`Task ${i}: make the cache work.`);
      session.step();
      const { request, snapshot } = compose(c, session.messages);
      const sent = JSON.stringify({ system: request.system, tools: request.tools });
      firstStatic ??= sent;
      expect(sent).toBe(firstStatic);
      expect(snapshot.cacheBreak).toBeNull();
      // The previous request's messages (markers removed) are a prefix of this one's.
      if (previous && i % 10 === 0) {
        const before = stripMarkers(wire(previous)) as { messages: unknown[] };
        const after = stripMarkers(wire(request)) as { messages: unknown[] };
        expect(canonicalRequestJson(after.messages.slice(0, before.messages.length))).toBe(canonicalRequestJson(before.messages));
      }
      if (i % 10 === 9) session.reply();
      if (i % 10 === 9) previous = request;
      await c.prepare(); // a second prepare reuses the static part
    }
    expect(c.cacheBreaks).toBe(0);
  });

  it('puts tools in name order, the date first in the first user message, and nothing internal in the request', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(3);
    session.user('Hello');
    session.step();
    const { request } = compose(c, session.messages);
    expect(Object.keys(request).sort()).toEqual(['max_tokens', 'messages', 'model', 'system', 'tools']);
    const names = request.tools.map((t) => t.name);
    expect(names).toEqual([...names].sort());
    expect(request.messages[0]?.content[0]).toEqual({ type: 'text', text: sessionDateText('2026-11-30') });
    expect(request.system.map((b) => b.text.split('\n')[0])).toEqual([
      'You are Cairn.',
      "# ~/.cairn/AGENTS.md (the user's global rules)",
      '# AGENTS.md (rules of this workspace)',
      '# Project context',
    ]);
    for (const block of [...request.system, ...request.messages.flatMap((m): object[] => m.content)]) {
      for (const key of Object.keys(block))
        expect(['type', 'text', 'cache_control', 'id', 'name', 'input', 'tool_use_id', 'content', 'is_error']).toContain(key);
    }
  });

  it('places at most four breakpoints: last tool, last system block, previous and newest message', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(5);
    session.user('Start');
    const first = compose(c, session.messages);
    expect(first.snapshot.breakpoints).toEqual([
      { zone: 'tools', index: first.request.tools.length - 1 },
      { zone: 'system', index: first.request.system.length - 1 },
      { zone: 'messages', index: 0, block: 1 },
    ]);
    for (let i = 0; i < 30; i++) session.step();
    const { request, snapshot } = compose(c, session.messages);
    const last = request.messages.length - 1;
    expect(snapshot.breakpoints.slice(2)).toEqual([
      { zone: 'messages', index: 0, block: 1 },
      { zone: 'messages', index: last, block: 0 },
    ]);
    const markers = JSON.stringify(request).match(/cache_control/g) ?? [];
    expect(markers.length).toBe(4);
    expect(request.tools.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    expect(request.system.at(-1)?.cache_control).toEqual({ type: 'ephemeral' });
    // The next request keeps a marker where this one's newest was.
    session.step();
    const next = compose(c, session.messages);
    expect(next.snapshot.breakpoints.slice(2)).toEqual([
      { zone: 'messages', index: last, block: 0 },
      { zone: 'messages', index: last + 2, block: 0 },
    ]);
    // The conversation the loop owns carries no markers and was not touched.
    expect(JSON.stringify(session.messages)).not.toContain('cache_control');
  });

  it('sends an edited rules file as a delta once, without changing the prefix, and folds it in at the next generation', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(9);
    session.user('Go');
    const before = compose(c, session.messages).request;
    expect(await c.rulesDelta()).toEqual([]);

    await writeFile(join(root, 'AGENTS.md'), 'Run npm test and npm run lint before saying done.\n');
    await writeFile(join(root, 'CLAUDE.md'), 'Be brief.\n');
    const delta = await c.rulesDelta();
    expect(delta.map((b) => b.text.split('\n')[0])).toEqual([
      '<cairn-rules path="AGENTS.md" state="changed" bytes="50">',
      '<cairn-rules path="CLAUDE.md" state="added" bytes="10">',
    ]);
    expect(delta[0]?.text).toContain('npm run lint');
    expect(await c.rulesDelta()).toEqual([]);

    session.reply();
    session.messages.push({ role: 'user', content: [...delta, { type: 'text', text: 'Next task' }] });
    const { request, snapshot } = compose(c, session.messages);
    expect(JSON.stringify(request.system)).toBe(JSON.stringify(before.system));
    expect(snapshot.cacheBreak).toBeNull();
    expect(snapshot.decisions).toEqual([
      { kind: 'rules_delta', detail: 'rules sent as a delta: AGENTS.md changed, CLAUDE.md added', resultIds: [] },
    ]);

    await c.startGeneration();
    const fresh = compose(c, [{ role: 'user', content: [{ type: 'text', text: 'Summary…' }] }], 1).request;
    expect(fresh.system.map((b) => b.text).join('\n')).toContain('npm run lint');
    expect(fresh.system.map((b) => b.text).join('\n')).toContain('# CLAUDE.md');
    expect(await c.rulesDelta()).toEqual([]);
  });

  it('resumes with the journalled static part: same prefix, rules changes since then as a delta', async () => {
    const first = composer();
    await first.prepare();
    const state = JSON.parse(JSON.stringify(first.staticState()));
    const before = compose(first, [{ role: 'user', content: [{ type: 'text', text: 'Go' }] }]).request;

    await writeFile(join(root, 'AGENTS.md'), 'Changed while Cairn was closed.\n');
    const resumed = composer({ restoredStatic: state, projectContext: projectSource({ folders: [] }) });
    await resumed.prepare();
    const after = compose(resumed, [{ role: 'user', content: [{ type: 'text', text: 'Go' }] }]).request;
    expect(JSON.stringify(after.system)).toBe(JSON.stringify(before.system));
    expect(JSON.stringify(after.tools)).toBe(JSON.stringify(before.tools));
    const delta = await resumed.rulesDelta();
    expect(delta.map((b) => b.text.split('\n')[0])).toEqual(['<cairn-rules path="AGENTS.md" state="changed" bytes="32">']);
    await expect(composer({ restoredStatic: { ...state, system: 'nope' } }).prepare()).rejects.toThrow(/damaged/);
  });

  it('marks a project context cut to its budget, preferring the compact variant', async () => {
    const big: ProjectContext = {
      folders: [
        {
          ...smallProject.folders[0]!,
          tree: Array.from({ length: 400 }, (_, i) => ({ path: `src/module${i}/`, depth: 0 })).concat(
            Array.from({ length: 400 }, (_, i) => ({ path: `src/module${i}/index.ts`, depth: 1 })),
          ),
        },
      ],
    };
    const compactFits = composer({ projectContext: projectSource(big), budgets: { projectContext: 12_000 } });
    await compactFits.prepare();
    const a = compose(compactFits, []).snapshot.sources.find((s) => s.source === 'project_context');
    expect(a).toMatchObject({ variant: 'compact', truncated: false, budgetBytes: 12_000 });

    const cut = composer({ projectContext: projectSource(big), budgets: { projectContext: 1000 } });
    await cut.prepare();
    const { request, snapshot } = compose(cut, []);
    const source = snapshot.sources.find((s) => s.source === 'project_context');
    expect(source).toMatchObject({ truncated: true, budgetBytes: 1000 });
    const block = request.system.at(-1)!;
    expect(utf8Bytes(block.text)).toBeLessThanOrEqual(1000);
    expect(block.text).toMatch(/\[truncated: project context exceeded its 1000-byte budget\]$/);
    expect(snapshot.decisions[0]).toMatchObject({ kind: 'budget_cut' });
    // Rules are never cut, whatever the budgets.
    expect(request.system.some((b) => b.text.includes('Run npm test before saying done.'))).toBe(true);
  });

  it('writes message hashes that reproduce from the logged body, and byte counts that add up', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(13);
    session.user('Ünïcödé ✓ and emoji 🎉 in the task');
    for (let i = 0; i < 8; i++) session.step();
    const { request, snapshot } = compose(c, session.messages);
    const logged = JSON.parse(JSON.stringify(request)) as {
      messages: Array<{ role: string; content: Array<Record<string, unknown>> }>;
      tools: Array<Record<string, unknown>>;
      system: Array<Record<string, unknown>>;
    };
    const stripped = (block: Record<string, unknown>) => {
      const copy = { ...block };
      delete copy.cache_control;
      return copy;
    };
    const hashes = logged.messages.map((m) =>
      sha256Hex(canonicalRequestJson({ role: m.role, content: m.content.map(stripped) })).slice(0, 8),
    );
    expect(snapshot.messageHashes).toEqual(hashes);
    expect(snapshot.messageCount).toBe(logged.messages.length);

    const bytes = (blocks: Array<Record<string, unknown>>) =>
      blocks.reduce((sum, b) => sum + utf8Bytes(canonicalRequestJson(stripped(b))), 0);
    expect(snapshot.bytes.tools).toBe(bytes(logged.tools));
    expect(snapshot.toolDefinitionBytes).toBe(snapshot.bytes.tools);
    expect(snapshot.bytes.system).toBe(bytes(logged.system));
    expect(snapshot.bytes.messages).toBe(logged.messages.reduce((sum, m) => sum + bytes(m.content), 0));
    expect(snapshot.bytes.total).toBe(snapshot.bytes.tools + snapshot.bytes.system + snapshot.bytes.messages);
    expect(snapshot.sources.reduce((sum, s) => sum + s.bytes, 0)).toBe(snapshot.bytes.total);
    expect(snapshot.sources.reduce((sum, s) => sum + s.rawTokens, 0)).toBe(snapshot.estimate.rawTokens);
    expect(snapshot.sources.map((s) => s.source)).toEqual([
      'preamble',
      'tools',
      'rules',
      'rules',
      'project_context',
      'session_date',
      'conversation',
    ]);
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });

  it('flags a rewritten earlier message with its index and block, not an appended one', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(17);
    session.user('Go');
    for (let i = 0; i < 4; i++) session.step();
    expect(compose(c, session.messages).snapshot.cacheBreak).toBeNull();
    session.step();
    expect(compose(c, session.messages).snapshot.cacheBreak).toBeNull();

    const rewritten = structuredClone(session.messages);
    const target = rewritten[4]!;
    if (target.content[0]?.type !== 'tool_result') throw new Error('fixture changed');
    target.content[0].content = target.content[0].content.replace(/\]\n[\s\S]*$/, '] (elided)');
    rewritten.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] });
    const { snapshot } = compose(c, rewritten);
    // Request index 4 is conversation index 4 (the date joins the first message, it adds none).
    expect(snapshot.cacheBreak).toMatchObject({ zone: 'messages', index: 4, block: 0 });
    expect(snapshot.cacheBreak?.reason).toMatch(/message 4 \(user\) block 0 \(tool_result\) changed/);
    expect(snapshot.decisions.at(-1)).toMatchObject({ kind: 'cache_break' });
    expect(c.cacheBreaks).toBe(1);
    // A compaction request is a deliberate break: not compared, not counted.
    c.compose({
      model: MODEL,
      maxTokens: 1000,
      generation: 0,
      conversation: [{ role: 'user', content: [{ type: 'text', text: 'Summarize' }] }],
      purpose: 'compaction',
      decisions: [],
    });
    expect(c.cacheBreaks).toBe(1);
    // A new generation starts from nothing.
    expect(compose(c, [{ role: 'user', content: [{ type: 'text', text: 'Summary' }] }], 1).snapshot.cacheBreak).toBeNull();
  });

  it('gives a stored (deep-frozen) conversation the same bytes, hashes and estimates as encoding it afresh', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(23);
    session.user('Go');
    const stored: Message[] = [];
    for (let round = 0; round < 4; round++) {
      session.step();
      // The loop's conversation stores each message frozen and hands the same objects back every time.
      while (stored.length < session.messages.length) stored.push(deepFreeze(structuredClone(session.messages[stored.length]!)));
      const { request, snapshot } = compose(c, stored);
      const encoding = encodeRequest(request);
      const bytes = (list: readonly string[]) => list.reduce((total, json) => total + utf8Bytes(json), 0);
      expect(snapshot.messageHashes).toEqual(request.messages.map((message) => messageHash(message)));
      expect(snapshot.bytes.messages).toBe(encoding.messages.reduce((total, message) => total + bytes(message.blocks), 0));
      expect(snapshot.bytes.tools).toBe(bytes(encoding.tools));
      expect(snapshot.bytes.system).toBe(bytes(encoding.system));
      expect(snapshot.estimate.rawTokens).toBe(c.estimator.rawRequest(request));
      expect(snapshot.cacheBreak).toBeNull();
      // The request is the stored conversation with the date first, markers only where placed.
      const unmarked = JSON.parse(
        JSON.stringify(request.messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value)),
      ) as Message[];
      expect(unmarked.slice(1)).toEqual(JSON.parse(JSON.stringify(stored.slice(1))));
      expect(unmarked[0]!.content.slice(1)).toEqual(JSON.parse(JSON.stringify(stored[0]!.content)));
      expect(Object.isFrozen(request.messages.at(-1)!.content.at(-1))).toBe(false);
    }
  });

  it('makes snapshots that later changes to the conversation cannot reach', async () => {
    const c = composer();
    await c.prepare();
    const session = new ScriptedSession(19);
    session.user('Go');
    session.step();
    const { request, snapshot } = c.compose({
      model: MODEL,
      maxTokens: 100,
      generation: 0,
      conversation: session.messages,
      purpose: 'main',
      decisions: [{ kind: 'stub', detail: 'unchanged re-read', resultIds: ['#1001'] }],
    });
    const frozen = JSON.stringify({ request, snapshot });
    const tool = session.messages[2]!.content[0]!;
    if (tool.type === 'tool_result') tool.content = 'changed later';
    session.messages.push({ role: 'assistant', content: [{ type: 'text', text: 'more' }] });
    expect(JSON.stringify({ request, snapshot })).toBe(frozen);
    expect(snapshot.decisions).toEqual([{ kind: 'stub', detail: 'unchanged re-read', resultIds: ['#1001'] }]);
  });

  it('fills usage, cache-hit share and cost into a copy of the snapshot', async () => {
    const c = composer();
    await c.prepare();
    const { snapshot } = compose(c, [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
    const observed = c.observeUsage(snapshot, {
      input_tokens: 100,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 600,
      output_tokens: 50,
    });
    expect(snapshot.usage).toBeNull();
    expect(observed.usage).toEqual({ input: 100, cacheWrite: 300, cacheRead: 600, output: 50 });
    expect(observed.cacheHitShare).toBeCloseTo(0.6);
    // Sonnet: $3 in, $15 out, writes 1.25x, reads 0.1x, per million tokens.
    expect(observed.cost?.usd).toBeCloseTo((100 * 3 + 300 * 3.75 + 600 * 0.3 + 50 * 15) / 1e6, 12);
    expect(c.estimator.calibration(MODEL).samples).toBe(1);
    const unpriced = c.observeUsage(
      { ...snapshot, model: 'some-local-model' },
      { input_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1 },
    );
    expect(unpriced.cost).toBeNull();
    const custom = composer({ prices: { 'some-local-model': { input: 1, output: 2, cacheWrite: 1, cacheRead: 0 } } });
    expect(
      custom.observeUsage(
        { ...snapshot, model: 'some-local-model' },
        { input_tokens: 1e6, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 1e6 },
      ).cost?.usd,
    ).toBe(3);
  });

  it('reports usage in three parts that always exist', async () => {
    const c = composer();
    expect(c.usageParts([], null, 200_000)).toEqual({ system: 0, history: 0, summary: 0, total: 0, window: 200_000, share: 0 });
    await c.prepare();
    const empty = c.usageParts([], null, 200_000);
    expect(empty.system).toBeGreaterThan(0);
    expect(empty.history).toBe(0);
    expect(empty.summary).toBe(0);
    const summary = 'The user asked for a cache. Work completed: the cache. Remaining: tests.';
    const parts = c.usageParts(
      [
        { role: 'user', content: [{ type: 'text', text: summary }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Continuing with the tests now.' }] },
      ],
      summary,
      200_000,
    );
    expect(parts.summary).toBeGreaterThan(0);
    expect(parts.history).toBeGreaterThan(0);
    expect(parts.total).toBe(parts.system + parts.history + parts.summary);
  });
});
