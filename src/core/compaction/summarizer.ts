import type { Composer } from '../compose/composer';
import type { RequestSnapshot } from '../compose/snapshot';
import { ModelError } from '../model/errors';
import type { ModelClient } from '../model/types';
import type { Clock } from '../ports';
import type { CompactionSettings } from './settings';

export interface SummaryRequest {
  readonly stage: 'normal' | 'emergency';
  readonly transcript: string;
  /** The user's own words for what the summary should keep (manual compaction). */
  readonly instructions?: string;
}

export interface SummaryOutcome {
  readonly text: string;
  /** The model that wrote the summary. */
  readonly model: string;
  readonly attempts: number;
  /** Set when a fallback model was considered: used, or skipped (and why). */
  readonly fallback?: { readonly status: 'used' | 'skipped'; readonly reason: string };
}

/** Writes the summary of the older history. The real one asks a model; conformance passes a fixed text. */
export interface Summarizer {
  summarize(request: SummaryRequest, signal: AbortSignal): Promise<SummaryOutcome>;
}

export class CompactionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CompactionError';
  }
}

export interface ModelSummarizerDeps {
  readonly model: ModelClient;
  readonly composer: Composer;
  readonly mainModel: () => string;
  readonly settings: () => CompactionSettings;
  /** The summary prompts (src/prompts/compaction.md and compaction-emergency.md). */
  readonly prompts: { readonly normal: string; readonly emergency: string };
  /** When the main model last answered a main request: its cache is warm for 5 minutes after. */
  readonly lastMainRequestAt: () => number | undefined;
  readonly clock: Clock;
  readonly generation: () => number;
  /** Every compaction request leaves a snapshot like any other. */
  readonly onSnapshot: (snapshot: RequestSnapshot) => Promise<void>;
  readonly log: (line: string) => void;
}

/**
 * Asks a model for the summary: an empty or too-short answer is retried (up to the configured
 * attempts). With a fallback model configured and the main model's cache cold, the summary runs on the
 * fallback; if that fails, the whole summary reruns on the main model.
 */
export class ModelSummarizer implements Summarizer {
  constructor(private readonly deps: ModelSummarizerDeps) {}

  async summarize(request: SummaryRequest, signal: AbortSignal): Promise<SummaryOutcome> {
    const main = this.deps.mainModel();
    const choice = this.fallbackChoice(main);
    if (choice.use) {
      try {
        const outcome = await this.summarizeOn(choice.use, request, signal);
        return { ...outcome, fallback: { status: 'used', reason: choice.reason } };
      } catch (error) {
        if (signal.aborted || (error instanceof ModelError && error.kind === 'cancelled')) throw error;
        const why = error instanceof Error ? error.message : String(error);
        this.deps.log(`[Context] fallback model ${choice.use} failed (${why}); summarizing on ${main}`);
        const outcome = await this.summarizeOn(main, request, signal);
        return { ...outcome, fallback: { status: 'skipped', reason: `fallback failed: ${why}` } };
      }
    }
    return this.summarizeOn(main, request, signal);
  }

  private fallbackChoice(main: string): { use?: string; reason: string } {
    const { fallbackModel, fallbackAfterMinutes } = this.deps.settings();
    if (!fallbackModel || fallbackModel === main) return { reason: 'no fallback model' };
    const last = this.deps.lastMainRequestAt();
    if (last === undefined) return { use: fallbackModel, reason: 'no recent request on the main model' };
    const idleMs = this.deps.clock.now() - last;
    const afterMs = fallbackAfterMinutes * 60_000;
    if (idleMs > afterMs) {
      return {
        use: fallbackModel,
        reason: `main model idle ${Math.round(idleMs / 1000)} s > ${Math.round(afterMs / 1000)} s: its cache is cold`,
      };
    }
    return { reason: `main model cache warm (idle ${Math.round(idleMs / 1000)} s)` };
  }

  private async summarizeOn(modelId: string, request: SummaryRequest, signal: AbortSignal): Promise<SummaryOutcome> {
    const settings = this.deps.settings();
    const facts = await this.deps.model.modelFacts(modelId);
    const maxTokens = Math.max(1024, Math.min(settings.summaryMaxTokens, Math.floor(facts.maxInputTokens * 0.1), facts.maxOutputTokens));
    const prompt = request.stage === 'emergency' ? this.deps.prompts.emergency : this.deps.prompts.normal;
    const instructions = request.instructions?.trim()
      ? `\n\nThe user asked this compaction to keep in mind: ${request.instructions.trim()}`
      : '';
    const text = `${prompt.trim()}${instructions}\n\n<transcript>\n${request.transcript}\n</transcript>`;
    let lastProblem = '';
    for (let attempt = 1; attempt <= settings.maxSummaryAttempts; attempt++) {
      const composition = this.deps.composer.compose({
        model: modelId,
        maxTokens,
        generation: this.deps.generation(),
        conversation: [{ role: 'user', content: [{ type: 'text', text }] }],
        purpose: 'compaction',
        decisions: [],
      });
      let response;
      try {
        response = await this.deps.model.stream(composition.request, { signal, purpose: 'compaction' });
      } catch (error) {
        // A refused or failed request still leaves its snapshot (what was sent, at what size), as main requests do.
        await this.deps.onSnapshot(composition.snapshot);
        throw error;
      }
      await this.deps.onSnapshot(this.deps.composer.observeUsage(composition.snapshot, response.usage));
      const summary = response.content
        .filter((b) => b.type === 'text')
        .map((b) => (b as { text: string }).text)
        .join('')
        .trim();
      if (summary.length >= settings.minSummaryChars) {
        const capped =
          summary.length > settings.summaryMaxChars
            ? `${summary.slice(0, settings.summaryMaxChars)}\n[summary cut at ${settings.summaryMaxChars} characters]`
            : summary;
        return { text: capped, model: modelId, attempts: attempt };
      }
      lastProblem = summary.length === 0 ? 'returned nothing' : `summary too short (${summary.length} characters)`;
      this.deps.log(`[Context] attempt ${attempt}/${settings.maxSummaryAttempts} ${lastProblem}`);
    }
    throw new CompactionError(`The summary failed ${settings.maxSummaryAttempts} times (${lastProblem}).`);
  }
}
