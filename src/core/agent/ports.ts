import type { PreparedImage } from '../images/preparedImage';
import type { Decision } from '../compose/decisions';
import type { RequestSnapshot } from '../compose/snapshot';
import type { ConversationEntry } from '../conversation/conversation';
import type { LedgerResult, ToolCall } from '../ledger/types';
import type { Message, ModelRequest, ModelUsage, RequestPurpose, TextBlock } from '../model/types';
import type { AgentEvent } from './events';
import type { ApprovedChange, PlanOutcome } from '../tools/changePlan';

/** What the loop needs of the result ledger (`ResultLedger` satisfies it). */
export interface ToolExecutor {
  /**
   * `approved`: the change the user approved (`propose`'s plan, with the texts they settled on in review):
   * exactly that is written, or nothing when a file changed since it was shown.
   */
  execute(
    call: ToolCall,
    context?: { signal?: AbortSignal; onOutput?: (chunk: string) => void; approved?: ApprovedChange },
  ): Promise<LedgerResult>;
  /**
   * What a writing call would change, worked out without writing (the approval shows it as a diff); a plan
   * that cannot be made says why (the tool would refuse the call). Undefined for a call that writes no file.
   */
  propose?(call: ToolCall): Promise<PlanOutcome | undefined>;
  /**
   * A call that is not run, answered with `message`: an error (denied, cancelled, cut off) unless
   * `answer.ok`, for a call whose work was done elsewhere (a sub-agent that finished before a crash).
   */
  answerWithoutRunning(call: ToolCall, message: string, answer?: { readonly ok: boolean }): Promise<LedgerResult>;
  /** An image the user pasted: an id, its one line stored, the image block in the result (`LedgerResult.image`). */
  attachImage?(call: ToolCall, name: string, image: PreparedImage): Promise<LedgerResult>;
}

/** What the loop needs of the composer (`Composer` satisfies it). */
export interface RequestComposer {
  compose(input: {
    model: string;
    maxTokens: number;
    generation: number;
    conversation: readonly Message[];
    purpose: RequestPurpose;
    decisions: readonly Decision[];
    thinking?: ModelRequest['thinking'];
    outputConfig?: ModelRequest['output_config'];
  }): { request: ModelRequest; snapshot: RequestSnapshot };
  observeUsage(snapshot: RequestSnapshot, usage: ModelUsage): RequestSnapshot;
  rulesDelta(): Promise<TextBlock[]>;
  /** The estimated prompt tokens of a request of `messages` on the current static part (as compaction counts them). */
  estimatePrompt?(model: string, messages: readonly Message[]): number;
}

/** Where the loop writes what happened, before the model is shown it (the session journal). */
export interface SessionRecorder {
  conversationEntry(generation: number, entry: ConversationEntry, index: number): Promise<void>;
  snapshot(snapshot: RequestSnapshot): Promise<void>;
  notice(level: 'info' | 'warning' | 'critical', kind: string, message: string): Promise<void>;
  /** The run ended on this failure (the chat's error card, journalled so a reopen shows it). */
  failure(kind: string, message: string, advice?: string): Promise<void>;
  /** Journals the ledger's tables now (before a user message carrying files the user attached). */
  checkpointLedgerState?(): Promise<void>;
}

/** What a context policy did when asked: whether a new generation is now current, and what to show. */
export interface ContextChange {
  /** True when the policy made a new generation current (the next request is built from it). */
  readonly newGeneration: boolean;
  /** What the views should be told (a compaction's notice, warnings); the journal already has them. */
  readonly events: readonly AgentEvent[];
}

/**
 * What keeps the context within the model's window, asked by the loop at fixed points (compaction
 * implements it). It may start a new generation (through the session's `ActiveGeneration`) and reports
 * what it did; it never calls back into the loop or the session.
 */
export interface ContextPolicy {
  /** A user message starts a run. */
  startRun(): void;
  /** Before each main request (the automatic trigger). */
  beforeRequest(signal: AbortSignal): Promise<ContextChange>;
  /** The provider refused the prompt as too long; a new generation means the request may be retried. */
  promptTooLong(signal: AbortSignal): Promise<ContextChange>;
}

/**
 * Cairn-written blocks put ahead of the user's text in the next user message, after any rules delta
 * (skill envelopes, the catalog delta, editor context, a checkpoint's note): marked as Cairn's
 * (`syntheticBlocks`), never attributed to the user, and never a rewrite of a message already sent.
 */
export interface MessageAttachment {
  /**
   * The blocks (none: nothing to add), and the decisions that say why (a pack chosen compact, a skill turned
   * on). `entries` are the current generation's messages: what was already said is read from them, never kept
   * on the side, so a rewind that dropped a message makes its blocks due again.
   */
  blocksFor(
    userText: string,
    entries: readonly ConversationEntry[],
  ): Promise<readonly TextBlock[] | { readonly blocks: readonly TextBlock[]; readonly decisions: readonly Decision[] }>;
}

/**
 * Bounds on what a run may do beyond its own turn limit, checked by the loop at fixed points (the
 * sub-agents' bounds, `core/subagents/childBudget.ts`; spending caps may use the same points). Past a
 * bound the owner asks the user (`askPastBound`); the loop only carries out the answer, and every call of
 * a response still gets exactly one result.
 */
export interface RunBounds {
  /** A run of the session's own agent starts (a user message, a retry): the per-turn counts start again. */
  startRun?(): void;
  /**
   * Before a response's calls run (those that will run: not repeated ids): the calls that must not run,
   * each with the answer the model gets instead.
   */
  screenCalls?(calls: readonly ToolCall[], signal: AbortSignal): Promise<ReadonlyMap<string, string>>;
  /** Before each model request: undefined to send it, or why the run stops (it ends `budget`, the text its notice). */
  beforeRequest?(signal: AbortSignal): Promise<string | undefined>;
  /**
   * Right before the request is composed and sent (after compaction, so it is the request that will go), with
   * what it will be, estimated only when asked (the spending caps, `core/spending/`, ask only when a cap is
   * set): undefined to send it, or why the run stops.
   */
  beforeSend?(next: () => Promise<NextRequest>, signal: AbortSignal): Promise<string | undefined>;
}

/** What the loop knows of its next request before composing it (`RunBounds.beforeSend`). */
export interface NextRequest {
  readonly model: string;
  /** The prompt's estimated tokens (calibrated, as compaction counts them). */
  readonly promptTokens: number;
  /** The prompt tokens of this agent's previous request in the same generation (0: none): what the cache may hold. */
  readonly previousPromptTokens: number;
  /** How long ago this agent's previous response came (undefined: none yet). */
  readonly sinceAnswerMs: number | undefined;
  /** The response's limit: the most output it can be billed. */
  readonly maxTokens: number;
}
