/**
 * What `ModelSummarizer` promises: the summary request it composes, retries of an empty or too-short
 * answer, the cap on its length, a snapshot for every request (failed ones too), and the fallback model
 * (used when the main model's cache is cold; if it fails, the whole summary reruns on the main model).
 * A scripted model answers; the composer is the real one.
 */
import { describe, expect, it } from 'vitest';
import { fail, reply, replyText, ScriptedModel, type ScriptedStep } from '../../../test/support/model/scriptedModel';
import { Composer } from '../compose/composer';
import { emptyProjectContext } from '../compose/projectContextSource';
import type { RequestSnapshot } from '../compose/snapshot';
import { ModelError, cancelledError } from '../model/errors';
import type { ModelFacts, TextBlock } from '../model/types';
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from './settings';
import { CompactionError, ModelSummarizer, type SummaryRequest } from './summarizer';
import { DecisionQueue } from '../compose/decisions';

const MAIN = 'claude-main';
const SMALL = 'claude-small';
const NOW = Date.UTC(2026, 11, 1, 22, 0, 0);
const PROMPTS = { normal: 'Summarize the work so far.\n', emergency: 'Summarize tersely: the window is full.\n' };
/** Long enough to pass `minSummaryChars` (200 by default). */
const GOOD_SUMMARY = `Goal: fix the parser. Done: read src/parser.ts, found the off-by-one. ${'Next: run the tests. '.repeat(10)}`.trim();
const REQUEST: SummaryRequest = { stage: 'normal', transcript: 'user: fix the parser\nassistant: reading src/parser.ts' };

interface SummarizerOverrides {
  readonly settings?: Partial<CompactionSettings>;
  /** When the main model last answered; undefined: never in this session. */
  readonly lastMainRequestAt?: number;
  readonly facts?: (modelId: string) => ModelFacts;
  readonly generation?: number;
}

async function summarizerWith(script: readonly ScriptedStep[], overrides: SummarizerOverrides = {}) {
  const model = new ScriptedModel(script, overrides.facts);
  const composer = new Composer({
    decisions: new DecisionQueue(),
    tools: [],
    preamble: 'You are Cairn.',
    rules: { load: async () => [] },
    projectContext: emptyProjectContext,
    sessionDate: '2026-12-01',
    clock: { now: () => NOW },
  });
  await composer.prepare();
  const snapshots: RequestSnapshot[] = [];
  const logs: string[] = [];
  const settings: CompactionSettings = { ...DEFAULT_COMPACTION_SETTINGS, ...overrides.settings };
  const summarizer = new ModelSummarizer({
    model,
    composer,
    mainModel: () => MAIN,
    settings: () => settings,
    prompts: PROMPTS,
    lastMainRequestAt: () => overrides.lastMainRequestAt,
    clock: { now: () => NOW },
    generation: () => overrides.generation ?? 3,
    onSnapshot: async (snapshot) => {
      snapshots.push(snapshot);
    },
    log: (line) => logs.push(line),
  });
  return { summarizer, model, snapshots, logs };
}

/** The text of the summary request's last block: the prompt and the transcript. */
function promptText(model: ScriptedModel, index = 0): string {
  const message = model.sent[index]!.request.messages.at(-1)!;
  return (message.content.at(-1) as TextBlock).text;
}

const signal = () => new AbortController().signal;

describe('ModelSummarizer: the request', () => {
  it('asks the main model once, as a compaction request, with the prompt and the transcript', async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)]);
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(outcome).toEqual({ text: GOOD_SUMMARY, model: MAIN, attempts: 1 });
    expect(model.sent).toHaveLength(1);
    expect(model.sent[0]!.purpose).toBe('compaction');
    expect(model.sent[0]!.request.model).toBe(MAIN);
    expect(model.sent[0]!.request.messages).toHaveLength(1);
    expect(promptText(model)).toBe(`Summarize the work so far.\n\n<transcript>\n${REQUEST.transcript}\n</transcript>`);
  });

  it('the emergency stage uses the emergency prompt', async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)]);
    await summarizer.summarize({ ...REQUEST, stage: 'emergency' }, signal());
    expect(promptText(model)).toMatch(/^Summarize tersely: the window is full\.\n\n<transcript>\n/);
  });

  it("the user's instructions (manual compaction) follow the prompt, trimmed; blank ones are left out", async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY), replyText(GOOD_SUMMARY)]);
    await summarizer.summarize({ ...REQUEST, instructions: '  keep the test names \n' }, signal());
    await summarizer.summarize({ ...REQUEST, instructions: '   ' }, signal());
    expect(promptText(model, 0)).toBe(
      `Summarize the work so far.\n\nThe user asked this compaction to keep in mind: keep the test names\n\n<transcript>\n${REQUEST.transcript}\n</transcript>`,
    );
    expect(promptText(model, 1)).not.toContain('keep in mind');
  });

  it("max_tokens: the setting, bounded by a tenth of the model's window and its output limit, never under 1024", async () => {
    const cases: Array<[Partial<CompactionSettings>, Partial<ModelFacts>, number]> = [
      [{ summaryMaxTokens: 8_000 }, { maxInputTokens: 200_000, maxOutputTokens: 64_000 }, 8_000],
      [{ summaryMaxTokens: 8_000 }, { maxInputTokens: 50_000, maxOutputTokens: 64_000 }, 5_000],
      [{ summaryMaxTokens: 8_000 }, { maxInputTokens: 200_000, maxOutputTokens: 4_000 }, 4_000],
      [{ summaryMaxTokens: 8_000 }, { maxInputTokens: 8_000, maxOutputTokens: 4_000 }, 1_024],
    ];
    for (const [settings, facts, expected] of cases) {
      const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)], {
        settings,
        facts: (id) => ({ id, maxInputTokens: 200_000, maxOutputTokens: 64_000, source: 'fallback-table', ...facts }),
      });
      await summarizer.summarize(REQUEST, signal());
      expect(model.sent[0]!.request.max_tokens).toBe(expected);
    }
  });

  it('the summary is the text blocks joined and trimmed; thinking is left out', async () => {
    const { summarizer } = await summarizerWith([
      reply([
        { type: 'thinking', thinking: 'Let me think.', signature: 'sig' },
        { type: 'text', text: `  ${GOOD_SUMMARY.slice(0, 100)}` },
        { type: 'text', text: `${GOOD_SUMMARY.slice(100)}\n\n` },
      ]),
    ]);
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(outcome.text).toBe(GOOD_SUMMARY);
  });

  it('a summary longer than summaryMaxChars is cut there, with a marker', async () => {
    const { summarizer } = await summarizerWith([replyText(GOOD_SUMMARY)], { settings: { summaryMaxChars: 210 } });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(outcome.text).toBe(`${GOOD_SUMMARY.slice(0, 210)}\n[summary cut at 210 characters]`);
  });
});

describe('ModelSummarizer: attempts', () => {
  it('an empty or too-short answer is retried; the outcome counts the attempts', async () => {
    const { summarizer, model, logs } = await summarizerWith([replyText(''), replyText('Too short.'), replyText(GOOD_SUMMARY)]);
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(outcome).toEqual({ text: GOOD_SUMMARY, model: MAIN, attempts: 3 });
    expect(model.sent).toHaveLength(3);
    expect(logs).toEqual(['[Context] attempt 1/3 returned nothing', '[Context] attempt 2/3 summary too short (10 characters)']);
  });

  it('every attempt failing → a CompactionError naming the last problem', async () => {
    const { summarizer, model } = await summarizerWith([replyText(''), replyText(''), replyText('Too short.'), replyText(GOOD_SUMMARY)], {
      settings: { maxSummaryAttempts: 3 },
    });
    const error = await summarizer.summarize(REQUEST, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CompactionError);
    expect((error as Error).message).toBe('The summary failed 3 times (summary too short (10 characters)).');
    expect(model.sent).toHaveLength(3);
  });

  it('a failed request is not retried: its error reaches the caller unchanged', async () => {
    const overloaded = new ModelError('overloaded', 'The Anthropic API is overloaded (529).');
    const { summarizer, model } = await summarizerWith([fail(overloaded), replyText(GOOD_SUMMARY)]);
    await expect(summarizer.summarize(REQUEST, signal())).rejects.toBe(overloaded);
    expect(model.sent).toHaveLength(1);
  });
});

describe('ModelSummarizer: snapshots', () => {
  it('every attempt leaves a compaction snapshot with its usage', async () => {
    const { summarizer, snapshots } = await summarizerWith([replyText(''), replyText(GOOD_SUMMARY)], { generation: 4 });
    await summarizer.summarize(REQUEST, signal());
    expect(snapshots).toHaveLength(2);
    for (const snapshot of snapshots) {
      expect(snapshot).toMatchObject({ purpose: 'compaction', model: MAIN, generation: 4, decisions: [] });
      expect(snapshot.usage).toEqual({ input: 100, cacheWrite: 0, cacheRead: 0, output: 20 });
    }
  });

  it('a failed request still leaves its snapshot, without usage', async () => {
    const { summarizer, snapshots } = await summarizerWith([fail(new ModelError('bad_request', 'refused'))]);
    await expect(summarizer.summarize(REQUEST, signal())).rejects.toThrow('refused');
    expect(snapshots).toHaveLength(1);
    expect(snapshots[0]).toMatchObject({ purpose: 'compaction', model: MAIN, usage: null });
  });
});

describe('ModelSummarizer: the fallback model', () => {
  const withFallback = { fallbackModel: SMALL, fallbackAfterMinutes: 5 };

  it('no fallback model configured → the main model, and no fallback in the outcome', async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)]);
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent[0]!.request.model).toBe(MAIN);
    expect(outcome.fallback).toBeUndefined();
  });

  it('a fallback model equal to the main model → the main model, no fallback', async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)], { settings: { fallbackModel: MAIN } });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent[0]!.request.model).toBe(MAIN);
    expect(outcome.fallback).toBeUndefined();
  });

  it('main model never asked in this session → the fallback model is used', async () => {
    const { summarizer, model, snapshots } = await summarizerWith([replyText(GOOD_SUMMARY)], { settings: withFallback });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent.map((s) => s.request.model)).toEqual([SMALL]);
    expect(snapshots[0]!.model).toBe(SMALL);
    expect(outcome).toEqual({
      text: GOOD_SUMMARY,
      model: SMALL,
      attempts: 1,
      fallback: { status: 'used', reason: 'no recent request on the main model' },
    });
  });

  it('main model idle longer than fallbackAfterMinutes (cache cold) → the fallback model, sized by its own facts', async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)], {
      settings: withFallback,
      lastMainRequestAt: NOW - 6 * 60_000,
      facts: (id) => ({ id, maxInputTokens: 200_000, maxOutputTokens: id === SMALL ? 2_000 : 64_000, source: 'fallback-table' }),
    });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent[0]!.request).toMatchObject({ model: SMALL, max_tokens: 2_000 });
    expect(outcome.fallback).toEqual({ status: 'used', reason: 'main model idle 360 s > 300 s: its cache is cold' });
  });

  it('main model answered recently (cache warm) → the main model, no fallback in the outcome', async () => {
    const { summarizer, model } = await summarizerWith([replyText(GOOD_SUMMARY)], {
      settings: withFallback,
      lastMainRequestAt: NOW - 4 * 60_000,
    });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent[0]!.request.model).toBe(MAIN);
    expect(outcome.fallback).toBeUndefined();
  });

  it('the fallback model failing → the whole summary reruns on the main model, and says why', async () => {
    const notFound = new ModelError('not_found', 'The Anthropic API does not know this resource (404).');
    const { summarizer, model, logs, snapshots } = await summarizerWith([fail(notFound), replyText(GOOD_SUMMARY)], {
      settings: withFallback,
    });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent.map((s) => s.request.model)).toEqual([SMALL, MAIN]);
    expect(outcome).toEqual({
      text: GOOD_SUMMARY,
      model: MAIN,
      attempts: 1,
      fallback: { status: 'skipped', reason: `fallback failed: ${notFound.message}` },
    });
    expect(logs).toEqual([`[Context] fallback model ${SMALL} failed (${notFound.message}); summarizing on ${MAIN}`]);
    expect(snapshots.map((s) => s.model)).toEqual([SMALL, MAIN]);
  });

  it('the fallback model running out of attempts → the main model gets its own attempts', async () => {
    const { summarizer, model } = await summarizerWith([replyText(''), replyText(''), replyText('Too short.'), replyText(GOOD_SUMMARY)], {
      settings: { ...withFallback, maxSummaryAttempts: 2 },
    });
    const outcome = await summarizer.summarize(REQUEST, signal());
    expect(model.sent.map((s) => s.request.model)).toEqual([SMALL, SMALL, MAIN, MAIN]);
    expect(outcome).toMatchObject({ model: MAIN, attempts: 2, fallback: { status: 'skipped' } });
    expect(outcome.fallback!.reason).toBe('fallback failed: The summary failed 2 times (returned nothing).');
  });

  it('the main model failing after the fallback failed → its error reaches the caller', async () => {
    const overloaded = new ModelError('overloaded', 'The Anthropic API is overloaded (529).');
    const { summarizer } = await summarizerWith([fail(new ModelError('not_found', 'no such model')), fail(overloaded)], {
      settings: withFallback,
    });
    await expect(summarizer.summarize(REQUEST, signal())).rejects.toBe(overloaded);
  });

  it('a cancel during the fallback → rethrown, the main model is not asked', async () => {
    const { summarizer, model } = await summarizerWith([fail(cancelledError()), replyText(GOOD_SUMMARY)], { settings: withFallback });
    await expect(summarizer.summarize(REQUEST, signal())).rejects.toMatchObject({ kind: 'cancelled' });
    expect(model.sent).toHaveLength(1);
  });

  it('the signal aborted while the fallback failed → rethrown, the main model is not asked', async () => {
    const controller = new AbortController();
    const abortThenFail: ScriptedStep = async () => {
      controller.abort();
      throw new Error('socket closed');
    };
    const { summarizer, model } = await summarizerWith([abortThenFail, replyText(GOOD_SUMMARY)], { settings: withFallback });
    await expect(summarizer.summarize(REQUEST, controller.signal)).rejects.toThrow('socket closed');
    expect(model.sent).toHaveLength(1);
  });
});
