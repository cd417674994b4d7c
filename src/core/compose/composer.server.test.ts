/**
 * The composer against the local server over a real socket: composed requests are sent as they are,
 * checked afterwards from the bodies the server logged, and the usage it reports (counted with
 * `@anthropic-ai/tokenizer`, a different tokenizer from the composer's js-tiktoken) calibrates the
 * estimator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalServer, type LocalServer } from '../../node/localServer/server';
import { parseScenario } from '../../node/scenario/scenario';
import type { ModelRequest, ModelUsage } from '../model/types';
import { TOOL_DEFINITIONS } from '../tools/definitions';
import { join } from 'node:path';
import { Composer } from './composer';
import { loadPreamble } from './node/prompts';
import { CacheBreakDetector } from './cacheBreak';
import { canonicalRequestJson } from '../model/canonicalJson';
import { sha256Hex } from '../text/sha';
import { encodeRequest } from './requestEncoding';
import type { RequestSnapshot } from './snapshot';
import type { ProjectContextSource } from './projectContextSource';
import type { RulesSource } from './rules';
import { ScriptedSession } from '../../../test/support/compose/scriptedSession';
import { DecisionQueue } from './decisions';

const MODEL = 'claude-sonnet-4-5';
// Cairn's own preamble (about 1,600 tokens): the source the issue saw shown at a third of its size.
const realPreamble = () => loadPreamble(join(import.meta.dirname, '../../prompts'));
let server: LocalServer;

beforeAll(async () => {
  const turns = Array.from({ length: 200 }, () => ({ assistant: { text: 'ok' } }));
  server = await startLocalServer({ scenario: parseScenario({ about: 'calibration', model: { id: MODEL }, turns }), host: '127.0.0.1' });
});

afterAll(async () => {
  await server?.close();
});

async function send(request: ModelRequest): Promise<ModelUsage> {
  const response = await fetch(`${server.url}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': 'test', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ ...request, stream: false }),
  });
  const body = (await response.json()) as { usage?: ModelUsage; error?: { message: string } };
  if (!response.ok || !body.usage) throw new Error(`server answered ${response.status}: ${body.error?.message ?? 'no usage'}`);
  return body.usage;
}

const rules: RulesSource = {
  load: async () => [{ scope: 'project', path: 'AGENTS.md', text: 'Run the tests before saying done.\nKeep functions small.\n' }],
};
const project: ProjectContextSource = {
  load: async () => ({
    folders: [
      {
        name: 'app',
        path: '/work/app',
        depth: 2,
        omitted: 0,
        git: null,
        tree: ['src/', 'test/', 'package.json', 'README.md'].map((path) => ({ path, depth: 0 })),
      },
    ],
  }),
};

describe('the composer against the local server', () => {
  it('brings calibrated estimates within 3% of the reported input after five requests, raw beside', async () => {
    const composer = new Composer({
      decisions: new DecisionQueue(),
      tools: TOOL_DEFINITIONS,
      preamble: 'You are Cairn, a coding agent.\n\nRead before you edit; check your work with the tests.',
      rules,
      projectContext: project,
      sessionDate: '2026-11-30',
    });
    await composer.prepare();
    const session = new ScriptedSession(23);
    session.user('The cache misses on every request. Find out why and fix it.');
    const rows: Array<{ raw: number; calibrated: number; reported: number }> = [];
    for (let i = 0; i < 12; i++) {
      session.step();
      const { request, snapshot } = composer.compose({
        model: MODEL,
        maxTokens: 1024,
        generation: 0,
        conversation: session.messages,
        purpose: 'main',
        decisions: [],
      });
      const usage = await send(request);
      const reported = usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
      rows.push({ raw: snapshot.estimate.rawTokens, calibrated: snapshot.estimate.tokens, reported });
      const observed = composer.observeUsage(snapshot, usage);
      expect(observed.usage?.input).toBe(usage.input_tokens);
      expect(snapshot.estimate.strategy).toBe(i === 0 ? 'tiktoken-o200k' : 'provider_usage');
    }
    const error = (value: number, reported: number) => Math.abs(value - reported) / reported;
    for (const row of rows.slice(5)) expect(error(row.calibrated, row.reported)).toBeLessThan(0.03);
    // The raw count is a different tokenizer's and is reported as it is, not silently corrected.
    expect(rows.some((row) => row.raw !== row.calibrated)).toBe(true);
    expect(composer.estimator.calibration(MODEL).samples).toBe(12);
  });

  it('keeps one long run of a single character from swinging the other sources, and settles at once', async () => {
    const composer = new Composer({
      decisions: new DecisionQueue(),
      tools: TOOL_DEFINITIONS,
      preamble: await realPreamble(),
      rules,
      projectContext: project,
      sessionDate: '2026-11-30',
    });
    await composer.prepare();
    const session = new ScriptedSession(31);
    session.user('Find out why the build output is so large.');
    const rows: Array<{ preamble: number; preambleRaw: number; calibrated: number; reported: number }> = [];
    const round = async (): Promise<void> => {
      const { request, snapshot } = composer.compose({
        model: MODEL,
        maxTokens: 1024,
        generation: 0,
        conversation: session.messages,
        purpose: 'main',
        decisions: [],
      });
      const usage = await send(request);
      const preamble = snapshot.sources.find((source) => source.source === 'preamble')!;
      rows.push({
        preamble: preamble.tokens,
        preambleRaw: preamble.rawTokens,
        calibrated: snapshot.estimate.tokens,
        reported: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens,
      });
      composer.observeUsage(snapshot, usage);
    };
    for (let i = 0; i < 6; i++) {
      session.step();
      await round();
    }
    // One tool result of 100,000 'a': o200k counts it as 12,500 tokens, the server's tokenizer as 6,250.
    session.messages.push(
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_odd', name: 'bash', input: { command: 'cat dist/blob.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_odd', content: 'a'.repeat(100_000) }] },
    );
    await round();
    for (let i = 0; i < 5; i++) {
      session.step();
      await round();
    }
    const error = (value: number, reported: number) => Math.abs(value - reported) / reported;
    const before = rows[5]!;
    // The preamble's calibrated count (text both tokenizers agree on) moves by a few % at most, ever.
    for (const row of rows.slice(6)) expect(Math.abs(row.preamble - before.preamble) / before.preamble).toBeLessThan(0.05);
    // The request right after the odd one is estimated within 3% again (one surprise, not five).
    for (const row of rows.slice(8)) expect(error(row.calibrated, row.reported)).toBeLessThan(0.03);
    const calibration = composer.estimator.calibration(MODEL);
    expect(calibration.runRatio).toBeGreaterThan(0.4);
    expect(calibration.runRatio).toBeLessThan(0.6);
  });

  it('keeps the prefix byte-identical and breaks no cache over a long session, checked from the logged bodies', async () => {
    const composer = new Composer({
      decisions: new DecisionQueue(),
      tools: TOOL_DEFINITIONS,
      preamble: 'You are Cairn, a coding agent.',
      rules,
      projectContext: project,
      sessionDate: '2026-11-30',
    });
    await composer.prepare();
    const session = new ScriptedSession(29);
    const first = server.requests.length;
    const snapshots: RequestSnapshot[] = [];
    for (let i = 0; i < 110; i++) {
      if (i % 12 === 0) session.user(`Task ${i}: keep going.`);
      session.step();
      const { request, snapshot } = composer.compose({
        model: MODEL,
        maxTokens: 512,
        generation: 0,
        conversation: session.messages,
        purpose: 'main',
        decisions: [],
      });
      snapshots.push(composer.observeUsage(snapshot, await send(request)));
      if (i % 12 === 11) session.reply();
    }
    expect(composer.cacheBreaks).toBe(0);
    const logged = server.requests.slice(first).filter((entry) => entry.kind === 'main');
    expect(logged).toHaveLength(110);
    const detector = new CacheBreakDetector();
    const bodies = logged.map((entry) => entry.body as ModelRequest);
    const prefix = JSON.stringify({ system: bodies[0]!.system, tools: bodies[0]!.tools });
    bodies.forEach((body, i) => {
      expect(JSON.stringify({ system: body.system, tools: body.tools })).toBe(prefix);
      expect(detector.observe(encodeRequest(body), 0)).toBeNull();
      const hashes = body.messages.map((m) =>
        sha256Hex(
          canonicalRequestJson({
            role: m.role,
            content: m.content.map((block) => Object.fromEntries(Object.entries(block).filter(([key]) => key !== 'cache_control'))),
          }),
        ).slice(0, 8),
      );
      expect(snapshots[i]!.messageHashes).toEqual(hashes);
      expect((JSON.stringify(body).match(/cache_control/g) ?? []).length).toBeLessThanOrEqual(4);
      // Every request after the first reads the whole previous request from the cache.
      if (i > 0) {
        const before = snapshots[i - 1]!.usage!;
        expect(logged[i]!.usage!.cache_read_input_tokens).toBeGreaterThanOrEqual(before.input + before.cacheWrite + before.cacheRead);
      }
    });
  });
});
