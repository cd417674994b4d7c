import type { Clock } from '../ports';
import { systemClock } from '../ports';
import type { Message, ModelRequest, ModelUsage, RequestPurpose, TextBlock, ToolDefinition } from '../model/types';
import { utf8Bytes } from '../text/utf8Bytes';
import { TokenEstimator, type TokenEstimate } from '../tokens/tokenEstimator';
import { resolveBudgets, type SourceBudgets } from './budget';
import { newestMessageBreakpoint, placeBreakpoints, type MessageBlockPosition } from './breakpoints';
import type { CacheTtlSetting } from './cacheTtlChoice';
import { LifetimePlanner } from './lifetimePlanner';
import { CacheBreakDetector, type RememberedRequest } from './cacheBreak';
import { cloneDecision, type Decision, type DecisionQueue } from './decisions';
import { ComposeError } from './errors';
import { costOf, resolvePrices, type PriceTable } from '../pricing/prices';
import type { ProjectContextSource } from './projectContextSource';
import { EncodingMemo, type EncodedMessage } from './encodingMemo';
import { requestSettingsJson, type RequestEncoding } from './requestEncoding';
import type { RulesSource } from './rules';
import { StaticDeltas } from './staticDeltas';
import type { ConversationEntry } from '../conversation/conversation';
import { cacheHitShare, cloneSnapshot, promptTokens, snapshotUsage, type RequestSnapshot } from './snapshot';
import { buildSnapshot } from './snapshotBuilder';
import { encodeStaticPart, type StaticEncoding } from './staticEncoding';
import { buildStaticPart, restoreStaticPart, staticStateOf, type CatalogInput, type StaticPart, type StaticState } from './staticPart';
import { usagePartsFor, type UsageParts } from './usageParts';
import { keepWarmOf } from './keepWarmRequest';

export interface ComposerOptions {
  /** The tool definitions (`TOOL_DEFINITIONS`); the composer sorts them by name. */
  tools: readonly ToolDefinition[];
  /**
   * Tools beyond the built-in ones (MCP servers' tools), asked for again whenever a generation starts (and
   * at a resume): fixed within a generation, so the cached prefix never changes mid-generation.
   */
  extraTools?: () => Promise<readonly ToolDefinition[]>;
  /** Built once per session by `buildPreamble()`. */
  preamble: string;
  rules: RulesSource;
  projectContext: ProjectContextSource;
  /** Fixed per session (the loop keeps it in the journal so a resumed session sends the same). */
  sessionDate: string;
  estimator?: TokenEstimator;
  budgets?: Partial<SourceBudgets>;
  /** Overrides over `DEFAULT_PRICES`. */
  prices?: PriceTable;
  clock?: Clock;
  /**
   * The static part a resumed session was using (`staticState()` journalled at prepare/startGeneration):
   * `prepare()` takes it instead of reading the files, so the prefix and the rules baseline carry on.
   */
  restoredStatic?: StaticState;
  /**
   * The skills catalog (a pack, and its token budget) asked for whenever the static part is built: it
   * enters the system part once per generation; a change mid-generation goes out as `catalogDelta()`.
   */
  skillsCatalog?: () => Promise<CatalogInput>;
  /**
   * The session's one queue of decisions waiting for the next main request: the composer adds its own
   * (a budget cut in the static part, a rules delta) and the loop passes them all back in `compose()`.
   */
  decisions: DecisionQueue;
  /**
   * The current generation's entries. What the model has of the rules and the catalog is folded from the
   * static part and the deltas in these (`deltaBaseline.ts`), so a rewind that drops a delta's message sends
   * it again. Without it (a composer of one-off requests) what a delta returns counts as known.
   */
  conversation?: () => readonly ConversationEntry[];
  /** Which prompt-cache lifetime main requests buy (`cairn.cache.ttl`, `cacheLifetime.ts`); five minutes without it. */
  cacheTtl?: () => CacheTtlSetting;
  /** A reopened session's pauses so far and its last main request's time, from its journal: the cache-time models go on from them. */
  restoredPauses?: { readonly pausesMs: readonly number[]; readonly lastMainAt?: number };
}

/** A composer's place in a generation (`generationMark`), opaque to its holder. */
export interface ComposerGenerationMark {
  readonly staticPart: StaticPart;
  readonly staticEncoding: StaticEncoding | null;
  readonly remembered: RememberedRequest;
  readonly lastMainBreakpoint: MessageBlockPosition | null;
  readonly lastGeneration: number | null;
}

export interface ComposeInput {
  model: string;
  maxTokens: number;
  /** The model's input window as known when composing (its facts): the snapshot keeps it (see `RequestSnapshot`). */
  windowTokens?: number;
  generation: number;
  /** The current generation's messages, append-only; never mutated here. */
  conversation: readonly Message[];
  purpose: RequestPurpose;
  /** Decisions since the previous main request (stubs, caps, same results, compaction choices…), from the session's queue. */
  decisions: readonly Decision[];
  thinking?: ModelRequest['thinking'];
  /** `output_config` (the effort), for a model that takes it. */
  outputConfig?: ModelRequest['output_config'];
}

export interface Composition {
  /** Send exactly this object. */
  request: ModelRequest;
  snapshot: RequestSnapshot;
}

/** The user-role text that opens the first user message of every generation. */
export function sessionDateText(sessionDate: string): string {
  return `The session began on ${sessionDate}.`;
}

/**
 * Turns the session's facts into each request, and the same composition into its snapshot.
 * Order: preamble, rules files and project context (system), tools sorted by name, then the session
 * date at the start of the first user message, then the conversation. The static part (tools and
 * system) is built once per generation and is byte-identical in every request of it.
 */
export class Composer {
  private readonly options: ComposerOptions;
  private readonly budgets: SourceBudgets;
  private readonly prices: PriceTable;
  private readonly clock: Clock;
  private readonly detector = new CacheBreakDetector();
  readonly estimator: TokenEstimator;

  private staticPart: StaticPart | null = null;
  private building: Promise<void> | null = null;
  /** What the model has of the rules and the catalog, and the deltas that update it. */
  private readonly deltas: StaticDeltas;
  private readonly decisions: DecisionQueue;
  private requestCount = 0;
  private lastGeneration: number | null = null;
  private lastMainBreakpoint: MessageBlockPosition | null = null;
  private lastModel: string | null = null;
  /** Encodings by object identity, so each request re-encodes only what it has not seen. */
  private readonly memo: EncodingMemo;
  /** The static part's encodings and a frozen copy of its tools, made at the first request after adopt(). */
  private staticEncoding: StaticEncoding | null = null;
  /** The session date block; one object, so its encoding is remembered. */
  private readonly dateBlock: TextBlock;
  private readonly dateTextBytes: number;
  private readonly lifetimes: LifetimePlanner;
  /** The last main request as sent and its snapshot, which a keep-warm request repeats. */
  private lastMain: Composition | null = null;

  constructor(options: ComposerOptions) {
    this.options = options;
    // Validated here so a bad setting fails when the session starts, not at the first request.
    this.budgets = resolveBudgets(options.budgets);
    this.prices = resolvePrices(options.prices);
    this.clock = options.clock ?? systemClock;
    this.estimator = options.estimator ?? new TokenEstimator();
    this.decisions = options.decisions;
    this.memo = new EncodingMemo(this.estimator);
    this.deltas = new StaticDeltas({
      rules: options.rules,
      decisions: options.decisions,
      ...(options.skillsCatalog ? { skillsCatalog: options.skillsCatalog } : {}),
      ...(options.conversation ? { conversation: options.conversation } : {}),
    });
    this.dateBlock = Object.freeze({ type: 'text', text: sessionDateText(options.sessionDate) });
    this.dateTextBytes = utf8Bytes(this.dateBlock.text);
    this.lifetimes = new LifetimePlanner(options.cacheTtl ?? (() => '5m'), options.restoredPauses);
    if (options.sessionDate.trim().length === 0) {
      throw new ComposeError('The session date is empty; the loop must fix one per session (e.g. 2026-11-30).');
    }
  }

  /** Loads the static part once (rules, project context); later calls reuse it until startGeneration(). */
  prepare(): Promise<void> {
    if (this.staticPart) return Promise.resolve();
    const restored = this.options.restoredStatic;
    if (restored) {
      this.building ??= this.toolList()
        .then((tools) => this.adopt(restoreStaticPart(restored, tools)))
        .finally(() => {
          this.building = null;
        });
      return this.building;
    }
    this.building ??= this.rebuild().finally(() => {
      this.building = null;
    });
    return this.building;
  }

  /**
   * Where the composer is in the current generation (its static part, the last request's prefix and
   * breakpoint), taken before a compaction starts a new one, so an undo returns to exactly that prefix.
   */
  generationMark(): ComposerGenerationMark {
    return {
      staticPart: this.requireStatic(),
      staticEncoding: this.staticEncoding,
      remembered: this.detector.remembered(),
      lastMainBreakpoint: this.lastMainBreakpoint,
      lastGeneration: this.lastGeneration,
    };
  }

  /**
   * Back to a mark (an undone compaction): the very static part the generation had, never rebuilt from the
   * files, so its prefix (and the provider's cache) carries on; a rules file changed meanwhile goes out as a
   * delta, once.
   */
  returnTo(mark: ComposerGenerationMark): void {
    this.staticPart = mark.staticPart;
    this.staticEncoding = mark.staticEncoding;
    this.detector.rememberAgain(mark.remembered);
    this.lastMainBreakpoint = mark.lastMainBreakpoint;
    this.lastGeneration = mark.lastGeneration;
    this.deltas.know(mark.staticPart);
  }

  /** Compaction starts a new generation: the static part is rebuilt (new rules text enters it here). */
  async startGeneration(): Promise<void> {
    await this.building;
    await this.rebuild();
    this.detector.reset();
    this.lastMainBreakpoint = null;
    this.lastGeneration = null;
  }

  private async rebuild(): Promise<void> {
    const built = await buildStaticPart({
      preamble: this.options.preamble,
      tools: await this.toolList(),
      rules: this.options.rules,
      projectContext: this.options.projectContext,
      budgets: this.budgets,
      ...(this.options.skillsCatalog ? { catalog: this.options.skillsCatalog } : {}),
    });
    this.adopt(built);
  }

  /** The built-in tools and the extra ones as they are now. */
  private async toolList(): Promise<ToolDefinition[]> {
    return [...this.options.tools, ...((await this.options.extraTools?.()) ?? [])];
  }

  private adopt(part: StaticPart): void {
    this.staticPart = part;
    this.staticEncoding = null;
    this.deltas.know(part);
    this.decisions.add(...part.decisions);
  }

  /** The static part's file-derived content as JSON, for the journal (see `restoredStatic`). */
  staticState(): StaticState {
    return staticStateOf(this.requireStatic());
  }

  /** The prices the snapshots' costs use (the defaults with `cairn.prices` on top): the cold-send notice prices its estimate with them. */
  get priceTable(): PriceTable {
    return this.prices;
  }

  /**
   * Leading entries of the conversation that a cache entry bought for an hour still holds at `now` (beyond
   * what five minutes keep): Infinity when every breakpoint was an hour's, 0 when none is alive.
   */
  hourPrefixEntries(now: number): number {
    return this.lifetimes.hourPrefixEntries(now);
  }

  /** The session's pauses so far (ms from its last main request to a user turn's first): what the cache-time models learn from. */
  pauses(): readonly number[] {
    return this.lifetimes.pauses();
  }

  /** Raw tokens of the last main request, and of its prefix an hour's entry still holds at `now` (Infinity: all). */
  lastMainTokens(now: number): { prompt: number; hourHeld: number } | undefined {
    if (!this.lastMain) return undefined;
    return { prompt: this.lastMain.snapshot.estimate.rawTokens, hourHeld: this.lifetimes.hourHeldTokens(now) };
  }

  /** A keep-warm request (`keepWarmRequest.ts`): undefined before any main request and when the last one thinks. */
  keepWarmComposition(decisions: readonly Decision[]): Composition | undefined {
    const now = this.clock.now();
    const composition = this.lastMain && keepWarmOf(this.lastMain, { index: this.requestCount, now, decisions });
    if (!composition) return undefined;
    this.requestCount++;
    this.lifetimes.touched(now);
    return composition;
  }

  /** Breaks found by the detector this session (compaction requests are not compared). */
  get cacheBreaks(): number {
    return this.detector.count;
  }

  /** The static part as the next request will carry it (copies, without markers). */
  staticPrefix(): { system: TextBlock[]; tools: ToolDefinition[] } {
    const part = this.requireStatic();
    return { system: structuredClone(part.system), tools: structuredClone(part.tools) };
  }

  /** A rules file changed since the model was given it: the blocks that open the next user message (`StaticDeltas.rules`). */
  rulesDelta(): Promise<TextBlock[]> {
    return this.deltas.rules(this.requireStatic());
  }

  /** The skills catalog changed on disk: its envelope for the next user message (`StaticDeltas.catalog`). */
  catalogDelta(): Promise<TextBlock[]> {
    return this.deltas.catalog(this.requireStatic());
  }

  /** The next request and its snapshot, from the conversation of the current generation. */
  compose(input: ComposeInput): Composition {
    const part = this.requireStatic();
    if (!input.model.trim()) throw new ComposeError('No model is set; choose one in the cairn.model setting.');
    if (!Number.isInteger(input.maxTokens) || input.maxTokens < 1) {
      throw new ComposeError(`max_tokens must be a whole number of at least 1, got ${input.maxTokens}.`);
    }
    const fixed = this.staticEncodingOf(part);
    const { messages, encoded } = this.messagesFor(input.conversation);
    const request: ModelRequest = {
      model: input.model,
      max_tokens: input.maxTokens,
      system: part.system.map((block) => ({ ...block })),
      // Shallow copies: the definitions inside are a frozen copy, only the top level takes a marker.
      tools: fixed.tools.map((tool) => ({ ...tool })),
      messages,
    };
    if (input.thinking) request.thinking = structuredClone(input.thinking);
    if (input.outputConfig) request.output_config = { ...input.outputConfig };

    const sameGeneration = this.lastGeneration === input.generation;
    const previous = sameGeneration ? this.lastMainBreakpoint : null;
    const decisions = input.decisions.map(cloneDecision);
    const timed =
      input.purpose === 'main'
        ? this.lifetimes.forMain({
            now: this.clock.now(),
            messages: request.messages,
            messageTokens: encoded.map((message) => message.rawTokens),
            staticTokens: fixed.toolRaw + fixed.systemBlocksRaw,
            previousBreakpoint: previous,
            openingOffset: input.conversation[0]?.role === 'user' ? 0 : 1,
          })
        : undefined;
    if (timed?.decision) decisions.push(timed.decision);
    const breakpoints = placeBreakpoints(request, previous, timed?.lifetimes);
    // The same strings `encodeRequest(request)` gives, from the remembered encodings.
    const encoding: RequestEncoding = {
      model: request.model,
      thinking: requestSettingsJson(request),
      tools: fixed.toolJsons,
      system: fixed.systemJsons,
      messages: encoded.map((message) => ({ role: message.role, blocks: message.jsons as string[] })),
    };
    let cacheBreak = null;
    if (input.purpose === 'main') {
      cacheBreak = this.detector.observe(encoding, input.generation, fixed.systemLabels);
      this.lastMainBreakpoint = newestMessageBreakpoint(breakpoints);
      this.lastGeneration = input.generation;
      if (cacheBreak) decisions.push({ kind: 'cache_break', detail: cacheBreak.reason, resultIds: [] });
    }
    this.lastModel = input.model;

    const snapshot = buildSnapshot(
      {
        request,
        fixed,
        encoded,
        part,
        generation: input.generation,
        purpose: input.purpose,
        conversationLength: input.conversation.length,
        decisions,
        dateTextBytes: this.dateTextBytes,
        index: this.requestCount++,
        time: new Date(this.clock.now()).toISOString(),
      },
      this.estimator,
    );
    // placeBreakpoints made these objects for this request alone: the snapshot can own them.
    snapshot.breakpoints = breakpoints;
    snapshot.cacheBreak = cacheBreak;
    if (input.windowTokens !== undefined) snapshot.windowTokens = input.windowTokens;
    if (input.purpose === 'main') this.lastMain = { request, snapshot };
    return { request, snapshot };
  }

  /** After the response: calibrates the estimator for the model and returns a copy of the snapshot with usage, cache-hit share and cost. */
  observeUsage(snapshot: RequestSnapshot, usage: ModelUsage): RequestSnapshot {
    const observed = snapshotUsage(usage);
    // `runTokens` is absent from snapshots journalled before it existed.
    this.estimator.observe(snapshot.model, snapshot.estimate.rawTokens, promptTokens(observed), snapshot.estimate.runTokens ?? 0);
    const copy = cloneSnapshot(snapshot);
    copy.usage = observed;
    copy.cacheHitShare = cacheHitShare(observed);
    copy.cost = costOf(usage, snapshot.model, this.prices);
    return copy;
  }

  estimate(request: ModelRequest): TokenEstimate {
    return this.estimator.estimateRequest(request);
  }

  /** The prompt of a request of `messages` on the current static part, in calibrated tokens (output not counted). */
  estimatePrompt(model: string, messages: readonly Message[]): number {
    const prefix = this.staticPrefix();
    return this.estimate({ model, max_tokens: 1, system: prefix.system, tools: prefix.tools, messages: [...messages] }).tokens;
  }

  /** Usage in three parts that always exist (system, history, summary) plus the window. */
  usageParts(conversation: readonly Message[], summaryText: string | null, windowTokens: number): UsageParts {
    const sources = {
      estimator: this.estimator,
      memo: this.memo,
      staticPart: this.staticPart,
      dateText: this.dateBlock.text,
      model: this.lastModel ?? '',
    };
    return usagePartsFor(sources, conversation, summaryText, windowTokens);
  }

  private requireStatic(): StaticPart {
    if (!this.staticPart) throw new ComposeError('The composer is not prepared: await composer.prepare() before composing a request.');
    return this.staticPart;
  }

  /**
   * A copy of the conversation (markers removed) with the session date first in the first user
   * message, and each request message's encoding.
   */
  private messagesFor(conversation: readonly Message[]): { messages: Message[]; encoded: EncodedMessage[] } {
    const messages: Message[] = [];
    const encoded: EncodedMessage[] = [];
    const date = this.dateBlock;
    const opensWithUser = conversation[0]?.role === 'user';
    if (!opensWithUser) {
      const opening = this.memo.withLead(date, { role: 'user', content: [] });
      messages.push({ role: 'user', content: opening.blocks.map((block) => ({ ...block.sendable })) } as Message);
      encoded.push(opening);
    }
    conversation.forEach((message, index) => {
      const encodedMessage = index === 0 && opensWithUser ? this.memo.withLead(date, message) : this.memo.message(message);
      encoded.push(encodedMessage);
      // Shallow copies of the remembered frozen blocks: the request may take markers on top, nothing deeper can change.
      messages.push({ role: message.role, content: encodedMessage.blocks.map((block) => ({ ...block.sendable })) } as Message);
    });
    return { messages, encoded };
  }

  private staticEncodingOf(part: StaticPart): StaticEncoding {
    // The part is the composer's own and never changed after adopt(), so this holds until the next adopt().
    this.staticEncoding ??= encodeStaticPart(part, this.memo);
    return this.staticEncoding;
  }
}
