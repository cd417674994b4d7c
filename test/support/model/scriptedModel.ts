/**
 * A `ModelClient` that plays a script in memory, for unit tests of what sits above the model client (the
 * agent loop, the summarizer): no server, no SDK, no network. Each request takes the next step of the
 * script; the model records every request it was sent, deep-copied, with its purpose.
 */
import { cancelledError, ModelError } from '../../../src/core/model/errors';
import type {
  AssistantBlock,
  ModelClient,
  ModelFacts,
  ModelRequest,
  ModelResponse,
  ModelStreamEvent,
  ModelUsage,
  RequestPurpose,
  StopReason,
  StreamOptions,
} from '../../../src/core/model/types';

/** How the scripted model answers one request. */
export type ScriptedStep = (request: ModelRequest, options: StreamOptions) => Promise<ModelResponse>;

export interface SentRequest {
  readonly request: ModelRequest;
  readonly purpose: RequestPurpose;
}

export const SCRIPTED_USAGE: ModelUsage = {
  input_tokens: 100,
  output_tokens: 20,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

export class ScriptedModel implements ModelClient {
  readonly sent: SentRequest[] = [];
  private readonly steps: ScriptedStep[];

  constructor(
    steps: readonly ScriptedStep[],
    private readonly facts: (modelId: string) => ModelFacts = (id) => ({
      id,
      maxInputTokens: 200_000,
      maxOutputTokens: 64_000,
      source: 'fallback-table',
    }),
  ) {
    this.steps = [...steps];
  }

  /** Steps not played yet. */
  get remaining(): number {
    return this.steps.length;
  }

  async stream(request: ModelRequest, options: StreamOptions): Promise<ModelResponse> {
    // As the real client: a request whose signal has already fired is not sent (and takes no step).
    if (options.signal?.aborted) throw cancelledError();
    this.sent.push({ request: structuredClone(request), purpose: options.purpose });
    const step = this.steps.shift();
    if (!step) throw new Error(`the script has no step for request ${this.sent.length}`);
    return step(request, options);
  }

  async modelFacts(modelId: string): Promise<ModelFacts> {
    return this.facts(modelId);
  }
}

function response(content: AssistantBlock[], stopReason: StopReason | null, incomplete: boolean): ModelResponse {
  return { id: 'msg_scripted', model: 'scripted', content, stopReason, usage: { ...SCRIPTED_USAGE }, incomplete };
}

/** A complete response; `events` are streamed to `onEvent` first. */
export function reply(content: AssistantBlock[], stopReason: StopReason = 'end_turn', events: ModelStreamEvent[] = []): ScriptedStep {
  return async (_request, options) => {
    for (const event of events) options.onEvent?.(event);
    return response(content, stopReason, false);
  };
}

/** A plain text answer that ends the turn. */
export function replyText(text: string, stopReason: StopReason = 'end_turn'): ScriptedStep {
  return reply([{ type: 'text', text }], stopReason, [{ type: 'text_delta', index: 0, text }]);
}

/** A response asking for tool calls (`[id, name, input]` each). */
export function replyTools(...calls: Array<[id: string, name: string, input?: unknown]>): ScriptedStep {
  return reply(
    calls.map(([id, name, input]) => ({ type: 'tool_use', id, name, input: input ?? {} })),
    'tool_use',
  );
}

/** A stream cut part-way: resolves with what arrived, marked incomplete (as the real client does). */
export function cut(content: AssistantBlock[]): ScriptedStep {
  return async () => response(content, null, true);
}

/** The request fails with this error (a `ModelError`, or anything a buggy client might throw). */
export function fail(error: unknown): ScriptedStep {
  return async () => {
    throw error;
  };
}

/**
 * Streams `texts` as text deltas, then waits for the caller's signal and fails with `cancelled`, as the
 * real client does when the user cancels mid-stream. `onStreaming` runs after the deltas (to cancel from).
 */
export function streamUntilCancelled(texts: readonly string[], onStreaming?: () => void): ScriptedStep {
  return (_request, options) =>
    new Promise<ModelResponse>((_resolve, reject) => {
      const signal = options.signal;
      if (!signal) {
        reject(new Error('streamUntilCancelled needs a signal'));
        return;
      }
      for (const text of texts) options.onEvent?.({ type: 'text_delta', index: 0, text });
      const cancel = () => reject(cancelledError());
      if (signal.aborted) cancel();
      else signal.addEventListener('abort', cancel, { once: true });
      onStreaming?.();
    });
}

/** The provider's "prompt is too long" answer. */
export function promptTooLong(): ModelError {
  return new ModelError(
    'prompt_too_long',
    'The request is too long for the model (400): prompt is too long: 210000 tokens > 200000 maximum',
    {
      status: 400,
      advice: 'Compact the conversation (“Cairn: Compact”) or start a new session.',
    },
  );
}
