/**
 * The one file that imports `@anthropic-ai/sdk`. Everything else in Cairn speaks `ModelClient`.
 *
 * What the loop should do with each stop reason (passed through unchanged in `stopReason`):
 * - `end_turn`: the model is done; wait for the user.
 * - `tool_use`: run the tool calls in `content` and send their results in the next request.
 * - `max_tokens`: the answer was cut at the output limit; keep it, tell the user, end the turn
 *   (a later "continue" from the user resumes). `model_context_window_exceeded` arrives as this too.
 * - `pause_turn`: the server paused a long turn; send the conversation back as is (the assistant
 *   message included) to let the model continue.
 * - `refusal`: the model declined for safety reasons; show that and end the turn.
 * - `stop_sequence`: a stop sequence was hit (Cairn sets none); treat as `end_turn`.
 * An `incomplete` response has `stopReason: null`: keep what arrived and end the turn with a notice;
 * the next request carries it with a short note that it was interrupted.
 */
import Anthropic from '@anthropic-ai/sdk';
import { createHash } from 'node:crypto';
import type { Logger } from '../ports';
import { silentLogger } from '../ports';
import {
  cancelledError,
  classifyHttpFailure,
  isModelError,
  missingKeyError,
  ModelError,
  redactSecret,
  SET_KEY_ADVICE,
  SET_TOKEN_ADVICE,
} from './errors';
import { ModelFactsCatalog, type ModelFactsOverrides, type ModelsApiFacts } from './modelFacts';
import { capabilitiesOf } from './modelCapabilities';
import { abortableWait, DEFAULT_RETRY, realSleep, retryDelayMs, type RetrySettings, type Sleep } from './retryPolicy';
import { StreamAccumulator, type WireStreamEvent } from './streamAccumulator';
import { CACHE_DIAGNOSIS_BETA, CacheDiagnosisOptIn, type DiagnosisAsk } from './cacheDiagnosisOptIn';
import type { ListedModel, ModelClient, ModelFacts, ModelRequest, ModelResponse, StreamOptions } from './types';

/** A key, or a function asked before every request (so a key set later is picked up). */
export type ApiKeySource = string | undefined | (() => Promise<string | undefined>);

export interface AnthropicClientSettings {
  readonly modelFacts?: ModelFactsOverrides;
  readonly retry?: Partial<RetrySettings>;
  /** Milliseconds the SDK waits for response headers of one attempt. */
  readonly timeoutMs?: number;
}

export interface AnthropicModelClientOptions {
  readonly apiKey: ApiKeySource;
  /**
   * A bearer token for a gateway (the SDK's `authToken`), asked before every request like the key. When it gives
   * one, the token is sent and the key is not (the SDK takes one credential); otherwise the key, as before.
   */
  readonly authToken?: ApiKeySource;
  /** Extra headers on every request (`cairn.headers`), read before each request so a changed setting applies at once. */
  readonly headers?: () => Readonly<Record<string, string>>;
  /** Any Anthropic-compatible server; default api.anthropic.com. */
  readonly baseUrl?: string;
  readonly settings?: AnthropicClientSettings;
  readonly logger?: Logger;
  readonly sleep?: Sleep;
  readonly random?: () => number;
}

/** The header a compatible server reads to tell compaction requests from the conversation's. */
export const REQUEST_KIND_HEADER = 'x-cairn-request-kind';
/** The header that names the sub-agent making a request (absent for the session's own agent). */
export const AGENT_HEADER = 'x-cairn-agent';

const MODELS_API_TIMEOUT_MS = 15_000;

/** What a request is authenticated with: the API key or a gateway's bearer token. */
interface Credential {
  readonly kind: 'api-key' | 'auth-token';
  readonly value: string;
}

/** Header names whose values are credentials (a gateway's key in a header of its own): redacted like the key. */
const SECRET_HEADER = /key|token|secret|auth|password|signature/i;

export class AnthropicModelClient implements ModelClient {
  private readonly retry: RetrySettings;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly logger: Logger;
  private readonly catalog: ModelFactsCatalog;
  private sdk: { identity: string; client: Anthropic } | undefined;
  /** Every key this client has used: a result must never show one, even after the key changed. */
  private readonly usedKeys = new Set<string>();
  /** Whether a request asks the server why it missed the cache (`cacheDiagnosisOptIn.ts`). */
  private readonly diagnosis: CacheDiagnosisOptIn;

  constructor(private readonly options: AnthropicModelClientOptions) {
    this.retry = { ...DEFAULT_RETRY, ...options.settings?.retry };
    this.sleep = options.sleep ?? realSleep;
    this.random = options.random ?? Math.random;
    this.logger = options.logger ?? silentLogger;
    this.diagnosis = new CacheDiagnosisOptIn(options.baseUrl);
    this.catalog = new ModelFactsCatalog((id) => this.retrieveModel(id), options.settings?.modelFacts ?? {}, this.logger);
  }

  async stream(request: ModelRequest, options: StreamOptions): Promise<ModelResponse> {
    const { signal } = options;
    if (signal?.aborted) throw cancelledError();
    const key = await this.credential();
    if (signal?.aborted) throw cancelledError();
    const client = this.client(key);
    const guarded = { ...options, onEvent: this.guardListener(options.onEvent) };
    for (let attempt = 1; ; attempt++) {
      try {
        const ask = this.diagnosis.ask(options);
        return this.diagnosis.answered(options, ask, await this.attempt(client, key, request, guarded, ask));
      } catch (error) {
        const modelError = this.toModelError(error, key, signal);
        const delayMs = retryDelayMs(modelError, attempt, this.retry, this.random);
        if (delayMs === null) throw this.givenUp(modelError, attempt);
        const reason = modelError.message;
        this.logger.warn(
          `Model request failed (${modelError.kind}); retrying in ${delayMs} ms (attempt ${attempt + 1} of ${this.retry.maxAttempts}).`,
        );
        guarded.onEvent?.({ type: 'retrying', attempt: attempt + 1, delayMs, reason });
        await abortableWait(this.sleep, delayMs, signal);
      }
    }
  }

  /** The error to show once no retry is left, saying why the client stopped trying. */
  private givenUp(error: ModelError, attempts: number): ModelError {
    if (!error.retryable) return error;
    const notes: string[] = [];
    if (attempts > 1) notes.push(`gave up after ${attempts} attempts`);
    if (error.retryAfterMs !== undefined && error.retryAfterMs > this.retry.maxRetryAfterMs) {
      notes.push(`the server asked to wait ${Math.ceil(error.retryAfterMs / 1000)} s`);
    }
    if (notes.length === 0) return error;
    return new ModelError(error.kind, `${error.message.replace(/\.$/, '')} (${notes.join('; ')}).`, { ...detailsOf(error), cause: error });
  }

  /** A listener that throws (a UI bug) is logged, and must not cut the stream it listens to. */
  private guardListener(listener: StreamOptions['onEvent']): StreamOptions['onEvent'] {
    if (!listener) return undefined;
    return (event) => {
      try {
        listener(event);
      } catch (error) {
        this.logger.error(`A stream listener failed on "${event.type}": ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  }

  /** The model's facts, looked up again when the key changed since a failed lookup (`ModelFactsCatalog.facts`). */
  async modelFacts(modelId: string): Promise<ModelFacts> {
    const key = await this.credential().catch(() => undefined);
    return this.catalog.facts(modelId, key === undefined ? undefined : sha256Hex(key.value).slice(0, 16));
  }

  /**
   * One HTTP exchange. Throws for anything that happened before content streamed (so it can be
   * retried); once a content block has started, a failure resolves with `incomplete: true`.
   */
  private async attempt(
    client: Anthropic,
    key: Credential,
    request: ModelRequest,
    options: StreamOptions,
    diagnosis: DiagnosisAsk | undefined,
  ): Promise<ModelResponse> {
    const { signal, purpose } = options;
    const accumulator = new StreamAccumulator(options.onEvent, (type) =>
      this.logger.warn(`The model sent a "${type}" block, which Cairn does not use; it was left out.`),
    );
    const headers = {
      ...(purpose === 'compaction' || purpose === 'keep_warm' ? { [REQUEST_KIND_HEADER]: purpose } : {}),
      ...(options.agent !== undefined ? { [AGENT_HEADER]: options.agent } : {}),
      ...(diagnosis ? { 'anthropic-beta': CACHE_DIAGNOSIS_BETA } : {}),
    };
    const params = toSdkParams(request);
    CacheDiagnosisOptIn.applyTo(params, diagnosis);
    const stream = client.messages.stream(params, {
      ...(signal ? { signal } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    });
    let broken: ModelError | undefined;
    stream.on('streamEvent', (event) => {
      if (broken) return;
      try {
        accumulator.add(event as WireStreamEvent);
      } catch (error) {
        broken = isModelError(error) ? error : new ModelError('server', `The model's stream could not be read: ${String(error)}`);
        stream.abort();
      }
    });
    try {
      await stream.done();
    } catch (error) {
      if (broken) return this.cutShort(accumulator, broken.message);
      if (signal?.aborted) throw cancelledError(accumulator.contentStarted ? accumulator.finish(true) : undefined);
      if (!accumulator.contentStarted) throw error;
      return this.cutShort(accumulator, this.toModelError(error, key, signal).message);
    }
    if (broken) return this.cutShort(accumulator, broken.message);
    if (!accumulator.complete) {
      if (!accumulator.contentStarted) {
        throw new ModelError('network', 'The connection to the model closed before the response began.', {
          advice: 'Check your network connection and try again.',
        });
      }
      return this.cutShort(accumulator, 'the stream ended without message_stop');
    }
    return accumulator.finish(false);
  }

  /**
   * Content has streamed, so the failure is not retried (the user has seen it, and the model would
   * not say the same again): what arrived becomes an incomplete response. A block that broke the
   * stream (tool input that is not JSON) never stopped, so it is left out like any partial tool call.
   */
  private cutShort(accumulator: StreamAccumulator, reason: string): ModelResponse {
    this.logger.warn(`The model's response was cut part-way (${reason.replace(/\.$/, '')}); keeping what arrived.`);
    return accumulator.finish(true);
  }

  knownSecrets(): readonly string[] {
    return [...this.usedKeys];
  }

  async learnSecrets(): Promise<void> {
    // A missing key or a failing secret store is reported by the first request, with its advice.
    await this.credential().catch(() => undefined);
  }

  /** The gateway's token when one is set, else the API key; a missing key is an error that says how to set one. */
  private async credential(): Promise<Credential> {
    const token =
      this.options.authToken === undefined ? undefined : await readSecret(this.options.authToken, 'the auth token', SET_TOKEN_ADVICE);
    if (token) {
      this.usedKeys.add(token);
      return { kind: 'auth-token', value: token };
    }
    const key = await readSecret(this.options.apiKey, 'the API key', SET_KEY_ADVICE);
    if (!key) throw missingKeyError();
    this.usedKeys.add(key);
    return { kind: 'api-key', value: key };
  }

  private client(key: Credential): Anthropic {
    const headers = this.options.headers?.() ?? {};
    for (const [name, value] of Object.entries(headers)) if (SECRET_HEADER.test(name) && value.length >= 4) this.usedKeys.add(value);
    const identity = JSON.stringify([key.kind, key.value, headers]);
    if (this.sdk?.identity !== identity) {
      this.sdk = {
        identity,
        client: new Anthropic({
          // One credential: the SDK sends the one given (a null keeps it from reading the environment for the other).
          apiKey: key.kind === 'api-key' ? key.value : null,
          authToken: key.kind === 'auth-token' ? key.value : null,
          // Always explicit: `undefined` would let the SDK read ANTHROPIC_BASE_URL behind our back.
          baseURL: this.options.baseUrl ?? 'https://api.anthropic.com',
          ...(Object.keys(headers).length > 0 ? { defaultHeaders: { ...headers } } : {}),
          // Cairn retries itself: it must know whether anything streamed, and show each wait.
          maxRetries: 0,
          ...(this.options.settings?.timeoutMs !== undefined ? { timeout: this.options.settings.timeoutMs } : {}),
          logger: sdkLogger(this.logger, [...this.usedKeys]),
          logLevel: 'warn',
        }),
      };
    }
    return this.sdk.client;
  }

  /** The server's model list (at most 100); a wrong key or server fails here like a request would. */
  async listModels(): Promise<ListedModel[]> {
    const key = await this.credential();
    try {
      const page = await this.client(key).models.list({ limit: 100 }, { timeout: MODELS_API_TIMEOUT_MS });
      return page.data.map((info) => ({
        id: info.id,
        displayName: info.display_name || info.id,
        ...(typeof info.max_input_tokens === 'number' ? { maxInputTokens: info.max_input_tokens } : {}),
      }));
    } catch (error) {
      throw this.toModelError(error, key, undefined);
    }
  }

  private async retrieveModel(modelId: string): Promise<ModelsApiFacts> {
    const key = await this.credential();
    try {
      const info = await this.client(key).models.retrieve(modelId, null, { timeout: MODELS_API_TIMEOUT_MS });
      return {
        max_input_tokens: info.max_input_tokens ?? null,
        max_tokens: info.max_tokens ?? null,
        capabilities: capabilitiesOf(info.capabilities),
      };
    } catch (error) {
      throw this.toModelError(error, key, undefined);
    }
  }

  private toModelError(error: unknown, credential: Credential, signal: AbortSignal | undefined): ModelError {
    if (isModelError(error)) return error;
    const key = [...this.usedKeys, credential.value];
    if (signal?.aborted || error instanceof Anthropic.APIUserAbortError) return cancelledError();
    if (error instanceof Anthropic.APIConnectionTimeoutError) {
      return new ModelError('network', `The model server at ${this.serverName()} did not answer in time.`, {
        advice: 'Check your network connection, or “cairn.baseUrl” if you use another server, and try again.',
        cause: error,
      });
    }
    if (error instanceof Anthropic.APIConnectionError) {
      const cause = error.cause instanceof Error ? `: ${redactSecret(error.cause.message, key)}` : '';
      return new ModelError('network', `Could not reach the model server at ${this.serverName()}${cause}.`, {
        advice: 'Check your network connection, or “cairn.baseUrl” if you use another server, and try again.',
        cause: error,
      });
    }
    if (error instanceof Anthropic.APIError) {
      const classified = classifyHttpFailure({
        ...(typeof error.status === 'number' ? { status: error.status } : {}),
        type: error.type,
        apiMessage: error.apiMessage === null ? null : redactSecret(error.apiMessage, key),
        headers: error.headers ?? null,
        requestId: error.requestID ?? null,
        ...(this.options.baseUrl ? { server: this.options.baseUrl } : {}),
        credential: credential.kind,
      });
      return classified;
    }
    // Anything else is the body failing mid-read (socket closed, proxy reset): a network failure.
    const message = error instanceof Error ? error.message : String(error);
    return new ModelError('network', `The connection to the model server at ${this.serverName()} failed: ${redactSecret(message, key)}.`, {
      advice: 'Check your network connection and try again.',
      cause: error,
    });
  }

  private serverName(): string {
    return this.options.baseUrl ?? 'api.anthropic.com';
  }
}

function detailsOf(error: ModelError): ConstructorParameters<typeof ModelError>[2] {
  return {
    ...(error.status !== undefined ? { status: error.status } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
    ...(error.advice !== undefined ? { advice: error.advice } : {}),
    ...(error.requestId !== undefined ? { requestId: error.requestId } : {}),
  };
}

/**
 * Cairn's request as the SDK types it. The shapes are the wire format already; the copy only
 * drops `readonly` from the schema arrays and leaves out fields Cairn does not set.
 */
function toSdkParams(request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  return {
    model: request.model,
    max_tokens: request.max_tokens,
    system: request.system,
    tools: request.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: {
        type: tool.input_schema.type,
        properties: tool.input_schema.properties,
        ...(tool.input_schema.required ? { required: [...tool.input_schema.required] } : {}),
        ...(tool.input_schema.additionalProperties !== undefined ? { additionalProperties: tool.input_schema.additionalProperties } : {}),
      },
      ...(tool.cache_control ? { cache_control: tool.cache_control } : {}),
    })),
    messages: request.messages as Anthropic.MessageParam[],
    ...(request.thinking ? { thinking: request.thinking } : {}),
    ...(request.output_config ? { output_config: request.output_config } : {}),
    stream: true,
  };
}

/** A secret from its source, trimmed (undefined when none); a failing secret store is an auth error that says what to do. */
async function readSecret(source: ApiKeySource, what: string, advice: string): Promise<string | undefined> {
  try {
    const value = typeof source === 'function' ? await source() : source;
    return value?.trim() || undefined;
  } catch (error) {
    // The secret store failed (a locked keyring, say): the user must be told, not shown a crash.
    throw new ModelError('auth', `Cairn could not read ${what}: ${error instanceof Error ? error.message : String(error)}.`, {
      advice,
      cause: error,
    });
  }
}

/** The SDK's log lines go to Cairn's logger, with the key scrubbed in case a header is ever logged. */
function sdkLogger(logger: Logger, key: readonly string[]): NonNullable<ConstructorParameters<typeof Anthropic>[0]>['logger'] {
  const line = (message: string, rest: unknown[]): string =>
    redactSecret([message, ...rest.map((part) => (typeof part === 'string' ? part : safeJson(part)))].join(' '), key);
  return {
    error: (message, ...rest) => logger.error(line(message, rest)),
    warn: (message, ...rest) => logger.warn(line(message, rest)),
    info: (message, ...rest) => logger.info(line(message, rest)),
    debug: () => {},
  };
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A key's digest: the facts' cache tells keys apart without holding one more copy of a key. */
function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
