import type { Clock } from '../ports';
import { systemClock } from '../ports';
import type { Message, ModelRequest, ModelUsage, RequestPurpose, TextBlock, ToolDefinition } from '../model/types';
import { resolveBudgets, type SourceBudgets } from './budget';
import { newestMessageBreakpoint, placeBreakpoints, type MessageBlockPosition } from './breakpoints';
import { CacheBreakDetector } from './cacheBreak';
import { canonicalJson, utf8Bytes } from './canonicalJson';
import { cloneDecision, DecisionQueue, type Decision } from './decisions';
import { ComposeError } from './errors';
import { costOf, resolvePrices, type PriceTable } from './prices';
import type { ProjectContextSource } from './projectContext';
import { EncodingMemo, type EncodedBlock, type EncodedMessage } from './encodingMemo';
import type { RequestEncoding } from './requestEncoding';
import { rulesDeltaBlocks, type RulesSource } from './rules';
import {
  cacheHitShare,
  cloneSnapshot,
  promptTokens,
  snapshotUsage,
  sourceWithTokens,
  type RequestSnapshot,
  type SourceSnapshot,
} from './snapshot';
import { buildStaticPart, restoreStaticPart, staticStateOf, type StaticPart, type StaticState } from './staticPart';
import { TokenEstimator, type TokenEstimate } from './tokenEstimator';
import { usagePartsOf, type UsageParts } from './usageParts';

export interface ComposerOptions {
  /** The tool definitions (`TOOL_DEFINITIONS`); the composer sorts them by name. */
  tools: readonly ToolDefinition[];
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
   * The session's one queue of decisions waiting for the next main request: the composer adds its own
   * (a budget cut in the static part, a rules delta) and the loop passes them all back in `compose()`.
   */
  decisions?: DecisionQueue;
}

export interface ComposeInput {
  model: string;
  maxTokens: number;
  generation: number;
  /** The current generation's messages, append-only; never mutated here. */
  conversation: readonly Message[];
  purpose: RequestPurpose;
  /** Decisions since the previous main request (stubs, caps, same results, compaction choices…), from the session's queue. */
  decisions: readonly Decision[];
  thinking?: ModelRequest['thinking'];
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
  /** Rules text by path as the model has it (system part plus deltas already reported). */
  private knownRules = new Map<string, string>();
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

  constructor(options: ComposerOptions) {
    this.options = options;
    // Validated here so a bad setting fails when the session starts, not at the first request.
    this.budgets = resolveBudgets(options.budgets);
    this.prices = resolvePrices(options.prices);
    this.clock = options.clock ?? systemClock;
    this.estimator = options.estimator ?? new TokenEstimator();
    this.decisions = options.decisions ?? new DecisionQueue();
    this.memo = new EncodingMemo(this.estimator);
    this.dateBlock = Object.freeze({ type: 'text', text: sessionDateText(options.sessionDate) });
    this.dateTextBytes = utf8Bytes(this.dateBlock.text);
    if (options.sessionDate.trim().length === 0) {
      throw new ComposeError('The session date is empty; the loop must fix one per session (e.g. 2026-11-30).');
    }
  }

  /** Loads the static part once (rules, project context); later calls reuse it until startGeneration(). */
  prepare(): Promise<void> {
    if (this.staticPart) return Promise.resolve();
    if (this.options.restoredStatic) {
      try {
        this.adopt(restoreStaticPart(this.options.restoredStatic, this.options.tools));
      } catch (error) {
        return Promise.reject(error);
      }
      return Promise.resolve();
    }
    this.building ??= this.rebuild().finally(() => {
      this.building = null;
    });
    return this.building;
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
      tools: this.options.tools,
      rules: this.options.rules,
      projectContext: this.options.projectContext,
      budgets: this.budgets,
    });
    this.adopt(built);
  }

  private adopt(part: StaticPart): void {
    this.staticPart = part;
    this.staticEncoding = null;
    this.knownRules = new Map(part.rules);
    this.decisions.add(...part.decisions);
  }

  /** The static part's file-derived content as JSON, for the journal (see `restoredStatic`). */
  staticState(): StaticState {
    return staticStateOf(this.requireStatic());
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

  /**
   * Blocks to put first in the next user message when a rules file changed since the model was
   * given it; [] otherwise. What it returns counts as known, so each change is reported once.
   */
  async rulesDelta(): Promise<TextBlock[]> {
    this.requireStatic();
    const current = await this.options.rules.load();
    const blocks = rulesDeltaBlocks(this.knownRules, current);
    if (blocks.length === 0) return [];
    const changed = describeRulesChanges(
      this.knownRules,
      current.map((file) => [file.path, file.text]),
    );
    this.knownRules = new Map(current.map((file) => [file.path, file.text]));
    this.decisions.add({ kind: 'rules_delta', detail: `rules sent as a delta: ${changed}`, resultIds: [] });
    return blocks;
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

    const sameGeneration = this.lastGeneration === input.generation;
    const breakpoints = placeBreakpoints(request, sameGeneration ? this.lastMainBreakpoint : null);
    const decisions = input.decisions.map(cloneDecision);
    // The same strings `encodeRequest(request)` gives, from the remembered encodings.
    const encoding: RequestEncoding = {
      model: request.model,
      thinking: canonicalJson(request.thinking ?? null),
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

    const snapshot = this.snapshotOf(request, fixed, encoded, input, part, decisions);
    // placeBreakpoints made these objects for this request alone: the snapshot can own them.
    snapshot.breakpoints = breakpoints;
    snapshot.cacheBreak = cacheBreak;
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

  /** Usage in three parts that always exist (system, history, summary) plus the window. */
  usageParts(conversation: readonly Message[], summaryText: string | null, windowTokens: number): UsageParts {
    const model = this.lastModel ?? '';
    let systemRaw = 0;
    if (this.staticPart) {
      for (const tool of this.staticPart.tools) systemRaw += this.estimator.rawTool(tool);
      for (const block of this.staticPart.system) systemRaw += this.estimator.rawSystemBlock(block);
      systemRaw += this.estimator.countText(sessionDateText(this.options.sessionDate));
    }
    let historyRaw = 0;
    let historyRuns = 0;
    for (const message of conversation) {
      const encoded = this.memo.message(message);
      historyRaw += encoded.rawTokens;
      historyRuns += encoded.runTokens;
    }
    // The summary opens the generation's first message, so it is counted there and taken out of history.
    const summary = summaryText ? this.estimator.countTextParts(summaryText) : { tokens: 0, runTokens: 0 };
    historyRaw = Math.max(0, historyRaw - summary.tokens);
    historyRuns = Math.min(historyRaw, Math.max(0, historyRuns - summary.runTokens));
    const scale = (raw: number, runs = 0): number => this.estimator.calibrate(model, raw, runs);
    return usagePartsOf(scale(systemRaw), scale(historyRaw, historyRuns), scale(summary.tokens, summary.runTokens), windowTokens);
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
    if (this.staticEncoding) return this.staticEncoding;
    // The part is the composer's own and never changed after adopt(), so this holds until the next adopt().
    const tools = deepFreeze(structuredClone(part.tools));
    const toolBlocks = tools.map((tool) => this.memo.tool(tool));
    const systemBlocks = part.system.map((block) => this.memo.systemBlock(block));
    this.staticEncoding = {
      tools,
      toolBlocks,
      systemBlocks,
      toolJsons: toolBlocks.map((block) => block.json),
      systemJsons: systemBlocks.map((block) => block.json),
      systemLabels: systemLabelsOf(part),
      toolBytes: sumOf(toolBlocks, 'bytes'),
      toolRaw: sumOf(toolBlocks, 'rawTokens'),
      systemBytes: sumOf(systemBlocks, 'bytes'),
      systemBlocksRaw: sumOf(systemBlocks, 'rawTokens'),
    };
    return this.staticEncoding;
  }

  private snapshotOf(
    request: ModelRequest,
    fixed: StaticEncoding,
    encoded: readonly EncodedMessage[],
    input: ComposeInput,
    part: StaticPart,
    decisions: Decision[],
  ): RequestSnapshot {
    const est = this.estimator;
    const model = request.model;
    const source = (fields: Omit<SourceSnapshot, 'tokens'>): SourceSnapshot =>
      sourceWithTokens(fields, est.calibrate(model, fields.rawTokens, fields.runTokens));

    const { toolBytes, toolRaw, systemBytes } = fixed;
    // Tool definitions count as ordinary text (see EncodingMemo): no runs.
    const systemSources: SourceSnapshot[] = part.sources.map((info) => {
      const block = info.blockIndex === null ? undefined : fixed.systemBlocks[info.blockIndex];
      return source({
        source: info.source,
        label: info.label,
        zone: 'system',
        bytes: block?.bytes ?? 0,
        rawTokens: block?.rawTokens ?? 0,
        runTokens: block?.runTokens ?? 0,
        budgetBytes: info.budgetBytes,
        fullBytes: info.fullBytes,
        truncated: info.truncated,
        variant: info.variant,
      });
    });
    const preamble = systemSources[0];
    const restOfSystem = systemSources.slice(1);

    let messageBytes = 0;
    let messageRaw = 0;
    let messageRuns = 0;
    for (const message of encoded) {
      messageBytes += message.bytes;
      messageRaw += message.rawTokens;
      messageRuns += message.runTokens;
    }
    // messagesFor always puts the date first in the first message.
    const dateBlock = encoded[0]?.blocks[0];
    const dateBytes = dateBlock?.bytes ?? 0;
    const dateRaw = dateBlock?.rawTokens ?? 0;
    const dateRuns = dateBlock?.runTokens ?? 0;
    let systemRaw = 0;
    let systemRuns = 0;
    for (const s of systemSources) {
      systemRaw += s.rawTokens;
      systemRuns += s.runTokens;
    }
    // What `est.rawRequest(request)` counts: every tool, every system block, every message with its framing.
    const totalRaw = toolRaw + fixed.systemBlocksRaw + messageRaw;

    const sources: SourceSnapshot[] = [
      ...(preamble ? [preamble] : []),
      source({
        source: 'tools',
        label: `${request.tools.length} tools`,
        zone: 'tools',
        bytes: toolBytes,
        rawTokens: toolRaw,
        runTokens: 0,
        budgetBytes: null,
        fullBytes: toolBytes,
        truncated: false,
        variant: 'full',
      }),
      ...restOfSystem,
      source({
        source: 'session_date',
        label: 'session date',
        zone: 'messages',
        bytes: dateBytes,
        rawTokens: dateRaw,
        runTokens: dateRuns,
        budgetBytes: null,
        fullBytes: this.dateTextBytes,
        truncated: false,
        variant: 'full',
      }),
      source({
        source: 'conversation',
        label: `${input.conversation.length} messages`,
        zone: 'messages',
        bytes: messageBytes - dateBytes,
        rawTokens: totalRaw - toolRaw - systemRaw - dateRaw,
        runTokens: messageRuns - dateRuns,
        budgetBytes: null,
        fullBytes: messageBytes - dateBytes,
        truncated: false,
        variant: 'full',
      }),
    ];
    return {
      version: 1,
      index: this.requestCount++,
      time: new Date(this.clock.now()).toISOString(),
      model,
      generation: input.generation,
      purpose: input.purpose,
      maxTokens: request.max_tokens,
      sources,
      bytes: { tools: toolBytes, system: systemBytes, messages: messageBytes, total: toolBytes + systemBytes + messageBytes },
      toolDefinitionBytes: toolBytes,
      messageCount: request.messages.length,
      messageHashes: encoded.map((message) => message.hash),
      breakpoints: [],
      estimate: est.fromRaw(model, totalRaw, systemRuns + messageRuns),
      decisions,
      cacheBreak: null,
      usage: null,
      cacheHitShare: null,
      cost: null,
    };
  }
}

interface StaticEncoding {
  /** A deep-frozen copy of the part's tools: requests take shallow copies (the marker goes on the top level). */
  tools: readonly ToolDefinition[];
  toolBlocks: readonly EncodedBlock[];
  systemBlocks: readonly EncodedBlock[];
  toolJsons: string[];
  systemJsons: string[];
  /** What each system block is, so a cache break can name the source that changed. */
  systemLabels: string[];
  /** Sums over the blocks above, made once with them (the snapshot of every request needs them). */
  toolBytes: number;
  toolRaw: number;
  systemBytes: number;
  systemBlocksRaw: number;
}

function systemLabelsOf(part: StaticPart): string[] {
  const labels: string[] = part.system.map(() => '');
  for (const info of part.sources) {
    if (info.blockIndex === null) continue;
    labels[info.blockIndex] = info.source === 'rules' ? `rules ${info.label}` : info.label;
  }
  return labels;
}

function sumOf(blocks: readonly EncodedBlock[], field: 'bytes' | 'rawTokens'): number {
  let total = 0;
  for (const block of blocks) total += block[field];
  return total;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value as Record<string, unknown>)) deepFreeze(inner);
  }
  return value;
}

function describeRulesChanges(known: ReadonlyMap<string, string>, current: ReadonlyArray<readonly [string, string]>): string {
  const now = new Map(current);
  const parts: string[] = [];
  for (const path of known.keys()) if (!now.has(path)) parts.push(`${path} removed`);
  for (const [path, text] of current) {
    const before = known.get(path);
    if (before === undefined) parts.push(`${path} added`);
    else if (before !== text) parts.push(`${path} changed`);
  }
  return parts.join(', ');
}
