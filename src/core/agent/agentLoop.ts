import type { LedgerResult } from '../ledger/types';
import type { AssistantBlock, AssistantMessage, ModelClient, ImageBlock, ToolUseBlock, UserBlock } from '../model/types';
import type { EffortSetting, ThinkingSetting } from '../model/thinking';
import type { ActiveGeneration } from '../conversation/activeGeneration';
import type { Conversation } from '../conversation/conversation';
import type { Projection } from '../conversation/projection';
import type { DoneReason } from './events';
import type { ContextChange, ContextPolicy, MessageAttachment, RequestComposer, RunBounds, SessionRecorder } from './ports';
import type { RequestCounter } from './requestCounter';
import { toolUseIdsIn, uniqueToolUseIds } from './toolUseIds';
import { ToolUseAnswerer, type AnswerMode, type ToolUseAnswerDeps } from './toolUseAnswers';
import { mentionSendsImage, type Mention } from './mentions';
import { announceAttachments, blocksOfAttachments, readMentions } from './userAttachments';
import { imageIfTaken, modelTakesImages, noVisionMessage } from '../images/vision';
import { SteerInbox, type Steer, type SteerHandle } from './steering';
import { SpendingCheck } from './spendingCheck';
import { MainRequest } from './mainRequest';

export interface AgentLoopSettings {
  readonly model: string;
  readonly maxTokens: number;
  /** Most model requests in one run before the loop stops and asks the user to continue. */
  readonly maxTurns: number;
  /** Consecutive cut streams answered by continuing automatically before the loop gives up. */
  readonly maxInterruptedContinues: number;
  /** `cairn.thinking`; absent: "off". Read once per run (`core/model/thinking.ts`). */
  readonly thinking?: ThinkingSetting;
  /** `cairn.effort`; absent: "auto" (none sent). */
  readonly effort?: EffortSetting;
}

export const DEFAULT_LOOP_SETTINGS: Omit<AgentLoopSettings, 'model'> = {
  maxTokens: 16_000,
  maxTurns: 50,
  maxInterruptedContinues: 2,
};

/**
 * The loop's parts, which it passes on to the parts it composes: `MainRequest` (model, composer, decisions…) and
 * `ToolUseAnswerer`, whose own (`ToolUseAnswerDeps`: the ledger, `toolRun`, `runsConcurrently`…) extend the
 * approval gate's (tools, approver, approval settings, `emit`, `agent`…).
 */
export interface AgentLoopDeps extends ToolUseAnswerDeps {
  readonly model: ModelClient;
  readonly composer: RequestComposer;
  readonly recorder: SessionRecorder;
  /** The session's current generation: the loop appends to it; compaction may replace it between requests. */
  readonly generations: ActiveGeneration;
  /** Numbers every request of the session; the loop notes when the main model answered. */
  readonly requests: RequestCounter;
  /** Asked before each request and on a "prompt too long" (compaction); none: the context is never changed. */
  readonly contextPolicy?: ContextPolicy;
  /** How stored entries become the provider's messages (`projectForProvider` unless a benchmark swaps it). */
  readonly project?: Projection;
  /** Cairn's blocks for the start of each user message, in order, after the rules delta (see `MessageAttachment`). */
  readonly attachments?: readonly MessageAttachment[];
  /** What the run may do beyond `maxTurns` before the user is asked (the sub-agents' bounds); none: no more. */
  readonly bounds?: RunBounds;
}

export const INTERRUPTED_CONTINUE_PROMPT =
  'Your previous response was cut off before it finished (the connection dropped). Continue from where it stopped.';

/**
 * One run of the agent: request → stream → tool calls (approval → ledger) → tool results → next request,
 * until the model ends its turn, the user cancels, an error stops it, or the turn limit is reached.
 */
export class AgentLoop {
  /** Tool-use ids seen in this run, across compactions (a new generation no longer holds the older ones). */
  private readonly usedToolUseIds = new Set<string>();
  /** Messages the user gave while the run goes on, taken at the next request boundary (`steer`). */
  private readonly steers = new SteerInbox();
  /** The spending caps' check before each request, told of each answer (`spendingCheck.ts`). */
  private readonly spending: SpendingCheck;
  /** Answers each response's tool calls (`toolUseAnswers.ts`). */
  private readonly toolUseAnswerer: ToolUseAnswerer;
  /** Composes, sends and snapshots each main request (`mainRequest.ts`); keeps the run's thinking fields. */
  private readonly mainRequest: MainRequest;

  constructor(
    private readonly deps: AgentLoopDeps,
    private readonly settings: () => AgentLoopSettings,
  ) {
    this.spending = new SpendingCheck(deps, settings);
    this.toolUseAnswerer = new ToolUseAnswerer(deps, () => settings().model);
    this.mainRequest = new MainRequest(deps, settings, this.spending);
  }

  /**
   * A message the user gives while the run goes on ("send now"): appended as the user's words at the next
   * request boundary, and the run goes on with it. Its handle says whether it got in (false when the run ended
   * before a boundary came, or none was running: then nothing of it was added) and can take it back until then.
   */
  steer(steer: Steer): SteerHandle {
    return this.steers.add(steer);
  }

  async run(userText: string, signal: AbortSignal, mentions: readonly Mention[] = []): Promise<DoneReason> {
    // Images for a model that takes none: a clear refusal before anything is added or sent (never the server's 400).
    const refusal = await this.visionRefusal(mentions);
    if (refusal !== undefined) {
      this.deps.emit({ type: 'error', kind: 'no_vision', message: refusal });
      this.deps.emit({ type: 'done', reason: 'error' });
      return 'error';
    }
    this.steers.open();
    try {
      return await this.start(userText, signal, mentions);
    } finally {
      this.steers.close();
    }
  }

  private async start(userText: string, signal: AbortSignal, mentions: readonly Mention[]): Promise<DoneReason> {
    const { deps } = this;
    deps.contextPolicy?.startRun();
    deps.bounds?.startRun?.();
    // The composer queues the rules_delta decision (naming the files) as it hands out the delta.
    const delta = [...(await deps.composer.rulesDelta())];
    for (const attachment of deps.attachments ?? []) {
      const attached = await attachment.blocksFor(userText, deps.generations.current.conversation.all());
      if ('blocks' in attached) deps.decisions.add(...attached.decisions);
      delta.push(...('blocks' in attached ? attached.blocks : attached));
    }
    // Files the user attached: read through the ledger (ids, stubs, recall), their text after the user's.
    const attached = await readMentions(this.deps, mentions, signal);
    const attachedBlocks = await blocksOfAttachments(attached, (result) => this.imageFor(result), this.settings().model);
    const blocks: UserBlock[] = [...delta, { type: 'text' as const, text: userText }, ...attachedBlocks];
    // The rules delta and the attachments are Cairn's text in the user's message: marked, never attributed to the user.
    const syntheticBlocks = [...delta.map((_, i) => i), ...attachedBlocks.map((_, i) => delta.length + 1 + i)];
    if (attached.length > 0) await deps.recorder.checkpointLedgerState?.();
    await this.appendUser(blocks, { syntheticBlocks });
    deps.emit({ type: 'user_message', text: userText });
    announceAttachments(attached, (event) => deps.emit(event));
    return this.answer(signal);
  }

  /**
   * Runs again on the conversation as it is, adding no message: for a request that failed before any answer
   * (a 401, giving up after retries), whose messages `unmarkSent` left waiting. Sending the user's text again
   * instead would join it to the waiting message, so the model would read it twice.
   */
  async retry(signal: AbortSignal): Promise<DoneReason> {
    this.steers.open();
    try {
      this.deps.contextPolicy?.startRun();
      this.deps.bounds?.startRun?.();
      return await this.answer(signal);
    } finally {
      this.steers.close();
    }
  }

  private async answer(signal: AbortSignal): Promise<DoneReason> {
    const { deps } = this;
    try {
      return await this.turns(signal);
    } catch (error) {
      // The loop never throws at its caller: a bug becomes a visible error and the session stays usable.
      const message = error instanceof Error ? error.message : String(error);
      // The journal may be what failed: the error is shown whether or not it could be written.
      return this.fail({ kind: 'internal', message: `Cairn hit an internal error: ${message}` }).catch(() => {
        deps.emit({ type: 'done', reason: 'error' });
        return 'error' as const;
      });
    }
  }

  private async turns(signal: AbortSignal): Promise<DoneReason> {
    const { deps } = this;
    this.mainRequest.startRun();
    let interruptedInARow = 0;
    let promptTooLongRetried = false;
    for (let turn = 0; ; turn++) {
      if (turn >= this.settings().maxTurns) {
        const message = `Stopped after ${turn} model requests (cairn.maxTurns). Send a message to let Cairn continue.`;
        return this.finish('max_turns', { level: 'warning', kind: 'max_turns', message });
      }
      if (signal.aborted) return this.finish('cancelled');
      // Past a bound the user was asked (`RunBounds`); a "stop" ends the run before this request.
      const stop = await deps.bounds?.beforeRequest?.(signal);
      if (signal.aborted) return this.finish('cancelled');
      if (stop !== undefined) return this.finish('budget', { level: 'warning', kind: 'budget', message: stop });
      // The user's "send now": before the context policy, so a compaction now keeps it with the latest messages.
      await this.takeSteers(signal);
      if (signal.aborted) return this.finish('cancelled');
      if (deps.contextPolicy) {
        this.show(await deps.contextPolicy.beforeRequest(signal));
        // A cancel while compaction ran: no request is composed, shown or journalled.
        if (signal.aborted) return this.finish('cancelled');
      }

      // The spending caps, on the request as it will go: past one the user was asked, and "stop" ends the run here
      // (every call of the last response has its result by now, so the history stays valid).
      if (deps.bounds?.beforeSend) {
        const over = await this.spending.beforeSend(signal);
        if (signal.aborted) return this.finish('cancelled');
        if (over !== undefined) return this.finish('budget', { level: 'warning', kind: 'budget', message: over });
      }

      const outcome = await this.mainRequest.send(signal);
      if (outcome.kind === 'error') {
        // A cancel after text had streamed: what the user already saw stays in the conversation, marked as cut.
        if (outcome.cutText !== undefined) await this.appendAssistantIfAny([{ type: 'text', text: outcome.cutText }], true);
        const error = outcome.error;
        if (error.kind === 'cancelled') return this.finish('cancelled');
        if (error.kind === 'prompt_too_long' && deps.contextPolicy && !promptTooLongRetried) {
          promptTooLongRetried = true;
          const change = await deps.contextPolicy.promptTooLong(signal);
          this.show(change);
          // The user cancelled the recovery: a cancel, not the error it was recovering from.
          if (signal.aborted) return this.finish('cancelled');
          if (change.newGeneration) continue;
        }
        return this.fail({ kind: error.kind, message: error.message, ...(error.advice ? { advice: error.advice } : {}) });
      }
      promptTooLongRetried = false;
      const { content, duplicates } = this.withUniqueToolUseIds(outcome.response.content);
      const response = { ...outcome.response, content };

      if (response.incomplete) {
        interruptedInARow++;
        await this.appendAssistantIfAny(response.content, true);
        await this.answerToolUses(response.content, signal, 'interrupted', duplicates);
        const message = 'The response was cut off part-way; what arrived is kept and marked as interrupted.';
        deps.emit({ type: 'notice', level: 'warning', kind: 'stream_interrupted', message });
        await deps.recorder.notice('warning', 'stream_interrupted', message);
        if (interruptedInARow > this.settings().maxInterruptedContinues) {
          return this.fail({
            kind: 'network',
            message: 'The connection kept dropping mid-response. Check the network and send a message to continue.',
          });
        }
        // Nothing arrived (cut before the first block): the same request again. Asking to continue would put
        // a second user message after one already sent, which the API refuses (roles must alternate).
        if (response.content.length > 0) await this.appendUser([{ type: 'text', text: INTERRUPTED_CONTINUE_PROMPT }], { synthetic: true });
        continue;
      }
      interruptedInARow = 0;

      const toolUses = response.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
      if (response.content.length > 0) await this.appendAssistantIfAny(response.content, false);

      if (toolUses.length > 0) {
        // max_tokens can cut a tool call's input: it is still answered (the ledger reports the bad input).
        const cancelled = await this.answerToolUses(response.content, signal, 'run', duplicates);
        if (cancelled) return this.finish('cancelled');
        continue;
      }
      switch (response.stopReason) {
        case 'pause_turn':
          // The provider paused a long turn: sending the conversation back lets it continue.
          if (response.content.length === 0) return this.finish('end_turn');
          continue;
        case 'max_tokens':
          return this.finish('max_tokens', {
            level: 'warning',
            kind: 'max_tokens',
            message:
              'The response reached its output limit (max_tokens) and stopped. Ask Cairn to continue, or raise the limit in settings.',
          });
        case 'refusal':
          return this.finish('refusal', { level: 'warning', kind: 'refusal', message: 'The model declined to continue this request.' });
        default:
          return this.finish('end_turn');
      }
    }
  }

  /**
   * Answers every tool_use of an assistant message with exactly one tool_result (`ToolUseAnswerer`) and appends
   * them as the next user message. Returns true when the user cancelled part-way.
   */
  private async answerToolUses(
    content: readonly AssistantBlock[],
    signal: AbortSignal,
    mode: AnswerMode,
    duplicates: ReadonlyMap<string, string>,
  ): Promise<boolean> {
    const answers = await this.toolUseAnswerer.answer(content, signal, mode, duplicates);
    if (!answers) return false;
    const { blocks, syntheticBlocks, cancelled } = answers;
    await this.appendUser(blocks, syntheticBlocks.length > 0 ? { syntheticBlocks } : undefined);
    return cancelled;
  }

  /**
   * Appends the messages the user gave while the run went on, each as the user's words (with the files it
   * mentions), and tells the views as of any user message. Roles alternate and nothing sent is rewritten, so a
   * message joins a user message no request has carried yet (the results of the calls that just ran), or
   * follows the model's; a sent user message at the end (a new generation's) waits for the next boundary.
   */
  private async takeSteers(signal: AbortSignal): Promise<void> {
    if (!this.steers.hasWaiting) return;
    const { deps } = this;
    if (!this.canTakeUserText()) return;
    for (const { steer, settle, refuse } of this.steers.takeAll()) {
      // Images for a model that takes none: refused as a message sent at once is, nothing of it added; its
      // sender keeps it (text and images) for the user to edit or send once they chose a model that takes them.
      const refusal = await this.visionRefusal(steer.mentions ?? []);
      if (refusal !== undefined) {
        deps.emit({ type: 'notice', level: 'warning', kind: 'no_vision', message: refusal });
        refuse(refusal);
        continue;
      }
      const { conversation, number: generation } = deps.generations.current;
      const joins = conversation.last()?.message.role === 'user';
      await steer.beforeAppend?.({ generation, index: joins ? conversation.length - 1 : conversation.length });
      const attached = await readMentions(this.deps, steer.mentions ?? [], signal);
      if (attached.length > 0) await deps.recorder.checkpointLedgerState?.();
      const attachedBlocks = await blocksOfAttachments(attached, (result) => this.imageFor(result), this.settings().model);
      const blocks: UserBlock[] = [{ type: 'text' as const, text: steer.text }, ...attachedBlocks];
      await this.appendUser(blocks, { syntheticBlocks: attachedBlocks.map((_, i) => 1 + i) });
      deps.emit({ type: 'user_message', text: steer.text });
      announceAttachments(attached, (event) => deps.emit(event));
      settle(true);
    }
  }

  /** Whether a user text may be appended now without two user messages in a row being sent. */
  private canTakeUserText(): boolean {
    const { conversation } = this.deps.generations.current;
    const last = conversation.last();
    return last === undefined || last.message.role === 'assistant' || conversation.length > conversation.sentCount;
  }

  /** Why a message with these attachments cannot go (images for a model that takes none), the same for every path. */
  private async visionRefusal(mentions: readonly Mention[]): Promise<string | undefined> {
    if (!mentions.some(mentionSendsImage)) return undefined;
    const model = this.settings().model;
    return (await modelTakesImages(this.deps.model, model)) ? undefined : noVisionMessage(model);
  }

  /** The result's image block when the model takes images; undefined otherwise. */
  private imageFor(result: LedgerResult): Promise<ImageBlock | undefined> {
    return imageIfTaken(this.deps.model, this.settings().model, result.image);
  }

  /** A response's tool calls with ids unique in the response, the conversation and this run (see toolUseIds.ts). */
  private withUniqueToolUseIds(content: readonly AssistantBlock[]): { content: AssistantBlock[]; duplicates: ReadonlyMap<string, string> } {
    const used = toolUseIdsIn(this.deps.generations.current.conversation.messages());
    for (const id of this.usedToolUseIds) used.add(id);
    const unique = uniqueToolUseIds(content, used);
    for (const block of unique.content) if (block.type === 'tool_use') this.usedToolUseIds.add(block.id);
    return unique;
  }

  /** Tells the views what the context policy did (it has journalled it already). */
  private show(change: ContextChange): void {
    for (const event of change.events) this.deps.emit(event);
  }

  private async appendUser(
    blocks: Parameters<Conversation['appendUser']>[0],
    options: Parameters<Conversation['appendUser']>[1] = {},
  ): Promise<void> {
    const { conversation, number: generation } = this.deps.generations.current;
    const entry = conversation.appendUser(blocks, options);
    await this.deps.recorder.conversationEntry(generation, entry, conversation.length - 1);
  }

  private async appendAssistantIfAny(content: readonly AssistantBlock[], incomplete: boolean): Promise<void> {
    if (content.length === 0) return;
    const { conversation, number: generation } = this.deps.generations.current;
    const message: AssistantMessage = { role: 'assistant', content: [...content] };
    const entry = conversation.appendAssistant(message, { incomplete });
    await this.deps.recorder.conversationEntry(generation, entry, conversation.length - 1);
    this.deps.emit({ type: 'assistant_message', message: entry.message as AssistantMessage, incomplete });
  }

  /** Ends the run on a failure: shown, and journalled so a reopened session shows it too. */
  private async fail(error: { kind: string; message: string; advice?: string }): Promise<DoneReason> {
    this.deps.emit({ type: 'error', ...error });
    await this.deps.recorder.failure(error.kind, error.message, error.advice);
    return this.finish('error');
  }

  private async finish(
    reason: DoneReason,
    notice?: { level: 'info' | 'warning' | 'critical'; kind: string; message: string },
  ): Promise<DoneReason> {
    if (notice) {
      this.deps.emit({ type: 'notice', ...notice });
      await this.deps.recorder.notice(notice.level, notice.kind, notice.message);
    }
    this.deps.emit({ type: 'done', reason });
    return reason;
  }
}
