/**
 * The spending caps' check before each request (`RunBounds.beforeSend`): what the next request will be, worked
 * out without composing it (its prompt as compaction counts it, what the cache may hold of it from this agent's
 * last answered request, the time since that answer, its max_tokens). The loop tells it of each answer.
 */
import type { ActiveGeneration } from '../conversation/activeGeneration';
import { projectForProvider, type Projection } from '../conversation/projection';
import type { ModelClient, ModelUsage } from '../model/types';
import { effectiveMaxTokens } from './maxTokens';
import type { NextRequest, RequestComposer, RunBounds } from './ports';
import type { RequestCounter } from './requestCounter';

export interface SpendingCheckDeps {
  readonly model: ModelClient;
  readonly composer: Pick<RequestComposer, 'estimatePrompt'>;
  readonly generations: ActiveGeneration;
  readonly requests: Pick<RequestCounter, 'sinceMainAnswerMs'>;
  readonly project?: Projection;
  readonly bounds?: RunBounds;
}

export class SpendingCheck {
  /** The provider-counted prompt of this agent's last answered request: what the cache may hold for the next. */
  private lastPrompt: { generation: number; tokens: number } | undefined;

  constructor(
    private readonly deps: SpendingCheckDeps,
    private readonly settings: () => { readonly model: string; readonly maxTokens: number },
  ) {}

  /** A request of `generation` was answered with this usage. */
  answered(generation: number, usage: ModelUsage): void {
    this.lastPrompt = { generation, tokens: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens };
  }

  /** Asks the caps about the next request: why to stop (the user chose "stop" past one), or undefined to send it. */
  async beforeSend(signal: AbortSignal): Promise<string | undefined> {
    if (!this.deps.bounds?.beforeSend) return undefined;
    return this.deps.bounds.beforeSend(() => this.nextRequest(), signal);
  }

  /** What the next request will be, for the spending caps (`RunBounds.beforeSend`), without composing it. */
  private async nextRequest(): Promise<NextRequest> {
    const { deps } = this;
    const settings = this.settings();
    const { number: generation, conversation } = deps.generations.current;
    const messages = (deps.project ?? projectForProvider)(conversation.all());
    const promptTokens = deps.composer.estimatePrompt?.(settings.model, messages) ?? 0;
    return {
      model: settings.model,
      promptTokens,
      previousPromptTokens: this.lastPrompt?.generation === generation ? this.lastPrompt.tokens : 0,
      sinceAnswerMs: deps.requests.sinceMainAnswerMs(),
      maxTokens: await effectiveMaxTokens(deps.model, settings.model, settings.maxTokens),
    };
  }
}
