/**
 * One request of the main model in a run: composed from the current generation (with the decisions waiting for
 * its snapshot and the run's thinking fields), streamed to the views, and its snapshot journalled and shown
 * whether it was answered or failed. A failed request leaves the messages it carried unsent, so the next text
 * joins them. The loop decides what the outcome means for the run.
 */
import type { DecisionQueue } from '../compose/decisions';
import type { RequestSnapshot } from '../compose/snapshot';
import type { ActiveGeneration } from '../conversation/activeGeneration';
import { projectForProvider, type Projection } from '../conversation/projection';
import { ModelError } from '../model/errors';
import type { EffortSetting, ThinkingFields, ThinkingSetting } from '../model/thinking';
import type { ModelClient, ModelResponse, ModelStreamEvent } from '../model/types';
import type { AgentEvent } from './events';
import { effectiveMaxTokens, knownWindowTokens } from './maxTokens';
import type { RequestComposer, SessionRecorder } from './ports';
import type { RequestCounter } from './requestCounter';
import { runThinkingFields } from './runThinking';
import type { SpendingCheck } from './spendingCheck';

export interface MainRequestDeps {
  readonly model: ModelClient;
  readonly composer: Pick<RequestComposer, 'compose' | 'observeUsage'>;
  readonly recorder: Pick<SessionRecorder, 'snapshot'>;
  readonly generations: ActiveGeneration;
  /** The decisions waiting for the next main request's snapshot: each request takes them. */
  readonly decisions: Pick<DecisionQueue, 'take'>;
  readonly requests: Pick<RequestCounter, 'take' | 'mainAnswered'>;
  readonly project?: Projection;
  readonly emit: (event: AgentEvent) => void;
}

/** What a request is sent with, read at each request (`AgentLoopSettings`). */
export interface MainRequestSettings {
  readonly model: string;
  readonly maxTokens: number;
  readonly thinking?: ThinkingSetting;
  readonly effort?: EffortSetting;
}

/**
 * A request's outcome: the answer, or the error it failed on. A cancel after text had streamed gives that text
 * (`cutText`): the user saw it, so the loop keeps it in the conversation, marked as cut.
 */
export type MainRequestOutcome = { kind: 'ok'; response: ModelResponse } | { kind: 'error'; error: ModelError; cutText?: string };

export class MainRequest {
  /** The thinking fields of the run going on (set at its first request). */
  private runThinking: ThinkingFields | undefined;
  /** The last thinking notice shown, so a run does not repeat the one before. */
  private thinkingNote = '';

  constructor(
    private readonly deps: MainRequestDeps,
    private readonly settings: () => MainRequestSettings,
    /** Told of each answer's usage: what the cache may hold for the next request's spending check. */
    private readonly spending: Pick<SpendingCheck, 'answered'>,
  ) {}

  /** A run starts: one thinking configuration per run (a tool-use loop is one assistant turn for the API). */
  startRun(): void {
    this.runThinking = undefined;
  }

  async send(signal: AbortSignal): Promise<MainRequestOutcome> {
    const { deps } = this;
    const settings = this.settings();
    const { number: generation, conversation } = deps.generations.current;
    const decisions = deps.decisions.take();
    // The setting, lowered to what the model can produce (`effectiveMaxTokens`, which compaction's reserve also uses).
    const maxTokens = await effectiveMaxTokens(deps.model, settings.model, settings.maxTokens);
    const windowTokens = await knownWindowTokens(deps.model, settings.model);
    if (!this.runThinking) {
      this.runThinking = await runThinkingFields(deps.model, settings, maxTokens);
      this.noteThinking(this.runThinking);
    }
    const { thinking, output_config } = this.runThinking;
    const composition = deps.composer.compose({
      model: settings.model,
      maxTokens,
      ...(thinking ? { thinking } : {}),
      ...(output_config ? { outputConfig: output_config } : {}),
      ...(windowTokens !== undefined ? { windowTokens } : {}),
      generation,
      conversation: (deps.project ?? projectForProvider)(conversation.all()),
      purpose: 'main',
      decisions,
    });
    const index = deps.requests.take();
    const sentBefore = conversation.sentCount;
    conversation.markSent();
    deps.emit({ type: 'request_started', requestIndex: index, generation });
    const streamedText: string[] = [];
    const onEvent = (event: ModelStreamEvent) => {
      if (event.type === 'text_delta') {
        streamedText.push(event.text);
        deps.emit({ type: 'text_delta', text: event.text });
      } else if (event.type === 'thinking_delta') {
        deps.emit({ type: 'thinking_delta', text: event.text });
      } else if (event.type === 'retrying') {
        deps.emit({
          type: 'notice',
          level: 'info',
          kind: 'retrying',
          message: `${event.reason}; retrying in ${Math.round(event.delayMs / 100) / 10} s (attempt ${event.attempt}).`,
        });
      }
    };
    try {
      const response = await deps.model.stream(composition.request, { signal, purpose: 'main', onEvent });
      deps.requests.mainAnswered();
      // An answer with nothing in it leaves the messages it carried unanswered: whatever comes next (the same
      // request again, or the user's next text) must join them, or two user messages would follow each other.
      if (response.content.length === 0) conversation.unmarkSent(sentBefore);
      const snapshot = deps.composer.observeUsage(composition.snapshot, response.usage);
      if (response.cacheDiagnosis !== undefined) snapshot.cacheDiagnosis = response.cacheDiagnosis;
      this.spending.answered(generation, response.usage);
      await deps.recorder.snapshot(snapshot);
      deps.emit({ type: 'usage', requestIndex: index, usage: response.usage });
      this.emitSnapshot(index, snapshot);
      return { kind: 'ok', response };
    } catch (error) {
      await deps.recorder.snapshot(composition.snapshot);
      this.emitSnapshot(index, composition.snapshot);
      const modelError = error instanceof ModelError ? error : ModelError.fromUnknown(error);
      // What the user already saw stays in the conversation, marked as cut (the loop appends it).
      if (modelError.kind === 'cancelled' && streamedText.length > 0)
        return { kind: 'error', error: modelError, cutText: streamedText.join('') };
      // No answer to follow the messages this request carried: the next user text must join them.
      conversation.unmarkSent(sentBefore);
      return { kind: 'error', error: modelError };
    }
  }

  /** Says once (until it changes) what of the thinking settings could not be sent as set, and why. */
  private noteThinking(fields: ThinkingFields): void {
    const message = fields.notes.join(' ');
    if (message === this.thinkingNote) return;
    this.thinkingNote = message;
    if (message) this.deps.emit({ type: 'notice', level: 'info', kind: 'thinking', message });
  }

  private emitSnapshot(requestIndex: number, snapshot: RequestSnapshot): void {
    this.deps.emit({ type: 'request_finished', requestIndex, snapshot });
  }
}
