/**
 * A local Anthropic-compatible server for tests, demos and benchmarks: the Messages API (streaming
 * and not), count_tokens and the Models API on 127.0.0.1, answering from a scenario's scripted turns,
 * with a faithful prompt-cache simulation in the usage it reports and the scenario's faults.
 */
import { documentedImageInput } from '../../core/images/vision';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AGENT_HEADER } from '../../core/model/anthropicClient';
import { documentedCapabilities } from '../../core/model/modelCapabilities';
import { EFFORTS } from '../../core/model/types';
import { ScenarioPlayer } from '../scenario/player';
import type { RequestPlan } from '../scenario/requestPlan';
import type { FsTurn, Scenario } from '../scenario/types';
import type { AgentHooks } from './agentHooks';
import { ApiError, invalidRequest, promptTooLong } from './apiError';
import { buildReply, type AssistantReply } from './assistantReply';
import { CacheDiagnosis, diagnosisRequestOf, type CacheDiagnostics } from './cacheDiagnosis';
import { pause, readBody, sendError, sendJson } from './httpExchange';
import { PromptCache, type CacheAccount } from './promptCache';
import { promptBlocks, totalTokens } from './promptBlocks';
import { RequestLog, type LoggedRequest, type LoggedRequestKind } from './requestLog';
import { formatEvent, messageEvents, type ReportedUsage } from './sseEvents';
import { TokenCounter } from './tokenCounter';
import { validateRequest } from './validateRequest';
import type { WireRequest } from './wire';

export type { LoggedRequest } from './requestLog';

/** Model id the Models API lists when the scenario names none. */
export const DEFAULT_SERVED_MODEL_ID = 'claude-sonnet-4-5';

const CUT_GRACE_MS = 50;
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** The header that marks a compaction request. */
export const REQUEST_KIND_HEADER = 'x-cairn-request-kind';

export interface LocalServerOptions {
  readonly scenario: Scenario;
  /** The cursor to answer from; shared with an in-process runner. Default: a new `server`-driven player. */
  readonly player?: ScenarioPlayer;
  /** Default 0: a free port. */
  readonly port?: number;
  readonly host?: '127.0.0.1';
  /** One JSON line per request. */
  readonly logFile?: string;
  /**
   * The real clock in milliseconds, under the script's idles, for the player the server makes itself (tests
   * inject a fixed one). Cache expiry follows the player's clock (`ScenarioPlayer.clock`: real time plus the
   * idles so far); a given `player` brings its own, so giving both is refused.
   */
  readonly clock?: () => number;
  readonly minCacheableTokens?: number;
  /** Applies `fs` turns met while answering; without it they are logged and skipped. */
  readonly onFs?: (turn: FsTurn) => Promise<void>;
  /** Another agent's side requests, retrievals and tool vocabulary (the peers benchmark). */
  readonly agent?: AgentHooks;
  /**
   * A gateway's bearer auth: every request must carry `Authorization: Bearer <this>`, else 401 (an API key alone
   * or another token is refused). Without it, any key or token is accepted.
   */
  readonly bearerToken?: string;
}

export interface LocalServer {
  readonly url: string;
  readonly port: number;
  readonly requests: readonly LoggedRequest[];
  /** Script mismatches and skipped turns, in order. */
  readonly notices: readonly string[];
  readonly player: ScenarioPlayer;
  readonly cache: PromptCache;
  close(): Promise<void>;
}

export async function startLocalServer(options: LocalServerOptions): Promise<LocalServer> {
  if (options.player && options.clock) {
    throw new Error('startLocalServer: give the real clock to the ScenarioPlayer (its realNow option), not beside it.');
  }
  const player =
    options.player ?? new ScenarioPlayer(options.scenario, { driver: 'server', ...(options.clock ? { realNow: options.clock } : {}) });
  const cache = new PromptCache(() => player.clock.now(), options.minCacheableTokens);
  const exchange = new MessagesExchange(options, player, cache, new RequestLog(options.logFile));
  const server = createServer((request, response) => {
    exchange.handle(request, response).catch((error: unknown) => {
      player.notice(`internal error: ${(error as Error).stack ?? String(error)}`);
      if (!response.headersSent)
        sendError(response, new ApiError(500, `local server error: ${(error as Error).message}`), 'req_local_error');
      else response.destroy();
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host}:${port}`,
    port,
    requests: exchange.log.requests,
    get notices() {
      return player.notices;
    },
    player,
    cache,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

class MessagesExchange {
  private readonly counter = new TokenCounter();
  private readonly diagnosis = new CacheDiagnosis();
  private requestCount = 0;
  private messageCount = 0;
  private toolUseCount = 0;

  constructor(
    private readonly options: LocalServerOptions,
    private readonly player: ScenarioPlayer,
    private readonly cache: PromptCache,
    readonly log: RequestLog,
  ) {}

  private get model(): Scenario['model'] {
    return this.options.scenario.model;
  }

  async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const requestId = `req_local_${String(++this.requestCount).padStart(6, '0')}`;
    const url = new URL(request.url ?? '/', 'http://localhost');
    const path = url.pathname.replace(/\/+$/, '');
    const method = request.method ?? 'GET';
    const rawBody = method === 'GET' ? '' : await readBody(request);
    const kind = routeKind(method, path, request);
    const text = rawBody === 'too_large' ? '' : rawBody;
    const parsed = parseJson(text);
    let agent = agentOf(request);
    const entry = this.log.start({
      kind: kind ?? 'main',
      method,
      path,
      body: parsed ?? null,
      rawBody: text,
      headers: loggedHeaders(request),
      ...(agent !== undefined ? { agent } : {}),
    });
    const fail = (error: ApiError): void => {
      entry.status = error.status;
      entry.error = error.message;
      this.log.finish(entry);
      sendError(response, error, requestId);
    };
    if (!kind) return fail(new ApiError(404, `Not found: ${method} ${path}`));
    if (rawBody === 'too_large') return fail(new ApiError(413));
    const bearer = this.options.bearerToken;
    if (bearer !== undefined && request.headers.authorization !== `Bearer ${bearer}`) {
      return fail(new ApiError(401, request.headers.authorization ? 'invalid bearer token' : 'Authorization: Bearer header is required'));
    }
    if (!request.headers['x-api-key'] && !request.headers.authorization) return fail(new ApiError(401, 'x-api-key header is required'));
    if (kind === 'models') return this.answerModels(path, entry, response, requestId, fail);
    if (parsed === undefined) return fail(invalidRequest('The request body is not valid JSON.'));

    const wire = validateRequest(entry.body, { countTokens: kind === 'count_tokens' });
    if (wire instanceof ApiError) return fail(wire);
    if (agent === undefined && kind !== 'count_tokens') {
      agent = this.options.agent?.agentOf?.(wire);
      if (agent !== undefined) entry.agent = agent;
    }
    const blocks = promptBlocks(wire, this.counter);
    const inputTokens = totalTokens(blocks);
    if (kind === 'count_tokens') {
      entry.status = 200;
      this.log.finish(entry);
      return sendJson(response, 200, { input_tokens: inputTokens }, requestId);
    }
    // Checked before the script is consumed: the real service refuses these without answering.
    const diagnosisAsked = diagnosisRequestOf(entry.body, request.headers['anthropic-beta']);
    if (diagnosisAsked instanceof ApiError) return fail(diagnosisAsked);
    if (inputTokens > this.model.contextWindow) return fail(promptTooLong(inputTokens, this.model.contextWindow));
    if ((wire.maxTokens ?? 0) > this.model.maxOutput) {
      return fail(
        invalidRequest(
          `max_tokens: ${wire.maxTokens} > ${this.model.maxOutput}, which is the maximum allowed number of output tokens for ${wire.model}`,
        ),
      );
    }

    this.player.resultIdsFor(agent).observe(wire.messages);
    const plan = await this.planFor(kind, wire, entry, agent);
    if (plan.fault) entry.fault = plan.fault;
    if (plan.fault?.type === 'status') {
      // The real service always says when to retry a rate-limited request.
      const retryAfter = plan.fault.retryAfterSeconds ?? (plan.fault.status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
      return fail(new ApiError(plan.fault.status, plan.fault.message, retryAfter));
    }
    if (plan.fault?.type === 'prompt_too_long') {
      return fail(promptTooLong(Math.max(inputTokens, this.model.contextWindow + 1), this.model.contextWindow));
    }
    if (plan.answer?.type === 'assistant' || plan.answer?.type === 'summary') {
      entry.turnIndex = plan.answer.type === 'assistant' ? plan.answer.turn.index : plan.answer.turnIndex;
    }

    const account = this.cache.account(blocks);
    const reply = this.reply(plan, wire, agent);
    const usage = reportedUsage(account, reply.outputTokens);
    const messageId = `msg_local_${String(++this.messageCount).padStart(6, '0')}`;
    const diagnostics = this.diagnosis.diagnose(diagnosisAsked, wire, blocks, messageId);
    if (diagnosisAsked.fingerprint) entry.diagnostics = diagnostics;
    entry.status = 200;
    entry.cache = {
      blocks: account.blocks,
      breakpoints: account.breakpoints,
      hitBlock: account.hitBlock,
      totalTokens: account.total,
      rewrittenAfterExpiry5m: account.rewrittenAfterExpiry5m,
      rewrittenAfterExpiry1h: account.rewrittenAfterExpiry1h,
    };
    entry.usage = {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens,
      cache_read_input_tokens: usage.cache_read_input_tokens,
      cache_creation: { ...usage.cache_creation },
    };
    this.log.finish(entry);
    const answer: Answer = { requestId, messageId, model: wire.model, reply, usage, diagnostics };
    if (wire.stream) return this.stream(response, answer, plan);
    return this.respondWhole(response, answer, plan);
  }

  /** The script's plan, unless the agent hooks answer this request apart or serve a retrieval first. */
  private async planFor(kind: LoggedRequestKind, wire: WireRequest, entry: LoggedRequest, agent: string | undefined): Promise<RequestPlan> {
    const hooks = this.options.agent;
    // A keep-warm request only refreshes the cache: its answer is no turn of the script.
    if (kind === 'keep_warm') return { answer: { type: 'no_turn', text: 'OK' } };
    if (kind === 'main' && hooks?.isCompaction?.(wire)) {
      entry.role = 'compaction';
      return { answer: { type: 'generated_summary' } };
    }
    if (kind === 'main' && agent === undefined && hooks?.isSide?.(wire)) {
      entry.role = 'side';
      return { answer: { type: 'no_turn', text: hooks.sideAnswer?.(wire) ?? 'OK' } };
    }
    const upcoming = kind === 'main' ? this.player.upcomingAssistant(agent) : undefined;
    const first = upcoming && hooks?.before ? await hooks.before(wire, upcoming) : undefined;
    if (first) {
      entry.role = 'retrieval';
      return { answer: { type: 'assistant', turn: first } };
    }
    const plan = await this.player.planRequest(kind === 'compaction' ? 'compaction' : 'main', (turn) => this.applyFs(turn), agent);
    if (plan.answer?.type !== 'assistant' || !hooks?.translate) return plan;
    return { ...plan, answer: { type: 'assistant', turn: hooks.translate(plan.answer.turn, wire) } };
  }

  private reply(plan: RequestPlan, wire: WireRequest, agent: string | undefined): AssistantReply {
    return buildReply(plan.answer ?? { type: 'no_turn', text: 'The script has no answer here.' }, {
      request: wire,
      counter: this.counter,
      resultIds: this.player.resultIdsFor(agent),
      nextToolUseId: () => `toolu_${String(++this.toolUseCount).padStart(4, '0')}`,
      notice: (message) => this.player.notice(message),
    });
  }

  private async applyFs(turn: FsTurn): Promise<void> {
    if (this.options.onFs) return this.options.onFs(turn);
    this.player.notice(`turn ${turn.index} (fs ${turn.operation.type} ${turn.operation.path}) skipped: no workspace to apply it to`);
  }

  private async stream(response: ServerResponse, answer: Answer, plan: RequestPlan): Promise<void> {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'request-id': answer.requestId,
    });
    response.flushHeaders();
    const events = messageEvents(answer.messageId, answer.model, answer.reply, answer.usage, answer.diagnostics);
    const delay = plan.fault?.type === 'delay' ? plan.fault.ms : 0;
    const cutAfter = plan.fault?.type === 'cut' ? plan.fault.afterEvents : Infinity;
    for (const [sent, event] of events.entries()) {
      if (sent >= cutAfter) {
        // A cut is a broken connection, not a clean end: what was sent arrives (flushed first,
        // then a moment for the client to read it), then the body fails part-way.
        await new Promise<void>((resolve) => response.write('', () => resolve()));
        await pause(CUT_GRACE_MS, response);
        response.destroy();
        return;
      }
      await pause(delay, response);
      if (response.destroyed) return;
      response.write(formatEvent(event));
    }
    response.end();
  }

  private async respondWhole(response: ServerResponse, answer: Answer, plan: RequestPlan): Promise<void> {
    const { requestId, reply } = answer;
    const message = {
      id: answer.messageId,
      type: 'message',
      role: 'assistant',
      model: answer.model,
      content: reply.content,
      stop_reason: reply.stopReason,
      stop_sequence: null,
      stop_details: null,
      container: null,
      diagnostics: answer.diagnostics,
      usage: answer.usage,
    };
    if (plan.fault?.type === 'delay') await pause(plan.fault.ms, response);
    if (plan.fault?.type === 'cut') {
      const text = JSON.stringify(message);
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': requestId });
      response.write(text.slice(0, Math.floor(text.length / 2)));
      response.destroy();
      return;
    }
    sendJson(response, 200, message, requestId);
  }

  private answerModels(path: string, entry: LoggedRequest, response: ServerResponse, requestId: string, fail: (e: ApiError) => void): void {
    const info = (id: string): Record<string, unknown> => ({
      type: 'model',
      id,
      display_name: `${id} (local server)`,
      created_at: '2025-01-01T00:00:00Z',
      max_input_tokens: this.model.contextWindow,
      max_tokens: this.model.maxOutput,
      // What the model takes for thinking and effort, in the API's shape: as documented for its family.
      capabilities: capabilitiesAnswer(id),
      deprecated_at: null,
      lifecycle: 'active',
      line: null,
      retires_at: null,
    });
    const named = this.model.id;
    let body: unknown;
    if (path === '/v1/models') {
      const id = named ?? DEFAULT_SERVED_MODEL_ID;
      body = { data: [info(id)], first_id: id, last_id: id, has_more: false };
    } else {
      const id = decodeURIComponent(path.slice('/v1/models/'.length));
      // A scenario that names its model knows only that one, as the real service knows only real ids.
      if (named !== undefined && id !== named) return fail(new ApiError(404, `model: ${id}`));
      body = info(id);
    }
    entry.status = 200;
    this.log.finish(entry);
    sendJson(response, 200, body, requestId);
  }
}

/** One answered request, as sent: streamed or whole. */
interface Answer {
  readonly requestId: string;
  readonly messageId: string;
  readonly model: string;
  readonly reply: AssistantReply;
  readonly usage: ReportedUsage;
  /** The cache diagnosis (null when the request asked none, or only appended to the one it named). */
  readonly diagnostics: CacheDiagnostics | null;
}

function routeKind(method: string, path: string, request: IncomingMessage): LoggedRequestKind | undefined {
  if (method === 'POST' && path === '/v1/messages') {
    const kind = request.headers[REQUEST_KIND_HEADER];
    return kind === 'compaction' || kind === 'keep_warm' ? kind : 'main';
  }
  if (method === 'POST' && path === '/v1/messages/count_tokens') return 'count_tokens';
  if (method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) return 'models';
  return undefined;
}

/** The child agent a request is for (`x-cairn-agent: explore-1`); undefined for the parent's. */
function agentOf(request: IncomingMessage): string | undefined {
  const value = request.headers[AGENT_HEADER];
  const agent = Array.isArray(value) ? value[0] : value;
  return agent === undefined || agent === '' ? undefined : agent;
}

/** The headers as received, one value each, with the credentials' values hidden (the log may be written to a file). */
function loggedHeaders(request: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = name === 'authorization' || name === 'x-api-key' ? '[set]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The Models API's `capabilities` for thinking, effort and images (the rest left unsaid), from the documented family. */
function capabilitiesAnswer(modelId: string): Record<string, unknown> {
  const known = documentedCapabilities(modelId);
  const support = (supported: boolean) => ({ supported });
  return {
    thinking: {
      supported: known.thinking.enabled || known.thinking.adaptive,
      types: { enabled: support(known.thinking.enabled), adaptive: support(known.thinking.adaptive), disabled: support(true) },
    },
    effort: {
      supported: known.effort.length > 0,
      ...Object.fromEntries(EFFORTS.map((level) => [level, support(known.effort.includes(level))])),
    },
    // Claude 2 and Instant take no images; any other id here is served as taking them (the local server reads image blocks).
    image_input: support(documentedImageInput(modelId) ?? true),
  };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function reportedUsage(account: CacheAccount, outputTokens: number): ReportedUsage {
  return {
    input_tokens: account.uncached,
    cache_creation_input_tokens: account.cacheCreation,
    cache_read_input_tokens: account.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: account.cacheCreation5m, ephemeral_1h_input_tokens: account.cacheCreation1h },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}
