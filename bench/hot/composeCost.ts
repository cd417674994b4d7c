/**
 * Composing a request at 10, 100, 1,000 and 5,000 messages against `JSON.stringify` of that request
 * (the least a client must do to send it). Each round appends one tool call and its result and composes
 * again, as the loop does, so cached token estimates are what make composing grow only with new blocks.
 *
 * Before the measured sizes, a throwaway session (its own composer, estimator and memos, other texts)
 * composes WARM_UP_ROUNDS requests so the JIT has compiled the composer's code, as it has in an
 * extension host after a session's first requests: `JSON.stringify` is native and needs no warming,
 * so without this the smallest sizes compared interpreted JavaScript with C++. Nothing the measured
 * sessions count is counted there (estimators and memos are per composer). The smallest size's note
 * also gives the same rounds measured before that warm-up (the composer's first requests in the
 * process), so the cost of the cold start stays visible.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BENCH_MODEL } from '../benchModel';
import { Composer } from '../../src/core/compose/composer';
import { FileRulesSource } from '../../src/node/fileRulesSource';
import { loadPreamble } from '../../src/core/compose/node/prompts';
import type { Message } from '../../src/core/model/types';
import { TOOL_DEFINITIONS } from '../../src/core/tools/definitions';
import { REPO_PROMPTS_DIR } from '../../src/node/headless/runner';
import { NodeProjectContext } from '../../src/node/nodeProjectContext';
import type { HotFigure } from './figure';
import { DecisionQueue } from '../../src/core/compose/decisions';

const MODEL = BENCH_MODEL;

function exchange(i: number): Message[] {
  const body = Array.from({ length: 30 }, (_, l) => `${l + 1}: const item${i}_${l} = load('${i}/${l}'); // step ${i}`).join('\n');
  return [
    {
      role: 'assistant',
      content: [
        { type: 'text', text: `Step ${i}: reading the next file.` },
        { type: 'tool_use', id: `toolu_${i}`, name: 'read', input: { path: `src/f${i}.ts` } },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `toolu_${i}`,
          content: `[#${(0x1000 + i).toString(16)} src/f${i}.ts lines 1-30 of 30 sha 0123abcd]\n${body}`,
        },
      ],
    },
  ];
}

function conversationOf(messages: number): Message[] {
  const out: Message[] = [{ role: 'user', content: [{ type: 'text', text: 'Read every file and tell me what they load.' }] }];
  for (let i = 0; out.length + 2 <= messages; i++) out.push(...exchange(i));
  return out;
}

function formatMs(ms: number): string {
  return ms >= 1 ? `${ms.toFixed(2)} ms` : `${Math.round(ms * 1000)} µs`;
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[(s.length >> 1) - 1]! + s[s.length >> 1]!) / 2;
}

/** Requests the throwaway warm-up session composes before anything is measured. */
const WARM_UP_ROUNDS = 60;
/** Its exchanges are numbered apart from the measured ones, so even the texts differ. */
const WARM_UP_FIRST = 900_000;

interface Rounds {
  coldMs: number;
  coldStringifyMs: number;
  measured: number;
  baseline: number;
}

function newComposer(dir: string, preamble: string): Composer {
  return new Composer({
    decisions: new DecisionQueue(),
    tools: TOOL_DEFINITIONS,
    preamble,
    rules: new FileRulesSource({ homeDir: join(dir, 'home'), roots: [dir] }),
    projectContext: new NodeProjectContext({ folders: [dir] }),
    sessionDate: '2026-11-30',
  });
}

/** One session at `size` messages: its first composition, then `rounds` of one new exchange each. */
async function measureSize(dir: string, preamble: string, size: number, rounds: number, first: number): Promise<Rounds> {
  const composer = newComposer(dir, preamble);
  await composer.estimator.warmUp();
  await composer.prepare();
  const conversation = conversationOf(size);
  const compose = () => composer.compose({ model: MODEL, maxTokens: 16_000, generation: 0, conversation, purpose: 'main', decisions: [] });
  // The first composition of a long history estimates every block once (a resumed session pays it once).
  const coldStart = performance.now();
  const cold = compose();
  const coldMs = performance.now() - coldStart;
  const coldStringify = performance.now();
  JSON.stringify(cold.request);
  const coldStringifyMs = performance.now() - coldStringify;

  const warm: number[] = [];
  const stringify: number[] = [];
  for (let r = 0; r < rounds; r++) {
    conversation.push(...exchange(first + r));
    const t0 = performance.now();
    const { request } = compose();
    const t1 = performance.now();
    JSON.stringify(request);
    const t2 = performance.now();
    warm.push(t1 - t0);
    stringify.push(t2 - t1);
  }
  return { coldMs, coldStringifyMs, measured: median(warm), baseline: median(stringify) };
}

export async function composeScaling(sizes: readonly number[], rounds: number): Promise<HotFigure[]> {
  const dir = await mkdtemp(join(tmpdir(), 'cairn-bench-compose-'));
  try {
    const preamble = await loadPreamble(REPO_PROMPTS_DIR);
    // The smallest size once more before the warm-up, for the note: what the process's first requests cost.
    const smallest = Math.min(...sizes);
    const firstInProcess = await measureSize(dir, preamble, smallest, rounds, 100_000);
    await measureSize(dir, preamble, 10, WARM_UP_ROUNDS, WARM_UP_FIRST);
    const out: HotFigure[] = [];
    for (const size of sizes) {
      const { coldMs, coldStringifyMs, measured, baseline } = await measureSize(dir, preamble, size, rounds, 100_000);
      const freshNote =
        size === smallest
          ? `; before the JIT warm-up (the process's first compositions): ${(firstInProcess.measured / firstInProcess.baseline).toFixed(2)}× (${formatMs(firstInProcess.measured)})`
          : '';
      out.push({
        group: 'compose',
        name: `compose at ${size.toLocaleString('en-US')} messages (next request: one new exchange)`,
        measured,
        baseline,
        baselineLabel: 'JSON.stringify of the request',
        ratio: measured / baseline,
        goal: '≤ 2×',
        met: measured / baseline <= 2,
        note: `first composition of the whole history ${coldMs.toFixed(1)} ms (${(coldMs / coldStringifyMs).toFixed(1)}× its stringify)${freshNote}`,
      });
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
